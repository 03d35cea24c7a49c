// Map: the fleet drawn as what runs where: each machine, the agents on it, and the MCP servers it configures with
// whether each goes through the proxy there (a bare launch is the hole a team rule cannot reach).
import type { AgentView } from "../../routes/agents.ts";
import type { MachineView } from "../../routes/machines.ts";
import type { McpServerView } from "../../routes/mcp.ts";
import { invoke } from "../call.ts";
import { html } from "../html.ts";
import type { PageDef } from "../page.ts";

export const map: PageDef = {
  path: "/map",
  title: "Map",
  async render(c) {
    const [{ machines }, { agents }, { servers }] = await Promise.all([
      invoke<{ machines: MachineView[] }>(c, "GET /v1/machines"),
      invoke<{ agents: AgentView[] }>(c, "GET /v1/agents"),
      invoke<{ servers: McpServerView[] }>(c, "GET /v1/mcp-servers"),
    ]);
    const live = machines.filter((m) => !m.revokedAt);
    if (live.length === 0) return html`<p class="empty">Nothing to draw yet: no machine answers to this workspace.</p>`;
    return html`<table class="list map"><caption class="visually-hidden">What runs on each machine</caption>
<thead><tr><th scope="col">Machine</th><th scope="col">Agents</th><th scope="col">MCP servers</th></tr></thead>
<tbody>${live.map((m) => {
      const here = agents.filter((a) => a.machines.includes(m.id));
      const mcp = servers.flatMap((s) => s.machines.filter((x) => x.machineId === m.id).map((x) => ({ s, x })));
      return html`<tr><th scope="row"><a href="/machines#${m.id}"><code>${m.id}</code></a>
  <div class="muted">${m.mode.running ?? m.mode.set}</div></th>
  <td>${here.length === 0 ? "–" : html`<ul>${here.map((a) => html`<li><a href="/agents?name=${a.name}">${a.name}</a> <span class="muted">${a.state}</span></li>`)}</ul>`}</td>
  <td>${
    mcp.length === 0
      ? "–"
      : html`<ul>${mcp.map(
          ({
            s,
            x,
          }) => html`<li><code>${s.name}</code> ${x.proxied ? html`<span class="ok">through the proxy</span>` : html`<span class="warn">bare</span>`}
          <span class="muted">${x.agents.join(", ")}</span></li>`,
        )}</ul>`
  }</td></tr>`;
    })}</tbody></table>`;
  },
};
