// Waiting on you: one page, no tabs, a section per kind of thing a person owes, each drawn only while it has something.
// When every one is empty it says so. The list of sections is the extension point: the decisions pipeline adds its
// review queue ("decisions to confirm", "facts to settle") as sections here, and nothing else changes.
import type { ConditionFact } from "../../protocol/bundle.ts";
import type { AgentView } from "../../routes/agents.ts";
import type { HoldView } from "../../routes/holds.ts";
import type { McpServerView } from "../../routes/mcp.ts";
import { IRREVERSIBLE } from "../../store/bundle.ts";
import type { ElevationView } from "../../store/elevations.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, html } from "../html.ts";
import { form, meOf } from "../layout.ts";
import { field, type PageDef } from "../page.ts";
import { decisionsToConfirm, factsToSettle, reviewActions } from "./review.ts";
import { pendingProposals, proposalActions, proposalList } from "./rules.ts";
import type { WaitingSection } from "./waiting-section.ts";

const heldCalls: WaitingSection = {
  id: "held",
  title: "Agents waiting on a question, on machines nobody is at",
  async load(c) {
    const { holds } = await invoke<{ holds: HoldView[] }>(c, "GET /v1/holds");
    if (holds.length === 0) return undefined;
    const answer = may(c, "POST /v1/holds/:id/answer");
    return html`<ul class="items">${holds.map(
      (
        h,
      ) => html`<li id="${h.id}"><strong><code>${h.action}</code></strong>${h.target ? html` on <code>${h.target}</code>` : ""}
  <div>in <code>${h.repository ?? "a directory it did not say"}</code></div>
  <div class="muted">${h.agent ?? "an agent"} on <code>${h.machineId}</code> · asked ${ago(h.createdAt, c.now())} · holds until ${ago(h.expiresAt, c.now())}${
    h.ruleId ? html` · rule <code>${h.ruleId}</code>` : ""
  }</div>
  <p>${h.reason}</p>
  ${
    answer
      ? form(
          c,
          "answer",
          { id: h.id },
          html`<fieldset class="row"><legend class="visually-hidden">Answer ${h.action}</legend>
      <button type="submit" name="answer" value="once" class="primary">Allow once</button>
      <button type="submit" name="answer" value="session">Allow for this session</button>
      <button type="submit" name="answer" value="deny">Deny</button></fieldset>`,
          { label: `Answer ${h.action}` },
        )
      : ""
  }</li>`,
    )}</ul>`;
  },
};

interface MemberRow {
  readonly id: string;
  readonly email: string;
  readonly role: string;
  readonly pending: ElevationView | null;
}

/** Power to approve, given and not yet in force: another admin confirms it, or its cooling-off runs out. */
const elevations: WaitingSection = {
  id: "elevations",
  title: "Power to approve, waiting on a second admin",
  async load(c, me) {
    const { members } = await invoke<{ members: MemberRow[] }>(c, "GET /v1/members");
    const waiting = members.filter((m) => m.pending !== null);
    if (waiting.length === 0) return undefined;
    const canConfirm = may(c, "POST /v1/members/:id/confirm");
    const canCancel = may(c, "POST /v1/members/:id/cancel");
    return html`<ul class="items">${waiting.map((m) => {
      const e = m.pending as ElevationView;
      const own = m.id === me.memberId || e.requestedBy === me.actor;
      return html`<li id="elevate-${m.id}"><strong>${m.email}</strong> to <strong>${e.to}</strong> (now ${m.role})
  <div class="muted">asked by ${e.requestedBy} ${ago(e.requestedAt, c.now())} · ${
    e.coolingOffUntil
      ? html`nobody else could confirm it, so it takes effect ${ago(e.coolingOffUntil, c.now())} unless cancelled`
      : "another admin confirms it"
  }</div>
  <div class="row">${
    canConfirm && !own
      ? form(c, "confirm-member", { id: m.id }, html`<button type="submit" class="primary">Confirm</button>`, {
          label: `Confirm ${m.email} as ${e.to}`,
        })
      : own
        ? html`<span class="muted">A second admin confirms it.</span>`
        : ""
  }${
    canCancel
      ? form(c, "cancel-member", { id: m.id }, html`<button type="submit">Cancel</button>`, {
          label: `Cancel ${m.email} as ${e.to}`,
        })
      : ""
  }</div></li>`;
    })}</ul>`;
  },
};

const ruleChanges: WaitingSection = {
  id: "rules",
  title: "Rule changes waiting on a second admin",
  async load(c, me) {
    const proposals = await pendingProposals(c);
    return proposals.length === 0 ? undefined : proposalList(c, me, proposals);
  },
};

const shadowServers: WaitingSection = {
  id: "mcp",
  title: "MCP servers nobody approved",
  async load(c) {
    const { servers } = await invoke<{ servers: McpServerView[] }>(c, "GET /v1/mcp-servers");
    const shadow = servers.filter((s) => s.shadow);
    if (shadow.length === 0) return undefined;
    return html`<ul class="items">${shadow.map(
      (s) => html`<li id="mcp-${s.name}"><strong><code>${s.name}</code></strong>
  <div class="muted">launched without memnox in the way on ${s.bareOn.map(
    (b, i) => html`${i > 0 ? ", " : ""}<code>${b.machineId}</code>${b.owner ? ` (${b.owner})` : ""}`,
  )} · ${s.tools} tool(s), ${s.writeTools} that write</div>
  <div class="row">
  ${may(c, "POST /v1/mcp-servers/:name/approve") ? form(c, "approve-mcp", { name: s.name }, html`<button type="submit">Approve</button>`) : ""}
  ${
    may(c, "POST /v1/mcp-servers/:name/block")
      ? form(c, "block-mcp", { name: s.name }, html`<button type="submit">Block for the team</button>`)
      : ""
  }</div>
  <p class="muted">A block reaches only the machines that launch it through the proxy; on the others the fix is
  <code>memnox mcp wrap</code> there.</p></li>`,
    )}</ul>`;
  },
};

const conditions: WaitingSection = {
  id: "conditions",
  title: "Conditions in force",
  async load(c) {
    const [{ conditions: list }, { agents }] = await Promise.all([
      invoke<{ conditions: ConditionFact[] }>(c, "GET /v1/state"),
      invoke<{ agents: AgentView[] }>(c, "GET /v1/agents"),
    ]);
    const halted = agents.filter((a) => a.state === "halted");
    const { breakGlass } = await invoke<{ breakGlass: GlassView[] }>(c, "GET /v1/break-glass");
    const open = breakGlass.find((g) => g.state === "open");
    if (list.length === 0 && halted.length === 0 && !open) return undefined;
    return html`${open ? glassOpen(c, open) : list.length > 0 && may(c, "POST /v1/break-glass") ? glassForm(c) : ""}<ul class="items">${list.map(
      (
        f,
      ) => html`<li id="${f.id}"><strong>${f.kind === "freeze-agent" ? html`agent <code>${f.subject}</code> frozen on every machine` : html`<code>${f.kind}:${f.subject}</code>`}</strong>
  <div class="muted">by ${f.by} · ends ${ago(f.expiresAt, c.now())}${f.reason ? ` · ${f.reason}` : ""}${open?.suspends.includes(f.id) ? html` · <strong>suspended by break-glass</strong>` : ""}</div>
  ${may(c, "POST /v1/state/:id/lift") ? form(c, "lift", { id: f.id }, html`<button type="submit">Lift</button>`) : ""}</li>`,
    )}${halted.map(
      (a) => html`<li id="halt-${a.name}"><strong>agent <code>${a.name}</code> halted</strong>
  <div class="muted">by ${a.halt?.by} ${ago(a.halt?.at, c.now())} · ${a.halt?.reason}</div>
  ${may(c, "POST /v1/agents/:name/lift") ? form(c, "lift-halt", { name: a.name }, html`<button type="submit">Lift</button>`) : ""}</li>`,
    )}</ul>`;
  },
};

interface GlassView {
  readonly id: string;
  readonly reason: string;
  readonly suspends: readonly string[];
  readonly openedBy: string;
  readonly endsAt: string;
  readonly incident: string;
  readonly state: string;
}

const glassOpen = (c: ConsoleCall, g: GlassView) =>
  html`<div class="warn" id="break-glass-open" role="status"><strong>Break-glass open</strong>: ${g.openedBy} suspended
${g.suspends.length} condition(s) until ${g.endsAt} (${ago(g.endsAt, c.now())}), because "${g.reason}". Incident
<a href="/caught#${g.incident}"><code>${g.incident}</code></a>. Irreversible actions stay refused on every machine.
${may(c, "POST /v1/break-glass/:id/close") ? form(c, "close-glass", { id: g.id }, html`<button type="submit">Close it now</button>`) : ""}</div>`;

const glassForm = (c: ConsoleCall) =>
  form(
    c,
    "break-glass",
    {},
    html`<details><summary>Break glass</summary>
<p class="muted">Suspends every freeze below on every machine, for at most 4 hours, without lifting it: it comes back
when the time runs out. The rules, halts and revocations stay, and ${IRREVERSIBLE.join(" and ")} are refused outright
while it is open. Audited as critical, and it opens an incident.</p>
<label for="bg-reason">Why (a sentence)</label><input id="bg-reason" name="reason" required minlength="10">
<label for="bg-for">For</label><select id="bg-for" name="for"><option value="30m">30m</option><option value="1h" selected>1h</option><option value="2h">2h</option><option value="4h">4h</option></select>
<label for="bg-actions">What it is for (optional, space-separated actions)</label><input id="bg-actions" name="actions">
<button type="submit" class="danger">Break glass</button></details>`,
    { className: "stack", label: "Break glass" },
  );

/** In the order a person should read them; each appears only while it has something in it. */
const WAITING_SECTIONS: WaitingSection[] = [
  heldCalls,
  decisionsToConfirm,
  ruleChanges,
  elevations,
  factsToSettle,
  shadowServers,
  conditions,
];

export const waiting: PageDef = {
  path: "/waiting",
  title: "Waiting on you",
  async render(c) {
    const me = await meOf(c);
    const drawn = (await Promise.all(WAITING_SECTIONS.map(async (s) => ({ s, body: await s.load(c, me) })))).filter(
      (x) => x.body !== undefined,
    );
    // Polled without a reload where scripts run (an empty element, so no form inherits the polling); read whole without.
    return html`<div hidden hx-get="/waiting${c.url.search}" hx-trigger="every 15s" hx-select="#sections" hx-target="#sections" hx-swap="outerHTML"></div>
<div id="sections">${
      drawn.length === 0
        ? html`<p class="calm">Nothing needs you. Memnox is running.</p>`
        : drawn.map(
            ({ s, body }) =>
              html`<section id="${s.id}" aria-labelledby="${s.id}-h"><h2 id="${s.id}-h">${s.title}</h2>${body}</section>`,
          )
    }</div>`;
  },
  actions: {
    ...proposalActions,
    ...reviewActions,
    async answer(c) {
      const a = field(c, "answer");
      await invoke(c, "POST /v1/holds/:id/answer", {
        params: { id: field(c, "id") },
        body: a === "deny" ? { grant: false } : { grant: true, scope: a === "session" ? "session" : "once" },
      });
      return undefined;
    },
    async "confirm-member"(c) {
      await invoke(c, "POST /v1/members/:id/confirm", { params: { id: field(c, "id") } });
      return undefined;
    },
    async "cancel-member"(c) {
      await invoke(c, "POST /v1/members/:id/cancel", { params: { id: field(c, "id") } });
      return undefined;
    },
    async "approve-mcp"(c) {
      await invoke(c, "POST /v1/mcp-servers/:name/approve", { params: { name: field(c, "name") } });
      return undefined;
    },
    async "block-mcp"(c) {
      await invoke(c, "POST /v1/mcp-servers/:name/block", { params: { name: field(c, "name") } });
      return undefined;
    },
    async "break-glass"(c) {
      const actions = (c.form.get("actions") ?? "").split(/[\s,]+/).filter((a) => a !== "");
      const g = await invoke<{ suspends: string[]; endsAt: string; incident: string }>(c, "POST /v1/break-glass", {
        body: { reason: field(c, "reason"), for: field(c, "for"), ...(actions.length > 0 ? { actions } : {}) },
      });
      return {
        ok: `Glass broken: ${g.suspends.length} condition(s) suspended until ${g.endsAt}; incident ${g.incident} opened.`,
      };
    },
    async "close-glass"(c) {
      await invoke(c, "POST /v1/break-glass/:id/close", { params: { id: field(c, "id") } });
      return undefined;
    },
    async lift(c) {
      await invoke(c, "POST /v1/state/:id/lift", { params: { id: field(c, "id") } });
      return undefined;
    },
    async "lift-halt"(c) {
      await invoke(c, "POST /v1/agents/:name/lift", { params: { name: field(c, "name") } });
      return undefined;
    },
  },
};
