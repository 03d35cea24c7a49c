// Agents: each one the machines reported, who answers for it, who it acts for, and why it is silent when it is (live,
// halted and why, revoked). An agent's own page (?name=) is where it is given owners and stopped: halted (a reviewer,
// with a reason, lifted again), frozen on every machine for a while, or revoked for good (an admin).
import type { AgentView } from "../../routes/agents.ts";
import type { EventView } from "../../routes/events.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import { field, type PageDef } from "../page.ts";
import { eventRows } from "./caught.ts";

function state(a: AgentView): Html {
  if (a.state === "revoked") return html`<strong>revoked</strong> <span class="muted">by ${a.revoked?.by}</span>`;
  if (a.state === "halted")
    return html`<strong class="warn">halted</strong> <span class="muted">by ${a.halt?.by}: ${a.halt?.reason}</span>`;
  if (a.frozen)
    return html`<strong class="warn">frozen everywhere</strong> <span class="muted">until ${a.frozen.until}</span>`;
  return html`<span class="ok">${a.state}</span>`;
}

const owners = (a: AgentView) =>
  a.owners.length === 0
    ? html`<span class="warn">nobody</span>`
    : html`${a.owners.join(", ")}${a.ownersFrom === "machines" ? html` <span class="muted">(taken from the machines it runs on)</span>` : ""}`;

async function own(c: ConsoleCall, name: string): Promise<Html> {
  const [a, recent] = await Promise.all([
    invoke<AgentView>(c, "GET /v1/agents/:name", { params: { name } }),
    invoke<{ events: EventView[] }>(c, "GET /v1/events", { query: { order: "desc", agent: name, limit: "20" } }),
  ]);
  const live = a.state !== "revoked";
  return html`<section class="detail" aria-labelledby="agent-h"><h2 id="agent-h">${a.name}</h2>
<dl class="facts">
  <dt>Kind</dt><dd>${a.kind ?? "unknown"}</dd>
  <dt>State</dt><dd>${state(a)}</dd>
  <dt>Answers for it</dt><dd>${owners(a)}</dd>
  <dt>Acts for</dt><dd>${a.principal ?? html`<span class="muted">no principal named</span>`}</dd>
  <dt>Runs on</dt><dd>${a.machines.map((m) => html`<a href="/machines#${m}"><code>${m}</code></a> `)}</dd>
  <dt>Seen</dt><dd>first ${ago(a.firstSeenAt, c.now())}, last ${ago(a.lastSeenAt, c.now())}</dd>
</dl>
${
  may(c, "PATCH /v1/agents/:name") && live
    ? form(
        c,
        "owners",
        { name: a.name },
        html`<label for="owners">Owners (members' emails, comma-separated)</label>
  <input id="owners" name="owners" value="${a.ownersFrom === "named" ? a.owners.join(", ") : ""}">
  <label for="principal">Acts for (a person)</label>
  <input id="principal" name="principal" value="${a.principal ?? ""}">
  <button type="submit">Save</button>`,
        { className: "stack", label: "Owners and principal" },
      )
    : ""
}
<div class="row">
${
  live && a.state !== "halted" && may(c, "POST /v1/agents/:name/halt")
    ? form(
        c,
        "halt",
        { name: a.name },
        html`<label for="halt-reason">Why halt it</label><input id="halt-reason" name="reason" required>
  <button type="submit">Halt</button>`,
        { label: "Halt" },
      )
    : ""
}
${a.state === "halted" && may(c, "POST /v1/agents/:name/lift") ? form(c, "lift", { name: a.name }, html`<button type="submit">Lift the halt</button>`) : ""}
${
  live && may(c, "POST /v1/state")
    ? form(
        c,
        "freeze",
        { name: a.name },
        html`<label for="freeze-for">Freeze it everywhere for</label><select id="freeze-for" name="for">
  <option value="30m">30 minutes</option><option value="2h">2 hours</option><option value="1d">1 day</option></select>
  <label for="freeze-why">Why</label><input id="freeze-why" name="reason">
  <button type="submit">Freeze everywhere</button>`,
        { label: "Freeze everywhere" },
      )
    : ""
}
${
  live && may(c, "POST /v1/agents/:name/revoke")
    ? html`<details class="confirm"><summary>Revoke…</summary>${form(
        c,
        "revoke",
        { name: a.name },
        html`<p>The end of this agent on every machine. Its record stays.</p><button type="submit" class="danger">Revoke ${a.name}</button>`,
      )}</details>`
    : ""
}
</div>
<h3>What it did</h3>
${recent.events.length === 0 ? html`<p class="empty">No action of it reported yet.</p>` : eventRows(recent.events, c.now())}
<p><a href="/caught?agent=${a.name}">Every action it took</a></p>
</section>`;
}

export const agents: PageDef = {
  path: "/agents",
  title: "Agents",
  async render(c) {
    const { agents: list } = await invoke<{ agents: AgentView[] }>(c, "GET /v1/agents");
    const name = c.url.searchParams.get("name");
    return html`${
      list.length === 0
        ? html`<p class="empty">No agent reported yet. A machine's scan names its agents, and every action an agent takes
      names it, once the machine is logged in.</p>`
        : html`<table class="list"><caption class="visually-hidden">Agents</caption>
<thead><tr><th scope="col">Agent</th><th scope="col">State</th><th scope="col">Answers for it</th><th scope="col">Acts for</th>
<th scope="col">Machines</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.map(
            (
              a,
            ) => html`<tr><th scope="row"><a href="/agents?name=${a.name}">${a.name}</a><div class="muted">${a.kind ?? ""}</div></th>
<td>${state(a)}</td><td>${owners(a)}</td><td>${a.principal ?? "–"}</td><td>${a.machines.length}</td>
<td><a href="/caught?agent=${a.name}">${a.actions}</a></td></tr>`,
          )}</tbody></table>`
    }
${name ? await own(c, name) : ""}`;
  },
  actions: {
    async owners(c) {
      const name = field(c, "name");
      const owners = (c.form.get("owners") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const principal = (c.form.get("principal") ?? "").trim();
      await invoke(c, "PATCH /v1/agents/:name", { params: { name }, body: { owners, principal: principal || null } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async halt(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/halt", { params: { name }, body: { reason: field(c, "reason") } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async lift(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/lift", { params: { name } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async freeze(c) {
      const name = field(c, "name");
      const reason = (c.form.get("reason") ?? "").trim();
      await invoke(c, "POST /v1/state", {
        body: { kind: "freeze-agent", subject: name, for: field(c, "for"), ...(reason ? { reason } : {}) },
      });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async revoke(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/revoke", { params: { name } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
  },
};
