// What was caught: the incidents a detector opened (only while one is unresolved), each with a drawer holding its
// evidence, Acknowledge, Resolve and Contain it; then every action the machines reported, newest first, with the rule
// that decided it and a trace of what led to it and what it set off. Narrowed by query (?effect=deny, ?agent=…).
import type { EventView } from "../../routes/events.ts";
import type { IncidentView } from "../../routes/incidents.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import { field, type PageDef } from "../page.ts";

const FILTERS = ["effect", "agent", "machine", "rule", "session"] as const;

/** The rows of a list of actions; shared with Home and an agent's own page. */
export function eventRows(events: readonly EventView[], now: number): Html {
  return html`<table class="list events"><caption class="visually-hidden">Actions, newest first</caption>
<thead><tr><th scope="col">When</th><th scope="col">Action</th><th scope="col">Verdict</th><th scope="col">Rule</th>
<th scope="col">Where</th><th scope="col"><span class="visually-hidden">Trace</span></th></tr></thead>
<tbody>${events.map(
    (e) => html`<tr class="effect-${e.effect ?? "none"}">
  <td><time datetime="${e.occurredAt ?? ""}">${ago(e.occurredAt, now)}</time></td>
  <td><code>${e.operation}</code>${e.resourceRef ? html`<div class="muted">${e.resourceRef}</div>` : ""}
    ${e.subjectId !== e.dedupKey ? html`<div class="muted">outcome: exit ${e.exitCode ?? "?"}</div>` : ""}</td>
  <td>${e.effect ? html`<strong class="verdict">${e.effect}</strong>` : "–"}${e.reason ? html`<div class="muted">${e.reason}</div>` : ""}${
    e.wouldReach ? html`<div class="would-reach">Would have reached: ${e.wouldReach}</div>` : ""
  }</td>
  <td>${e.ruleId ? html`<a href="/caught?rule=${e.ruleId}"><code>${e.ruleId}</code></a>` : html`<span class="muted">no rule</span>`}</td>
  <td><a href="/caught?machine=${e.machineId}"><code>${e.machineId}</code></a>${
    e.agent ? html`<div><a href="/agents?name=${e.agent}">${e.agent}</a></div>` : ""
  }<div class="muted">${e.surface}</div></td>
  <td><a href="/caught?trace=${e.id}">Trace</a></td>
</tr>`,
  )}</tbody></table>`;
}

async function trace(c: ConsoleCall, id: string): Promise<Html> {
  const t = await invoke<{
    event: EventView;
    trace: { up: EventView[]; down: EventView[]; bounded: boolean; parentsRecorded: boolean };
  }>(c, "GET /v1/events/:id", { params: { id } });
  const chain = [...t.trace.up, t.event, ...t.trace.down].sort((a, b) => a.id - b.id);
  return html`<section class="detail" aria-labelledby="trace-h"><h2 id="trace-h">Trace of <code>${t.event.operation}</code></h2>
${eventRows(chain, c.now())}
<p class="muted">${
    chain.length === 1
      ? "This action traces to itself alone: the machine recorded no parent for it, and no outcome of it has arrived."
      : "Up to the decision it belongs to and down through how it ended."
  } Machines do not yet send the parent of an action beyond its own decision, so a chain across agents and machines
  appears only once something reports the link.${t.trace.bounded ? " The walk stopped at its bound." : ""}</p></section>`;
}

interface Hop {
  readonly step: string;
  readonly agent: string | null;
  readonly machine: string;
  readonly operation: string;
  readonly method: string;
}

/** A chain's hops in order, each with how it was joined: carried (propagated) or stitched (inferred), never blurred. */
function hopList(hops: unknown): Html | string {
  if (!Array.isArray(hops) || hops.length === 0) return "";
  return html`<h3>The chain</h3><ol class="hops">${(hops as Hop[]).map(
    (h) =>
      html`<li><strong>${h.step}</strong>: ${h.agent ?? "an agent"} on <code>${h.machine}</code> ran <code>${h.operation}</code> <span class="muted">(${h.method === "propagated" ? "joined on the correlation id it carried" : "inferred from the session and time"})</span></li>`,
  )}</ol>`;
}

async function incidentDrawer(c: ConsoleCall, i: IncidentView): Promise<Html> {
  const evidence = await Promise.all(
    i.evidence
      .slice(0, 20)
      .map((id) =>
        invoke<{ event: EventView }>(c, "GET /v1/events/:id", { params: { id: String(id) } }).then((r) => r.event),
      ),
  );
  const act = may(c, "POST /v1/incidents/:id/acknowledge");
  return html`<details class="incident" id="${i.id}">
<summary><strong>${i.title}</strong> <span class="muted">${i.detector} · opened ${ago(i.openedAt, c.now())} · ${i.status}${
    i.contained ? ` · contained by ${i.contained.by}` : ""
  }</span></summary>
<div class="drawer">
<dl class="facts"><dt>${i.agents.length > 1 ? "Agents" : "Agent"}</dt><dd>${
    i.agents.length > 1 ? i.agents.join(", ") : (i.agent ?? "not named by the machine")
  }</dd>
<dt>${i.pattern ? "Lineage" : "Session"}</dt><dd><code>${i.session ?? "–"}</code>${i.pattern ? html` · <strong>${i.pattern}</strong>` : ""}</dd>
<dt>Machines</dt><dd>${i.machineIds.map((m) => html`<code>${m}</code> `)}</dd></dl>
${hopList(i.hops)}<h3>Evidence</h3>${eventRows(evidence, c.now())}
${i.evidence.length > evidence.length ? html`<p class="muted">and ${i.evidence.length - evidence.length} more</p>` : ""}
<div class="row">
${act && !i.acknowledged ? form(c, "acknowledge", { id: i.id }, html`<button type="submit">Acknowledge</button>`) : ""}
${
  act
    ? form(
        c,
        "resolve",
        { id: i.id },
        html`<label for="res-${i.id}">Resolve as</label><select id="res-${i.id}" name="resolution">
      <option value="confirmed">what the detector said</option><option value="false-alarm">a false alarm</option></select>
      <button type="submit">Resolve</button>`,
      )
    : ""
}
${
  may(c, "POST /v1/incidents/:id/contain") && !i.contained
    ? form(
        c,
        "contain",
        { id: i.id },
        html`${
          i.proposal
            ? html`<p><strong>Proposed:</strong> freeze ${i.agents.join(", ")} on every machine. Each hop was inside its own authority; joined on the lineage they are one escalation. Nothing is frozen until somebody confirms.</p>`
            : ""
        }<label for="for-${i.id}">Freeze ${i.agents.length > 1 ? i.agents.join(", ") : (i.agent ?? "the agent")} for</label><select id="for-${i.id}" name="for">
      <option value="30m">30 minutes</option><option value="2h">2 hours</option><option value="1d" selected>1 day</option></select>
      <button type="submit" class="danger">Contain it</button>
      <span class="muted">Freezes ${i.agents.length > 1 ? i.agents.join(", ") : (i.agent ?? "the agent involved")} on every machine and moves every machine to enforce.</span>`,
      )
    : ""
}
</div></div></details>`;
}

export const caught: PageDef = {
  path: "/caught",
  title: "What was caught",
  async render(c) {
    const q = c.url.searchParams;
    const traceId = q.get("trace");
    const query: Record<string, string> = { order: "desc", limit: "50" };
    for (const f of FILTERS) {
      const v = q.get(f);
      if (v) query[f] = v;
    }
    const before = q.get("before");
    if (before) query.before = before;
    const [inc, list] = await Promise.all([
      invoke<{ incidents: IncidentView[]; detectors: { name: string; judged: number; precision: number | null }[] }>(
        c,
        "GET /v1/incidents",
      ),
      invoke<{ events: EventView[]; next: number | null }>(c, "GET /v1/events", { query }),
    ]);
    const narrowed = FILTERS.filter((f) => q.get(f));
    const more = new URLSearchParams(q);
    if (list.next) more.set("before", String(list.next));
    return html`
${traceId ? await trace(c, traceId) : ""}
${
  inc.incidents.length > 0
    ? html`<section aria-labelledby="inc-h"><h2 id="inc-h">Incidents</h2>${await Promise.all(
        inc.incidents.map((i) => incidentDrawer(c, i)),
      )}<p class="muted">${inc.detectors.map(
        (d) =>
          html`${d.name}: ${d.precision === null ? "precision not measured yet" : `${Math.round(d.precision * 100)}% confirmed of ${d.judged} judged`}. `,
      )}</p></section>`
    : ""
}
<section aria-labelledby="all-h"><h2 id="all-h">Every action the machines reported</h2>
<form method="get" action="/caught" class="inline filters" aria-label="Narrow the list">
  <label for="f-effect">Verdict</label>
  <select id="f-effect" name="effect"><option value="">any</option>${["deny", "ask", "allow"].map(
    (e) => html`<option value="${e}"${q.get("effect") === e ? html` selected` : ""}>${e}</option>`,
  )}</select>
  <label for="f-agent">Agent</label><input id="f-agent" name="agent" value="${q.get("agent") ?? ""}">
  <label for="f-machine">Machine</label><input id="f-machine" name="machine" value="${q.get("machine") ?? ""}">
  <button type="submit">Show</button>
  ${narrowed.length > 0 ? html`<a href="/caught">Show everything</a>` : ""}
</form>
${
  list.events.length === 0
    ? html`<p class="empty">${narrowed.length > 0 ? "Nothing reported matches." : "No machine has reported an action yet."}</p>`
    : eventRows(list.events, c.now())
}
${list.next ? html`<p><a href="/caught?${more.toString()}">Older</a></p>` : ""}
</section>`;
  },
  actions: {
    async acknowledge(c) {
      const id = field(c, "id");
      await invoke(c, "POST /v1/incidents/:id/acknowledge", { params: { id } });
      return `/caught#${id}`;
    },
    async resolve(c) {
      const id = field(c, "id");
      await invoke(c, "POST /v1/incidents/:id/resolve", {
        params: { id },
        body: { resolution: field(c, "resolution") },
      });
      return "/caught";
    },
    async contain(c) {
      const id = field(c, "id");
      await invoke(c, "POST /v1/incidents/:id/contain", { params: { id }, body: { for: field(c, "for") } });
      return `/caught#${id}`;
    },
  },
};
