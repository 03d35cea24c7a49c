// Inputs and Memory: what the team's memory reads from and holds. Empty states until the decisions pipeline fills
// them: it adds its source events, the review queue (a section of Waiting on you) and extraction behind these pages.
// Connectors and Sources carry the tab strip that links them: they are one act's two steps.

import { SYSTEMS, systemOf } from "../../intent/catalogue.ts";
import { SWEEPABLE } from "../../intent/exports.ts";
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
  readonly health: {
    readonly lastDeliveryAt: string | null;
    readonly delivered: number;
    readonly refused: number;
    readonly lastRefusal: string | null;
    readonly lastRefusalAt: string | null;
  };
}

type Listing = { inbound: string; signed: boolean; sources: SourceRow[] };

interface SweepAnswer {
  readonly read: number;
  readonly events: number;
  readonly stored: number;
  readonly duplicates: number;
  readonly skipped: readonly { readonly why: string; readonly count: number; readonly first: string }[];
}

type Tab = "/connectors" | "/sources" | "/knowledge";

const tabs = (here: Tab) =>
  html`<nav class="tabs" aria-label="Ingestion">${(
    [
      ["/connectors", "Connectors"],
      ["/sources", "Sources"],
      ["/knowledge", "Knowledge"],
    ] as const
  ).map(
    ([path, label]) => html`<a href="${path}"${here === path ? html` aria-current="page"` : ""}>${label}</a> `,
  )}</nav>`;

/** Streams as a person types them: separated by commas, spaces or lines. */
const streamsOf = (text: string) => [...new Set(text.split(/[\s,]+/).filter((x) => x !== ""))];

function health(r: SourceRow, now: number) {
  const h = r.health;
  return html`<dl class="health"><dt>Last delivery</dt><dd>${ago(h.lastDeliveryAt, now)}</dd>
<dt>Delivered</dt><dd>${h.delivered}</dd><dt>Refused</dt><dd>${h.refused}${
    h.lastRefusal ? html` <span class="warn">(last ${ago(h.lastRefusalAt, now)}: ${h.lastRefusal})</span>` : ""
  }</dd><dt>Events stored</dt><dd>${r.events}</dd></dl>`;
}

export const connectors: PageDef = {
  path: "/connectors",
  title: "Connectors",
  async render(c) {
    const { signed, sources: list } = await invoke<Listing>(c, "GET /v1/sources");
    const configure = may(c, "PUT /v1/sources/:type");
    const reveal = may(c, "GET /v1/sources/:type/delivery");
    const sweep = may(c, "POST /v1/sources/:type/sweep");
    const byType = new Map(list.map((r) => [r.sourceType, r]));
    return html`${tabs("/connectors")}<p class="muted">Start with one system where the conversation happens and one where
the work happens. A connection on its own is quiet: choosing what it listens to is what starts the flow.${
      signed
        ? ""
        : html` <strong class="warn">This deployment has no webhook secret: every delivery is refused.</strong>`
    }</p>
${SYSTEMS.map((sys) => {
  const r = byType.get(sys.type);
  const id = `connect-${sys.type}`;
  return html`<section class="system" id="system-${sys.type}" aria-label="${sys.name}"><h2>${sys.name} <span class="muted">(${sys.place})</span>
${r ? (r.streams.length > 0 ? html`<span class="ok badge">listening</span>` : html`<span class="warn badge">quiet</span>`) : ""}</h2>
<p>What memnox reads:</p><ul>${sys.reads.map((x) => html`<li>${x}</li>`)}</ul>
<p class="muted">Nothing else it emits is stored; each event keeps a link back to the original. Signed as ${sys.signing}.</p>
${r ? html`<p>Listening to ${r.streams.length > 0 ? r.streams.map((x) => html`<code>${x}</code> `) : html`<span class="muted">nothing yet</span>`}${r.baseUrl ? html` · permalinks from ${r.baseUrl}` : ""}</p>${health(r, c.now())}` : ""}
${
  configure
    ? form(
        c,
        "connect",
        { type: sys.type },
        html`<label for="${id}-streams">Streams to listen to (${sys.stream.what} each, e.g. ${sys.stream.example})</label>
<input id="${id}-streams" name="streams" type="text" value="${r?.streams.join(", ") ?? ""}">
${
  sys.needsBaseUrl
    ? html`<label for="${id}-base">Base URL permalinks are composed from (e.g. ${sys.needsBaseUrl.example})</label>
<input id="${id}-base" name="baseUrl" type="url" value="${r?.baseUrl ?? ""}">`
    : ""
}<button type="submit">${r ? `Save ${sys.name}` : `Connect ${sys.name}`}</button>`,
        { className: "stack", label: `Connect ${sys.name}` },
      )
    : ""
}${
  r && reveal
    ? form(
        c,
        "delivery",
        { type: sys.type },
        html`<button type="submit">Show ${sys.name}'s delivery URL and secret</button>`,
      )
    : ""
}${
  r && sweep && SWEEPABLE[sys.type]
    ? form(
        c,
        "sweep",
        { type: sys.type },
        html`<label for="${id}-export">Read its history from an export: ${SWEEPABLE[sys.type]}</label>
<input id="${id}-export" name="export" type="file" required accept="${sys.type === "slack" ? ".zip,application/zip" : ".json,application/json"}">
<button type="submit">Sweep ${sys.name}'s history</button>
<span class="muted">Read as its live deliveries are: only the streams chosen, once each, whatever arrived live already.</span>`,
        { className: "stack", label: `Sweep ${sys.name}'s history`, file: true },
      )
    : ""
}</section>`;
})}`;
  },
  actions: {
    async connect(c) {
      const type = field(c, "type");
      const sys = systemOf(type);
      const baseUrl = (c.form.get("baseUrl") ?? "").trim();
      await invoke(c, "PUT /v1/sources/:type", {
        params: { type },
        body: { streams: streamsOf(c.form.get("streams") ?? ""), ...(baseUrl ? { baseUrl } : {}) },
      });
      return { ok: `${sys?.name ?? type} saved. Next: paste its delivery URL and secret into ${sys?.name ?? type}.` };
    },
    async sweep(c) {
      const type = field(c, "type");
      const file = c.files?.get("export");
      if (!file || file.bytes.length === 0) return { error: "Choose the export file to read." };
      const zip = file.bytes[0] === 0x50 && file.bytes[1] === 0x4b;
      const a = await invoke<SweepAnswer>(c, "POST /v1/sources/:type/sweep", {
        params: { type },
        bytes: { data: file.bytes, type: zip ? "application/zip" : "application/json" },
      });
      return {
        ok: `Swept ${systemOf(type)?.name ?? type}'s history from ${file.name}.`,
        once: html`<h2>What the sweep read</h2><dl id="sweep-result"><dt>Read</dt><dd id="sweep-read">${a.read} item(s), ${a.events} event(s)</dd>
<dt>Stored</dt><dd id="sweep-stored">${a.stored}</dd><dt>Already stored</dt><dd id="sweep-duplicates">${a.duplicates}</dd>
<dt>Skipped</dt><dd id="sweep-skipped">${a.events - a.stored - a.duplicates}${
          a.skipped.length > 0
            ? html`<ul>${a.skipped.map((s) => html`<li>${s.count} × ${s.why} <span class="muted">(first: ${s.first})</span></li>`)}</ul>`
            : ""
        }</dd></dl>`,
      };
    },
    async delivery(c) {
      const type = field(c, "type");
      const d = await invoke<{ url: string; commandsUrl?: string; secret: string; scheme: string }>(
        c,
        "GET /v1/sources/:type/delivery",
        {
          params: { type },
        },
      );
      return {
        ok: "Shown once, here: nothing stores it for you, and reloading will not show it again.",
        once: html`<h2>Where ${systemOf(type)?.name ?? type} delivers</h2><dl><dt>Delivery URL</dt><dd><code id="delivery-url">${d.url}</code></dd>
${
  d.commandsUrl
    ? html`<dt>Slash command URL (<code>/memnox</code>)</dt><dd><code id="commands-url">${d.commandsUrl}</code>
<div class="muted">Signed as Slack signs a command (X-Slack-Signature, v0) with the secret below; each Slack user acts as the member linked under People.</div></dd>`
    : ""
}
<dt>Secret</dt><dd><code id="delivery-secret">${d.secret}</code></dd><dt>Signed as</dt><dd>${d.scheme}</dd></dl>`,
      };
    },
  },
};

export const knowledge: PageDef = {
  path: "/knowledge",
  title: "Knowledge",
  async render(c) {
    const source = c.url.searchParams.get("source") ?? undefined;
    const { events, withheld } = await invoke<{ events: SourceEventView[]; withheld: number }>(
      c,
      "GET /v1/source-events",
      { query: { source } },
    );
    const held =
      withheld > 0
        ? html`<p class="muted" id="withheld">${withheld} event(s) withheld: they need a clearance you do not hold.</p>`
        : "";
    if (events.length === 0)
      return html`${tabs("/knowledge")}${held}${empty(
        "No event has arrived. The two usual causes: a subscription that was never made (Connectors), and a system missing the base URL its permalinks are composed from.",
      )}`;
    return html`${tabs("/knowledge")}${held}<ul class="items">${events.map(
      (
        e,
      ) => html`<li id="event-${e.id}"><div class="muted"><code>${e.sourceType}</code> · ${e.kind}${e.stream ? html` in <code>${e.stream}</code>` : ""} ·
${e.author ?? "nobody named"} ${e.authorTrusted ? html`<span class="ok badge">trusted author</span>` : html`<span class="warn badge">untrusted author</span>`}
${e.tainted ? html`<strong class="warn badge" title="${e.taintReason ?? ""}">tainted</strong>` : ""} · ${e.classification} · ${ago(e.occurredAt, c.now())}</div>
<blockquote>${e.content}</blockquote>
<a href="${e.sourceRef}" rel="noreferrer noopener" target="_blank">Open the original</a>${e.taintReason ? html` <span class="muted">(${e.taintReason})</span>` : ""}</li>`,
    )}</ul>`;
  },
};

export const sources: PageDef = {
  path: "/sources",
  title: "Sources",
  async render(c) {
    const { inbound, signed, sources: list } = await invoke<Listing>(c, "GET /v1/sources");
    const where = html`<p class="muted">Every system delivers to <code>${inbound}</code>, each route signed with its own secret (Connectors shows it to an admin)${
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
