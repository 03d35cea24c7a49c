// Inputs and Memory: what the team's memory reads from and holds. Empty states until the decisions pipeline fills
// them: it adds its source events, the review queue (a section of Waiting on you) and extraction behind these pages.
// Connectors and Sources carry the tab strip that links them: they are one act's two steps.
import type { DecisionView, SourceEventView } from "../../intent/rows.ts";
import { invoke, may } from "../call.ts";
import { ago, html } from "../html.ts";
import { empty, form } from "../layout.ts";
import { field, type PageDef } from "../page.ts";

interface SourceRow {
  readonly sourceType: string;
  readonly baseUrl: string | null;
  readonly streams: readonly string[];
  readonly setBy: string;
  readonly events: number;
}

const tabs = (here: "/connectors" | "/sources") =>
  html`<nav class="tabs" aria-label="Ingestion"><a href="/connectors"${here === "/connectors" ? html` aria-current="page"` : ""}>Connectors</a>
<a href="/sources"${here === "/sources" ? html` aria-current="page"` : ""}>Sources</a></nav>`;

export const connectors: PageDef = {
  path: "/connectors",
  title: "Connectors",
  async render() {
    return html`${tabs("/connectors")}${empty(
      "No system is connected. Connecting one is where memnox starts reading where the team decides things, one system where the conversation happens and one where the work happens.",
    )}`;
  },
};

export const sources: PageDef = {
  path: "/sources",
  title: "Sources",
  async render(c) {
    const {
      inbound,
      signed,
      sources: list,
    } = await invoke<{ inbound: string; signed: boolean; sources: SourceRow[] }>(c, "GET /v1/sources");
    const where = html`<p class="muted">Every system delivers to <code>${inbound}</code>, signed with the deployment's one secret${
      signed ? "" : html` (<strong class="warn">none is configured: every delivery is refused</strong>)`
    }.</p>`;
    if (list.length === 0)
      return html`${tabs("/sources")}${empty("Nothing is subscribed to yet: a connection on its own is quiet, and choosing what it listens to is what starts the flow.")}${where}`;
    return html`${tabs("/sources")}${where}<table><thead><tr><th>System</th><th>Streams listened to</th><th>Permalinks from</th><th>Events</th></tr></thead><tbody>${list.map(
      (r) =>
        html`<tr id="source-${r.sourceType}"><td><code>${r.sourceType}</code></td><td>${
          r.streams.length > 0
            ? r.streams.map((x) => html`<code>${x}</code> `)
            : html`<span class="muted">none: quiet</span>`
        }</td><td>${r.baseUrl ?? html`<span class="muted">its own links</span>`}</td><td>${r.events}</td></tr>`,
    )}</tbody></table>`;
  },
};

export const files: PageDef = {
  path: "/files",
  title: "Files",
  async render(c) {
    const file = c.url.searchParams.get("file") ?? undefined;
    const { events, withheld } = await invoke<{ events: SourceEventView[]; withheld: number }>(
      c,
      "GET /v1/source-events",
      { query: { source: "files", file } },
    );
    const upload = may(c, "POST /v1/files")
      ? form(
          c,
          "upload",
          {},
          html`<fieldset><legend>Upload a document</legend>
  <label for="file-name">Name</label> <input id="file-name" name="name" type="text" required>
  <label for="file-content">Its text</label><textarea id="file-content" name="content" rows="6" required></textarea>
  <label><input type="checkbox" name="own" value="yes"> The team's own (otherwise it is third-party, and tainted whoever uploads it)</label>
  <button type="submit">Upload</button></fieldset>`,
          { label: "Upload a document" },
        )
      : "";
    if (events.length === 0 && withheld === 0)
      return html`${empty("No file was uploaded. A handbook or a decision record uploaded here is read like any other source.")}${upload}`;
    // Each section is the evidence a permalink points at: `?file=<id>#<id>-<n>`.
    return html`${withheld > 0 ? html`<p class="muted">${withheld} section(s) need a clearance you do not hold.</p>` : ""}
<ul class="items">${[...events].reverse().map((e) => {
      const anchor = new URL(e.sourceRef).hash.slice(1);
      return html`<li id="${anchor}"><div class="muted">${e.tainted ? html`<strong class="warn badge">tainted</strong> ` : html`<strong class="ok badge">the team's own</strong> `}${e.fileId} · uploaded by ${e.author ?? "somebody"} ${ago(e.receivedAt, c.now())} · ${e.classification}</div>
  <blockquote>${e.content}</blockquote></li>`;
    })}</ul>${upload}`;
  },
  actions: {
    async upload(c) {
      await invoke(c, "POST /v1/files", {
        body: { name: field(c, "name"), content: field(c, "content"), own: c.form.get("own") === "yes" },
      });
      return undefined;
    },
  },
};

export const meetings: PageDef = {
  path: "/meetings",
  title: "Meetings",
  async render() {
    return empty("No meeting is being read yet.");
  },
};

type Held = DecisionView & { versions: { id: string; version: number; statement: string; inForce: boolean }[] };

export const memory: PageDef = {
  path: "/memory",
  title: "Memory",
  async render(c) {
    const { decisions, withheld } = await invoke<{ decisions: Held[]; withheld: number }>(c, "GET /v1/decisions", {
      query: { all: "1" },
    });
    // Extraction is the one place a model runs; it only proposes, into Waiting on you.
    const extract = may(c, "POST /v1/extraction/runs")
      ? form(
          c,
          "extract",
          {},
          html`<button type="submit">Read what arrived since the last run</button> <span class="muted">A model proposes decisions from it; each waits for a person in Waiting on you.</span>`,
        )
      : "";
    if (decisions.length === 0 && withheld === 0)
      return html`${empty(
        "The team's memory holds no decision yet. A decision lands here once somebody approves it, stamped with their name, and from then on it reaches the context agents are given.",
      )}${extract}`;
    // Every version stays, in force or not: each is the permalink its approval points back to.
    return html`${withheld > 0 ? html`<p class="muted">${withheld} decision(s) need a clearance you do not hold.</p>` : ""}
<ul class="items">${decisions.map(
      (
        d,
      ) => html`<li id="${d.id}"><strong>${d.statement}</strong>${d.inForce ? "" : html` <span class="muted">(superseded by <a href="#${d.supersededBy ?? ""}">${d.supersededBy}</a>)</span>`}
  <div class="muted">approved by ${d.approvedBy} ${ago(d.approvedAt, c.now())} · version ${d.version} · ${d.scope} · ${d.classification}${d.tainted ? html` · <strong class="warn">drawn from tainted evidence</strong>` : ""}
  · from <a href="${d.sourceRef}" rel="noreferrer noopener" target="_blank">${d.sourceType}</a>${d.supersedes ? html` · supersedes <a href="#${d.supersedes}">${d.supersedes}</a>` : ""}</div>
  <div class="muted">Binds every machine as a rule that only tightens: <code>${d.effect}</code> on what shares its words.</div></li>`,
    )}</ul>${extract}`;
  },
  actions: {
    async extract(c) {
      await invoke(c, "POST /v1/extraction/runs", { body: {} });
      return "/waiting";
    },
  },
};
