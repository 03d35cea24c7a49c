// Inputs and Memory: what the team's memory reads from and holds. Empty states until the decisions pipeline fills
// them: it adds its source events, the review queue (a section of Waiting on you) and extraction behind these pages.
// Connectors and Sources carry the tab strip that links them: they are one act's two steps.
import { html } from "../html.ts";
import { empty } from "../layout.ts";
import type { PageDef } from "../page.ts";

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
  async render() {
    return html`${tabs("/sources")}${empty("Nothing is subscribed to yet: a connection on its own is quiet, and choosing what it listens to is what starts the flow.")}`;
  },
};

export const files: PageDef = {
  path: "/files",
  title: "Files",
  async render() {
    return empty("No file was uploaded. A handbook or a decision record uploaded here is read like any other source.");
  },
};

export const meetings: PageDef = {
  path: "/meetings",
  title: "Meetings",
  async render() {
    return empty("No meeting is being read yet.");
  },
};

export const memory: PageDef = {
  path: "/memory",
  title: "Memory",
  async render() {
    return empty(
      "The team's memory holds no decision yet. A decision lands here once somebody approves it, stamped with their name, and from then on it reaches the context agents are given.",
    );
  },
};
