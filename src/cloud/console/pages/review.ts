// The review queue as a section of Waiting on you: each candidate decision with its evidence and its taint badge first,
// the statement after, and the two answers. Filtered by the reviewer's clearance in the route it reads, not here.
import type { CandidateView, DecisionView, SourceEventView } from "../../intent/rows.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import type { Action } from "../page.ts";
import { field } from "../page.ts";
import type { WaitingSection } from "./waiting-section.ts";

type Queued = CandidateView & { events: SourceEventView[]; eventsWithheld: number };

interface Counted {
  readonly value: string;
  readonly count: number;
}

/** What GET /v1/candidates/:id/preview answers: the compiled rules and what they would have caught. */
interface Preview {
  readonly candidate: string;
  readonly terms: readonly string[];
  readonly bound: readonly string[];
  readonly effect: "ask" | "deny";
  readonly rules: readonly unknown[];
  readonly rulesHash: string;
  readonly fleet: {
    readonly since: string;
    readonly read: number;
    readonly truncated: boolean;
    readonly caught: number;
    readonly byAction: readonly Counted[];
    readonly byTarget: readonly Counted[];
    readonly examples: readonly {
      readonly operation: string;
      readonly target: string | null;
      readonly machine: string;
      readonly agent: string | null;
      readonly at: string | null;
    }[];
  };
}

/** The reviewer's own choice for one candidate, carried in the page's query (`?candidate=&term=&effect=`). */
function choiceFor(c: ConsoleCall, id: string): { terms?: string; effect?: string } {
  const q = c.url.searchParams;
  if (q.get("candidate") !== id) return {};
  return { terms: q.getAll("term").join(","), effect: q.get("effect") === "ask" ? "ask" : "deny" };
}

const counts = (label: string, xs: readonly Counted[]) =>
  xs.length === 0
    ? ""
    : html`<div class="muted">${label}: ${xs.slice(0, 8).map((x, i) => html`${i > 0 ? ", " : ""}<code>${x.value}</code> (${x.count})`)}</div>`;

/**
 * What the decision would bind on machines, read before approving: the terms every caught action must carry (the
 * reviewer picks them), refuse or ask, what that would have stopped of last week's actions, and the rules themselves.
 */
function compiled(c: ConsoleCall, k: Queued, p: Preview): Html {
  const f = p.fleet;
  const verb = p.effect === "deny" ? "stopped" : "held for a person";
  return html`<div class="compiled" id="compiled-${k.id}">
  <form method="get" action="/waiting#${k.id}" class="inline" aria-label="What ${k.statement} binds">
    <input type="hidden" name="candidate" value="${k.id}">
    <fieldset><legend>Machines hold an action to it when the action carries every one of</legend>${p.terms.map(
      (t) =>
        html`<label><input type="checkbox" name="term" value="${t}"${p.bound.includes(t) ? html` checked` : ""}> <code>${t}</code></label> `,
    )}</fieldset>
    <label for="eff-${k.id}">and then</label> <select id="eff-${k.id}" name="effect"><option value="deny"${
      p.effect === "deny" ? html` selected` : ""
    }>refuses it</option><option value="ask"${p.effect === "ask" ? html` selected` : ""}>asks a person first</option></select>
    <button type="submit">Show what that catches</button>
  </form>
  <p class="${f.caught > 0 ? "warn" : "muted"}" role="status"><strong>${
    p.bound.length === 0
      ? "Binds no machine: recorded, not enforced."
      : `Would have ${verb} ${f.caught} of last week's ${f.read}${f.truncated ? "+" : ""} actions.`
  }</strong></p>
  ${counts("Actions it catches", f.byAction)}${counts("Targets it catches", f.byTarget)}
  ${
    f.examples.length > 0
      ? html`<details><summary>Examples</summary><ul class="evidence-list">${f.examples.map(
          (e) =>
            html`<li><code>${e.operation}</code>${e.target ? html` on <code>${e.target}</code>` : ""} <span class="muted">by ${e.agent ?? "an agent"} on <code>${e.machine}</code>, ${ago(e.at, c.now())}</span></li>`,
        )}</ul></details>`
      : ""
  }
  <details><summary>The rules it publishes (${p.rules.length})</summary><pre>${JSON.stringify(p.rules, null, 2)}</pre></details>
</div>`;
}

interface Decayed {
  readonly id: string;
  readonly statement: string;
  readonly reasons: readonly string[];
}

interface Drifted {
  readonly id: string;
  readonly statement: string;
  readonly proceeded: number;
  readonly refused: number;
  readonly machines: readonly string[];
}

/** What a pattern is drawn from: the approvals that repeat, each a held call somebody granted. */
function approvals(k: Queued): Html {
  const p = k.pattern;
  if (!p) return html``;
  return html`<div class="muted">Approved ${p.count} times by ${p.by}: <code>${p.action}</code> on <code>${p.shape}</code>
  (${p.holds.map((h, i) => html`${i > 0 ? ", " : ""}<code>${h}</code>`)}). Accepting it proposes a rule; a second admin publishes it.</div>`;
}

function evidence(c: ConsoleCall, e: SourceEventView): Html {
  return html`<li class="evidence"><div>${
    e.tainted
      ? html`<strong class="warn badge" title="${e.taintReason ?? ""}">tainted</strong> `
      : html`<strong class="ok badge">trusted</strong> `
  }<span class="muted">${e.sourceType} ${e.kind}${e.author ? ` by ${e.author}` : ""} · ${ago(e.occurredAt, c.now())} · ${e.classification}</span>
  <a href="${e.sourceRef}" rel="noreferrer noopener" target="_blank">open the source</a></div>
  <blockquote>${e.content}</blockquote>${e.tainted && e.taintReason ? html`<div class="muted warn">${e.taintReason}</div>` : ""}</li>`;
}

export const decisionsToConfirm: WaitingSection = {
  id: "decisions",
  title: "Decisions to confirm",
  async load(c) {
    const { candidates, withheld } = await invoke<{ candidates: Queued[]; withheld: number }>(c, "GET /v1/candidates");
    if (candidates.length === 0 && withheld === 0) return undefined;
    const decide = may(c, "POST /v1/candidates/:id/approve");
    const { decisions } = await invoke<{ decisions: DecisionView[] }>(c, "GET /v1/decisions");
    const previews = new Map<string, Preview>();
    for (const k of candidates)
      if (k.origin !== "pattern")
        previews.set(
          k.id,
          await invoke<Preview>(c, "GET /v1/candidates/:id/preview", {
            params: { id: k.id },
            query: choiceFor(c, k.id),
          }),
        );
    // What an approval can replace: a decision in force this reviewer may read.
    const replaces = (id: string) =>
      decisions.length === 0
        ? ""
        : html` <label for="sup-${id}">Supersedes</label> <select id="sup-${id}" name="supersedes"><option value="">nothing</option>${decisions.map(
            (d) => html`<option value="${d.id}">${d.statement}</option>`,
          )}</select>`;
    return html`${
      withheld > 0
        ? html`<p class="muted">${withheld} more need a clearance you do not hold: somebody cleared for them decides those.</p>`
        : ""
    }<ul class="items">${candidates.map(
      (k) => html`<li id="${k.id}"><div class="muted">Read the evidence, not the summary: ${k.events.length} event(s)${
        k.eventsWithheld > 0 ? html`, ${k.eventsWithheld} withheld from you` : ""
      } · ${k.classification}${k.tainted ? html` · <strong class="warn">drawn from tainted evidence</strong>` : ""}</div>
  ${k.origin === "pattern" ? approvals(k) : html`<ul class="evidence-list">${k.events.map((e) => evidence(c, e))}</ul>`}
  <p><strong>${k.statement}</strong></p>${k.rationale ? html`<p class="muted">${k.rationale}</p>` : ""}
  ${(() => {
    const p = previews.get(k.id);
    return p ? compiled(c, k, p) : "";
  })()}
  ${
    decide
      ? html`<div class="row">${form(
          c,
          "approve-decision",
          (() => {
            const p = previews.get(k.id);
            // Exactly what was shown above goes back: the terms, the effect and the hash of the rules they compile to.
            return p ? { id: k.id, terms: p.bound.join(","), effect: p.effect, rules: p.rulesHash } : { id: k.id };
          })(),
          k.origin === "pattern"
            ? html`<button type="submit" class="primary">Approve</button>`
            : html`${replaces(k.id)} <button type="submit" class="primary">Approve these rules</button>`,
          { label: `Approve: ${k.statement}` },
        )}${form(
          c,
          "reject-decision",
          { id: k.id },
          html`<label>Why not <input type="text" name="reason" value=""></label> <button type="submit">Reject</button>`,
          { label: `Reject: ${k.statement}` },
        )}</div>`
      : ""
  }</li>`,
    )}</ul>`;
  },
};

export const factsToSettle: WaitingSection = {
  id: "settle",
  title: "Decisions to settle",
  async load(c) {
    const [decay, drift] = await Promise.all([
      invoke<{ decisions: Decayed[] }>(c, "GET /v1/decisions/decay"),
      invoke<{ decisions: Drifted[] }>(c, "GET /v1/decisions/drift"),
    ]);
    if (decay.decisions.length === 0 && drift.decisions.length === 0) return undefined;
    const confirm = may(c, "POST /v1/decisions/:id/confirm");
    return html`<ul class="items">${decay.decisions.map(
      (d) => html`<li id="decay-${d.id}"><strong>${d.statement}</strong>
  <div class="muted">Still true? ${d.reasons.join("; ")}. Nothing is deleted: confirming records that somebody read it again.</div>
  ${confirm ? form(c, "confirm-decision", { id: d.id }, html`<button type="submit">It still holds</button>`) : ""}</li>`,
    )}${drift.decisions.map(
      (d) => html`<li id="drift-${d.id}"><strong>${d.statement}</strong>
  <div class="muted warn">Practice moved away from it: ${d.proceeded} action(s) it covers went ahead (on ${d.machines.join(", ")}), ${d.refused} were held to it.
  Reported, not resolved: supersede it, or bring the practice back.</div></li>`,
    )}</ul>`;
  },
};

export const reviewActions: Readonly<Record<string, Action>> = {
  async "approve-decision"(c) {
    const effect = c.form.get("effect") ?? "";
    const supersedes = c.form.get("supersedes") ?? "";
    const rules = c.form.get("rules");
    const terms = c.form.get("terms");
    await invoke(c, "POST /v1/candidates/:id/approve", {
      params: { id: field(c, "id") },
      body: {
        ...(effect ? { effect } : {}),
        ...(supersedes ? { supersedes } : {}),
        ...(rules !== null ? { rules } : {}),
        ...(terms !== null ? { terms: terms.split(",").filter(Boolean) } : {}),
      },
    });
    return undefined;
  },
  async "confirm-decision"(c) {
    await invoke(c, "POST /v1/decisions/:id/confirm", { params: { id: field(c, "id") } });
    return undefined;
  },
  async "reject-decision"(c) {
    const reason = (c.form.get("reason") ?? "").trim();
    await invoke(c, "POST /v1/candidates/:id/reject", {
      params: { id: field(c, "id") },
      body: reason ? { reason } : {},
    });
    return undefined;
  },
};
