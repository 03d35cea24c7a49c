// Settings → General's sinks: where the record of what was caught is forwarded, how each fared, adding one (a webhook's
// secret shown in the answer only) and removing one.
import type { SinkView } from "../../routes/sinks.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import { type Action, field } from "../page.ts";

export async function sinksSection(c: ConsoleCall): Promise<Html> {
  const { sinks } = await invoke<{ sinks: SinkView[] }>(c, "GET /v1/sinks");
  const remove = may(c, "POST /v1/sinks/:id/remove");
  const list =
    sinks.length === 0
      ? html`<p class="empty">The record is forwarded nowhere: no sink or webhook exists.</p>`
      : html`<table class="list" id="sinks"><caption>Sinks</caption><thead><tr><th scope="col">Target</th><th scope="col">Sent</th>
<th scope="col">Delivered</th><th scope="col">Failed</th><th scope="col">Last</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${sinks.map(
          (
            s,
          ) => html`<tr id="${s.id}"><th scope="row">${s.kind} <code>${s.target}</code></th><td>${s.verdicts.join(", ")}</td>
<td>${s.delivered}</td><td>${s.failed}${s.lastError ? html` <span class="warn">(${s.lastError})</span>` : ""}</td>
<td>${s.lastDeliveryAt ? ago(s.lastDeliveryAt, c.now()) : "–"}</td>
<td>${remove ? form(c, "remove-sink", { id: s.id }, html`<button type="submit" class="danger">Remove</button>`, { label: `Remove sink ${s.target}` }) : ""}</td></tr>`,
        )}</tbody></table>`;
  const add = may(c, "POST /v1/sinks")
    ? form(
        c,
        "add-sink",
        {},
        html`<h4>Forward what was caught</h4><label for="sink-kind">Kind</label><select id="sink-kind" name="kind"><option value="webhook">Webhook (signed)</option><option value="syslog">Syslog (UDP, RFC 5424)</option></select>
<label for="sink-target">Target</label><input id="sink-target" name="target" required placeholder="https://siem.example.com/memnox or udp://10.0.0.5:514">
<fieldset><legend>Verdicts</legend><label><input type="checkbox" name="verdicts" value="deny" checked> deny</label>
<label><input type="checkbox" name="verdicts" value="ask" checked> ask</label></fieldset>
<button type="submit">Add sink</button>
<p class="muted">Every row is masked before it leaves. A webhook is signed the Standard Webhooks way; its secret is shown once.</p>`,
        { className: "stack", label: "Add a sink" },
      )
    : "";
  return html`<h3>Sinks and webhooks</h3>${list}${add}`;
}

export const sinkActions: Readonly<Record<string, Action>> = {
  async "add-sink"(c) {
    const verdicts = c.form.getAll("verdicts");
    const made = await invoke<{ id: string; secret?: string; scheme?: string }>(c, "POST /v1/sinks", {
      body: { kind: field(c, "kind"), target: field(c, "target"), ...(verdicts.length > 0 ? { verdicts } : {}) },
    });
    return {
      ok: `Sink ${made.id} added.`,
      ...(made.secret
        ? {
            once: html`<p>Signing secret (shown once, kept nowhere): <code id="sink-secret">${made.secret}</code></p>
<p class="muted">${made.scheme ?? ""}</p>`,
          }
        : {}),
    };
  },
  async "remove-sink"(c) {
    await invoke(c, "POST /v1/sinks/:id/remove", { params: { id: field(c, "id") } });
    return undefined;
  },
};
