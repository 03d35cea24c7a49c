// The one box: pages by name, and the machines, agents, people and actions the workspace holds that match.
import { invoke } from "../call.ts";
import { html } from "../html.ts";
import { TREE } from "../layout.ts";
import type { PageDef } from "../page.ts";

interface Found {
  readonly machines: readonly string[];
  readonly agents: readonly string[];
  readonly members: readonly { readonly id: string; readonly email: string }[];
  readonly events: readonly {
    readonly id: number;
    readonly operation: string;
    readonly ruleId: string | null;
    readonly effect: string | null;
  }[];
}

export const searchPage: PageDef = {
  path: "/search",
  title: "Find",
  async render(c) {
    const q = (c.url.searchParams.get("q") ?? "").trim();
    if (q === "") return html`<p class="empty">Type a machine id, an agent, a person, a rule or an action above.</p>`;
    const f = await invoke<Found>(c, "GET /v1/search", { query: { q } });
    const needle = q.toLowerCase();
    const pages = [{ path: "/", label: "Home" }, ...TREE.flatMap((g) => g.items)].filter((p) =>
      p.label.toLowerCase().includes(needle),
    );
    const total = pages.length + f.machines.length + f.agents.length + f.members.length + f.events.length;
    if (total === 0) return html`<p class="empty">Nothing here matches <code>${q}</code>.</p>`;
    const block = (title: string, items: readonly ReturnType<typeof html>[]) =>
      items.length > 0
        ? html`<section><h2>${title}</h2><ul>${items.map((i) => html`<li>${i}</li>`)}</ul></section>`
        : "";
    return html`${block(
      "Pages",
      pages.map((p) => html`<a href="${p.path}">${p.label}</a>`),
    )}
${block(
  "Machines",
  f.machines.map((m) => html`<a href="/machines?id=${m}"><code>${m}</code></a>`),
)}
${block(
  "Agents",
  f.agents.map((a) => html`<a href="/agents?name=${a}">${a}</a>`),
)}
${block(
  "People",
  f.members.map((m) => html`<a href="/people#${m.id}">${m.email}</a>`),
)}
${block(
  "Actions",
  f.events.map(
    (e) =>
      html`<a href="/caught?trace=${e.id}"><code>${e.operation}</code></a> ${e.effect ?? ""} ${e.ruleId ? html`<code>${e.ruleId}</code>` : ""}`,
  ),
)}`;
  },
};
