// Rule changes waiting on a second admin, drawn the same under Waiting on you and Autonomy: what each would change
// by name, who proposed it, Approve (an admin who is not the proposer, unless the team has one admin) and Reject,
// or Withdraw for the one who sent it. The server decides who may; this only chooses which buttons to draw.
import type { ProposalView } from "../../routes/proposals.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form, type Me } from "../layout.ts";
import { type Action, field } from "../page.ts";

export async function pendingProposals(c: ConsoleCall): Promise<ProposalView[]> {
  const r = await invoke<{ proposals: ProposalView[] }>(c, "GET /v1/policies/proposals", { query: { status: "all" } });
  return r.proposals.filter((p) => p.status === "pending" || p.status === "failed");
}

async function activeAdmins(c: ConsoleCall): Promise<number> {
  const r = await invoke<{ members: { role: string; status: string }[] }>(c, "GET /v1/members");
  return r.members.filter((m) => m.role === "admin" && m.status === "active").length;
}

const names = (label: string, list: readonly string[]) =>
  list.length > 0 ? html`<li>${label}: ${list.map((n, i) => html`${i > 0 ? ", " : ""}<code>${n}</code>`)}</li>` : "";

/** What GET /v1/policies/proposals/:id adds to the listing: the diff, and the verdicts it turns on the fleet. */
interface Shown {
  readonly diff: string | null;
  readonly fleet: {
    readonly read: number;
    readonly truncated: boolean;
    readonly changes: readonly {
      readonly from: string;
      readonly to: string;
      readonly count: number;
      readonly examples: readonly {
        readonly operation: string;
        readonly target: string | null;
        readonly machine: string;
      }[];
    }[];
  };
}

const VERDICT: Readonly<Record<string, string>> = { allow: "allowed", ask: "held for a person", deny: "refused" };

/** The diff of a proposal against the rules it was proposed over, and what it would have changed last week. */
function whatChanges(s: Shown): Html {
  const f = s.fleet;
  return html`<div class="fleet" role="status">${
    f.changes.length === 0
      ? html`<p class="muted">None of last week's ${f.read}${f.truncated ? "+" : ""} actions would have been decided differently.</p>`
      : html`<p>On last week's ${f.read}${f.truncated ? "+" : ""} actions:</p><ul>${f.changes.map(
          (
            ch,
          ) => html`<li class="${ch.to === "allow" ? "warn" : ""}"><strong>${ch.count}</strong> ${VERDICT[ch.from] ?? ch.from} would now be
  <strong>${VERDICT[ch.to] ?? ch.to}</strong>: ${ch.examples
    .slice(0, 5)
    .map(
      (e, i) =>
        html`${i > 0 ? ", " : ""}<code>${e.operation}</code>${e.target ? html` on <code>${e.target}</code>` : ""}`,
    )}</li>`,
        )}</ul>`
  }</div>
  <details><summary>The diff</summary>${
    s.diff === null
      ? html`<p class="muted">Too long to show here; read it whole with GET /v1/policies/proposals/:id.</p>`
      : html`<pre class="diff">${s.diff || "(no change to the text)"}</pre>`
  }</details>`;
}

export async function proposalList(c: ConsoleCall, me: Me, proposals: readonly ProposalView[]): Promise<Html> {
  const admins = proposals.length > 0 && may(c, "POST /v1/policies/proposals/:id/approve") ? await activeAdmins(c) : 0;
  const shown = new Map<string, Shown>();
  for (const p of proposals)
    shown.set(p.id, await invoke<Shown>(c, "GET /v1/policies/proposals/:id", { params: { id: p.id } }));
  return html`<ul class="items">${proposals.map((p) => {
    const mine = p.proposedBy === me.actor;
    const canApprove = admins > 0 && (!mine || admins === 1);
    return html`<li id="${p.id}"><strong>${p.title}</strong>
  <div class="muted">proposed by ${p.proposedBy} ${ago(p.proposedAt, c.now())} · ${p.ruleCount} rule(s) in the set${
    p.status === "failed"
      ? html` · <span class="warn">publishing failed: ${p.failure}; approving again retries it</span>`
      : ""
  }</div>
  <ul class="changes">${names("adds", p.changes.added)}${names("removes", p.changes.removed)}${names("changes", p.changes.modified)}${
    p.changes.added.length + p.changes.removed.length + p.changes.modified.length === 0
      ? html`<li>no change to the rules in force</li>`
      : ""
  }</ul>
  ${(() => {
    const s = shown.get(p.id);
    return s ? whatChanges(s) : "";
  })()}
  <div class="row">
  ${canApprove ? form(c, "approve-proposal", { id: p.id }, html`<button type="submit" class="primary">Approve and publish</button>`) : ""}
  ${
    may(c, "POST /v1/policies/proposals/:id/reject")
      ? form(c, "reject-proposal", { id: p.id }, html`<button type="submit">${mine ? "Withdraw" : "Reject"}</button>`)
      : ""
  }
  ${mine && admins > 1 ? html`<span class="muted">A second admin approves it.</span>` : ""}
  </div></li>`;
  })}</ul>`;
}

export const proposalActions: Readonly<Record<string, Action>> = {
  async "approve-proposal"(c) {
    await invoke(c, "POST /v1/policies/proposals/:id/approve", { params: { id: field(c, "id") } });
    return undefined;
  },
  async "reject-proposal"(c) {
    await invoke(c, "POST /v1/policies/proposals/:id/reject", { params: { id: field(c, "id") } });
    return undefined;
  },
};
