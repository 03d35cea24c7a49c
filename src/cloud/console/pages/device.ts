// The approval page `memnox login` points at: the hostname the machine reported, its version, how long the code holds;
// Approve makes whoever presses it the machine's owner. The same /v1/devices routes a script with a token calls.
import { HttpError } from "../../http-error.ts";
import { normalUserCode } from "../../ids.ts";
import { type ConsoleCall, invoke } from "../call.ts";
import { html } from "../html.ts";
import { form } from "../layout.ts";
import { field, type PageDef } from "../page.ts";

interface Code {
  readonly userCode: string;
  readonly status: string;
  readonly hostname: string | null;
  readonly version: string | null;
  readonly platform: string | null;
  readonly requestedMode: string;
  readonly expiresIn: number;
  readonly machineId: string | null;
}

const codeOf = (c: ConsoleCall) =>
  normalUserCode((c.url.searchParams.get("code") ?? c.form.get("code") ?? "").slice(0, 16));

export const device: PageDef = {
  path: "/device",
  title: "Approve a machine",
  async render(c) {
    const code = codeOf(c);
    const ask = html`<form method="get" action="/device" class="inline" aria-label="Look up a code">
  <label for="code">Code shown on the machine</label>
  <input id="code" name="code" autocomplete="off" value="${code}" required>
  <button type="submit">Look it up</button></form>`;
    if (!/^[A-Z]{4}-[A-Z]{4}$/.test(code)) return ask;
    let d: Code;
    try {
      d = await invoke<Code>(c, "GET /v1/devices/:code", { params: { code } });
    } catch (e) {
      if (e instanceof HttpError && e.status < 500)
        return html`${ask}<p class="said error" role="alert">${e.message}</p>`;
      throw e;
    }
    if (d.status !== "pending" || d.expiresIn <= 0)
      return html`${ask}<p class="said">The code <code>${d.userCode}</code> is ${d.expiresIn <= 0 && d.status === "pending" ? "expired" : d.status}${
        d.machineId ? html`: machine <a href="/machines#${d.machineId}"><code>${d.machineId}</code></a>` : ""
      }.</p>`;
    return html`<p>A machine ran <code>memnox login</code> and is waiting. Whoever approves it becomes its owner; it then
pulls this workspace's rules and reports what its agents did.</p>
<dl class="facts">
  <dt>Code</dt><dd><code>${d.userCode}</code></dd>
  <dt>Hostname it reported</dt><dd><strong>${d.hostname ?? "(none reported)"}</strong> <span class="muted">(shown only until you decide; the workspace keeps a keyed hash)</span></dd>
  <dt>Runtime</dt><dd>memnox ${d.version ?? "?"} on ${d.platform ?? "?"}</dd>
  <dt>Starts in</dt><dd>${d.requestedMode}</dd>
  <dt>Good for</dt><dd>${Math.ceil(d.expiresIn / 60)} more minute(s)</dd>
</dl>
<div class="row">
${form(c, "approve", { code: d.userCode }, html`<button type="submit" class="primary">Approve this machine</button>`)}
${form(c, "deny", { code: d.userCode }, html`<button type="submit">Refuse</button>`)}
</div>`;
  },
  actions: {
    async approve(c) {
      const r = await invoke<{ machineId: string }>(c, "POST /v1/devices/:code/approve", {
        params: { code: field(c, "code") },
      });
      return `/machines#${r.machineId}`;
    },
    async deny(c) {
      const code = field(c, "code");
      await invoke(c, "POST /v1/devices/:code/deny", { params: { code } });
      return `/device?code=${encodeURIComponent(code)}`;
    },
  },
};
