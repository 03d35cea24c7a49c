// Settings → Privacy: the register (every table classified), a subject's export and an erasure with its receipt, both
// drawn in the answer to the press only.
import type { RegisterEntry } from "../../store/register.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import { type Action, field } from "../page.ts";

export async function privacySection(c: ConsoleCall): Promise<Html> {
  const { tables } = await invoke<{ tables: RegisterEntry[] }>(c, "GET /v1/privacy/register");
  const subject = (action: string, label: string, danger: boolean) =>
    form(
      c,
      action,
      {},
      html`<label for="${action}-subject">Subject (an address, or an author's account)</label><input id="${action}-subject" name="subject" required>
<button type="submit"${danger ? html` class="danger"` : ""}>${label}</button>`,
      { className: "stack", label },
    );
  return html`<section aria-labelledby="privacy-h"><h2 id="privacy-h">Privacy</h2>
<details><summary>Register: ${tables.length} tables, each classified</summary><table class="list" id="register"><thead><tr>
<th scope="col">Table</th><th scope="col">Personal data</th><th scope="col">Basis</th><th scope="col">Erased by</th>
<th scope="col">Encrypted at rest</th><th scope="col">What</th></tr></thead><tbody>${tables.map(
    (
      t,
    ) => html`<tr><th scope="row"><code>${t.table}</code></th><td>${t.holds}</td><td>${t.basis}</td><td>${t.erasure}</td>
<td>${t.encrypted ? "yes" : "no (the database's own storage)"}</td><td>${t.note}</td></tr>`,
  )}</tbody></table></details>
${may(c, "POST /v1/privacy/export") ? subject("export-subject", "Export everything held about them", false) : ""}
${may(c, "POST /v1/privacy/erasure") ? subject("erase-subject", "Erase them", true) : ""}</section>`;
}

export const privacyActions: Readonly<Record<string, Action>> = {
  async "export-subject"(c) {
    const r = await invoke<{ tables: Record<string, unknown[]> }>(c, "POST /v1/privacy/export", {
      body: { subject: field(c, "subject") },
    });
    return {
      ok: "The subject's export, table by table.",
      once: html`<pre id="subject-export">${JSON.stringify(r.tables, null, 2)}</pre>`,
    };
  },
  async "erase-subject"(c) {
    const r = await invoke<{ receipt: { table: string; records: number; strategy: string; why?: string }[] }>(
      c,
      "POST /v1/privacy/erasure",
      { body: { subject: field(c, "subject") } },
    );
    return {
      ok: "Erased. Keep this receipt: it is the evidence the request was honoured.",
      once: html`<table id="erasure-receipt"><caption>Erasure receipt</caption><tbody>${r.receipt.map(
        (x) => html`<tr><td><code>${x.table}</code></td><td>${x.records}</td><td>${x.strategy}</td></tr>`,
      )}</tbody></table>`,
    };
  },
};
