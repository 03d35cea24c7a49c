// Machines: the answer to "what is actually governed here". Each machine by id (never its hostname), when it last
// reported, the rules it applied against the rules in force, the mode set against the mode running, the ramp in both
// directions, revoking, and approving a machine that is waiting with a code.
import { MODES } from "../../../core/effect.ts";
import type { MachineView } from "../../routes/machines.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, html } from "../html.ts";
import { form } from "../layout.ts";
import { field, type PageDef } from "../page.ts";

const short = (hash: string | null) => (hash ? hash.replace(/^sha256:/, "").slice(0, 12) : "none");

function row(c: ConsoleCall, m: MachineView, inForce: string) {
  const pending = m.mode.pendingChange;
  const ramp = may(c, "POST /v1/machines/:id/mode") && !m.revokedAt;
  return html`<tr id="${m.id}">
  <th scope="row"><a href="/machines?id=${m.id}"><code>${m.id}</code></a>
    <div class="muted">${m.owner ? `owner ${m.owner}` : "unowned"}</div></th>
  <td>${m.revokedAt ? html`<strong>revoked</strong> ${ago(m.revokedAt, c.now())} by ${m.revokedBy}` : ago(m.lastSeenAt, c.now())}${
    m.refused.count > 0
      ? html`<div class="warn" role="status">${m.refused.count} reported action(s) refused, the last ${ago(m.refused.lastAt, c.now())}:
      <code>${m.refused.last?.field ?? "?"}</code> ${m.refused.last?.message ?? ""}</div>`
      : ""
  }</td>
  <td>${m.bundle.current ? html`<span class="ok">current</span>` : html`<span class="warn">${m.bundle.applied ? "behind" : "none yet"}</span>`}
    <div class="muted"><code>${short(m.bundle.applied)}</code> applied · <code>${short(inForce)}</code> in force</div></td>
  <td>set <strong>${m.mode.set}</strong> · running <strong>${m.mode.running ?? "not yet reported"}</strong>
    ${pending ? html`<div class="muted">moving to ${pending.to} on its next beat (${pending.by})</div>` : ""}
    ${m.mode.drift ? html`<div class="warn">changed on the machine itself</div>` : ""}
    ${m.mode.stoppedUntil ? html`<div class="warn">stopped until ${m.mode.stoppedUntil}</div>` : ""}</td>
  <td>${
    ramp
      ? html`${form(
          c,
          "mode",
          { id: m.id },
          html`<fieldset class="ramp"><legend class="visually-hidden">Mode of ${m.id}</legend>${MODES.map(
            (mode) =>
              html`<button type="submit" name="mode" value="${mode}"${mode === m.mode.set ? html` aria-pressed="true"` : ""}>${mode}</button>`,
          )}</fieldset>`,
          { label: `Mode of ${m.id}` },
        )}
        ${
          may(c, "POST /v1/machines/:id/revoke")
            ? html`<details class="confirm"><summary>Revoke…</summary>${form(
                c,
                "revoke",
                { id: m.id },
                html`<p>Its credential ends here; the machine keeps the rules it has and stops syncing.</p>
                <button type="submit" class="danger">Revoke ${m.id}</button>`,
              )}</details>`
            : ""
        }`
      : ""
  }</td>
</tr>`;
}

async function detail(c: ConsoleCall, id: string) {
  const m = await invoke<
    MachineView & { modeHistory: { from: string; to: string; by: string; at: string; deliveredAt: string | null }[] }
  >(c, "GET /v1/machines/:id", { params: { id } });
  return html`<section class="detail" aria-labelledby="detail-h"><h2 id="detail-h">Machine <code>${m.id}</code></h2>
<dl class="facts">
  <dt>Enrolled</dt><dd>${ago(m.enrolledAt, c.now())}, approved by ${m.approvedBy}</dd>
  <dt>Version</dt><dd>${m.version ?? "unknown"} on ${m.platform ?? "unknown"}</dd>
  <dt>Hostname</dt><dd>never kept: <code>${m.hostnameHash}</code> is its keyed hash</dd>
</dl>
<h3>Mode changes</h3>
${
  m.modeHistory.length === 0
    ? html`<p class="empty">Never moved from the workspace.</p>`
    : html`<ol class="history">${m.modeHistory.map(
        (h) =>
          html`<li>${h.from} → <strong>${h.to}</strong> by ${h.by}, ${ago(h.at, c.now())}${
            h.deliveredAt ? "" : html` <span class="muted">(not yet carried)</span>`
          }</li>`,
      )}</ol>`
}
<p><a href="/caught?machine=${m.id}">Every action it reported</a></p></section>`;
}

export const machines: PageDef = {
  path: "/machines",
  title: "Machines",
  async render(c) {
    const list = await invoke<{ bundleInForce: string; machines: MachineView[] }>(c, "GET /v1/machines");
    const selected = c.url.searchParams.get("id");
    return html`
<form class="inline" method="get" action="/device" aria-label="Approve a machine">
  <label for="device-code">A machine is waiting with a code</label>
  <input id="device-code" name="code" autocomplete="off" placeholder="XXXX-XXXX" required>
  <button type="submit">Look it up</button>
</form>
${
  list.machines.length === 0
    ? html`<p class="empty">No machine answers to this workspace yet. On the machine the agents run on:
      <code>memnox login --url ${c.url.origin}</code>, then approve the code it prints here.</p>`
    : html`<table class="list"><caption class="visually-hidden">Machines</caption>
<thead><tr><th scope="col">Machine</th><th scope="col">Last report</th><th scope="col">Rules applied</th>
<th scope="col">Mode</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${list.machines.map((m) => row(c, m, list.bundleInForce))}</tbody></table>`
}
${selected ? await detail(c, selected) : ""}`;
  },
  actions: {
    async mode(c) {
      const id = field(c, "id");
      await invoke(c, "POST /v1/machines/:id/mode", { params: { id }, body: { mode: field(c, "mode") } });
      return `/machines#${id}`;
    },
    async revoke(c) {
      const id = field(c, "id");
      await invoke(c, "POST /v1/machines/:id/revoke", { params: { id } });
      return `/machines#${id}`;
    },
  },
};
