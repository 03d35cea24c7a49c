// The review queue as a section of Waiting on you: each candidate decision with its evidence and its taint badge first,
// the statement after, and the two answers. Filtered by the reviewer's clearance in the route it reads, not here.
import type { CandidateView, SourceEventView } from "../../intent/rows.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import type { Action } from "../page.ts";
import { field } from "../page.ts";
import type { WaitingSection } from "./waiting.ts";

type Queued = CandidateView & { events: SourceEventView[]; eventsWithheld: number };

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
    return html`${
      withheld > 0
        ? html`<p class="muted">${withheld} more need a clearance you do not hold: somebody cleared for them decides those.</p>`
        : ""
    }<ul class="items">${candidates.map(
      (k) => html`<li id="${k.id}"><div class="muted">Read the evidence, not the summary: ${k.events.length} event(s)${
        k.eventsWithheld > 0 ? html`, ${k.eventsWithheld} withheld from you` : ""
      } · ${k.classification}${k.tainted ? html` · <strong class="warn">drawn from tainted evidence</strong>` : ""}</div>
  <ul class="evidence-list">${k.events.map((e) => evidence(c, e))}</ul>
  <p><strong>${k.statement}</strong></p>${k.rationale ? html`<p class="muted">${k.rationale}</p>` : ""}
  ${
    decide
      ? html`<div class="row">${form(
          c,
          "approve-decision",
          { id: k.id },
          html`<button type="submit" class="primary">Approve</button>`,
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

export const reviewActions: Readonly<Record<string, Action>> = {
  async "approve-decision"(c) {
    await invoke(c, "POST /v1/candidates/:id/approve", { params: { id: field(c, "id") }, body: {} });
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
