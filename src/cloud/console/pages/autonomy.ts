// Autonomy: one view of the rules in force by what they do (what proceeds on its own, what stops for a person, what
// is refused) with what the machines saw of each over a week; then, only while there is something to hand over,
// what the team could stop being asked about. The rules themselves are read and written through the API.
import type { AutonomyView } from "../../routes/overview.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { type Html, html, tile } from "../html.ts";
import { form, meOf } from "../layout.ts";
import { field, type PageDef } from "../page.ts";
import { pendingProposals, proposalActions, proposalList } from "./rules.ts";

function group(title: string, id: string, g: AutonomyView["proceeds"], none: string): Html {
  return html`<section aria-labelledby="${id}"><h2 id="${id}">${title} <span class="n">${tile(g.last7d)}</span>
  <span class="muted">in the last 7 days</span></h2>${
    g.rules.length === 0
      ? html`<p class="empty">${none}</p>`
      : html`<ul class="rules">${g.rules.map(
          (r) =>
            html`<li><code>${r.name}</code>: ${r.actions.map((a, i) => html`${i > 0 ? ", " : ""}<code>${a}</code>`)}${
              r.state.length > 0 ? html` while ${r.state.join(", ")}` : ""
            }${r.reason ? html`<div class="muted">${r.reason}</div>` : ""}</li>`,
        )}</ul>`
  }</section>`;
}

async function handOver(c: ConsoleCall, a: AutonomyView): Promise<Html> {
  if (a.handOver.length === 0) return html``;
  return html`<section aria-labelledby="hand-h"><h2 id="hand-h">What you could stop being asked about</h2>
<ul class="items">${a.handOver.map(
    (
      h,
    ) => html`<li><code>${h.action}</code>${h.agent ? html` by ${h.agent}` : ""} was approved ${h.granted} times in 30 days
  and never refused${h.ruleId ? html`, asked by <code>${h.ruleId}</code>` : ""}.
  ${
    h.workspaceRule && h.ruleId && may(c, "POST /v1/policies/proposals/drop-rule")
      ? form(c, "drop-rule", { rule: h.ruleId }, html`<button type="submit">Propose dropping ${h.ruleId}</button>`)
      : html`<span class="muted">${h.ruleId ? "That rule is the machine's own, decided there." : "No rule asked: memnox's own check did."}</span>`
  }</li>`,
  )}</ul></section>`;
}

export const autonomy: PageDef = {
  path: "/autonomy",
  title: "Autonomy",
  async render(c) {
    const [a, proposals, me] = await Promise.all([
      invoke<AutonomyView>(c, "GET /v1/autonomy"),
      pendingProposals(c),
      meOf(c),
    ]);
    const published = a.bundle.published;
    return html`<p class="muted">${
      published
        ? html`Rules in force published ${published.at} by ${published.by}.`
        : "No rules were published to this workspace yet: each machine decides on its own rules."
    } Rules are read and written through the API (<code>POST /v1/policies/proposals</code>); a rule set is in force once a second admin approves it.</p>
${proposals.length > 0 ? html`<section aria-labelledby="prop-h"><h2 id="prop-h">Waiting on a second admin</h2>${await proposalList(c, me, proposals)}</section>` : ""}
${group("Proceeds on its own", "proceeds", a.proceeds, "No workspace rule allows anything by name; what no rule matches proceeds and is recorded as ungoverned.")}
${group("Stops for a person", "stops", a.stops, "No workspace rule asks a person first.")}
${group("Refused", "refused", a.refused, "No workspace rule refuses anything.")}
${await handOver(c, a)}`;
  },
  actions: {
    ...proposalActions,
    async "drop-rule"(c) {
      await invoke(c, "POST /v1/policies/proposals/drop-rule", { body: { rule: field(c, "rule") } });
      return "/waiting#rules";
    },
  },
};
