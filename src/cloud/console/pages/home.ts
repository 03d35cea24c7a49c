// Home: above the tree, for the whole account. One box to reach anything, the three ways back in (what is owed, what
// was caught, the fleet), then what the agents did. A count nobody has earned yet draws a dash.
import type { EventView } from "../../routes/events.ts";
import { type ConsoleCall, invoke } from "../call.ts";
import { ago, html, tile } from "../html.ts";
import type { PageDef } from "../page.ts";
import { eventRows } from "./caught.ts";

interface Summary {
  readonly machines: { readonly enrolled: number; readonly reporting: number };
  readonly last24h: { readonly actions: number | null; readonly asked: number | null; readonly denied: number | null };
  readonly owed: {
    readonly holds: number;
    readonly proposals: number;
    readonly conditions: number;
    readonly incidents: number;
  };
}

export const home: PageDef = {
  path: "/",
  title: "Home",
  async render(c: ConsoleCall) {
    const [s, recent] = await Promise.all([
      invoke<Summary>(c, "GET /v1/summary"),
      invoke<{ events: EventView[] }>(c, "GET /v1/events", { query: { order: "desc", limit: "10" } }),
    ]);
    const owed = s.owed.holds + s.owed.proposals + s.owed.conditions;
    return html`
<form class="find big" method="get" action="/search" role="search">
  <label for="home-q">Find anything</label>
  <input id="home-q" name="q" type="search" placeholder="a machine id, an agent, a person, a rule, an action">
  <button type="submit">Find</button>
</form>
<section aria-labelledby="back-in"><h2 id="back-in" class="visually-hidden">Ways back in</h2>
<ul class="ways">
  <li><a href="/waiting"><strong>Waiting on you</strong><span class="n">${owed}</span>
    <span class="muted">${owed === 0 ? "nothing needs you" : "things a person owes"}</span></a></li>
  <li><a href="/caught?effect=deny"><strong>What was caught</strong><span class="n">${tile(s.last24h.denied)}</span>
    <span class="muted">denied in the last 24 hours${s.owed.incidents > 0 ? html`, <em>${s.owed.incidents} incident(s) open</em>` : ""}</span></a></li>
  <li><a href="/machines"><strong>Machines</strong><span class="n">${s.machines.enrolled}</span>
    <span class="muted">${s.machines.reporting} reporting</span></a></li>
</ul></section>
<section aria-labelledby="did"><h2 id="did">What the agents did, last 24 hours</h2>
<dl class="tiles">
  <div><dt>Actions</dt><dd>${tile(s.last24h.actions)}</dd></div>
  <div><dt>Stopped for a person</dt><dd>${tile(s.last24h.asked)}</dd></div>
  <div><dt>Refused</dt><dd><a href="/caught?effect=deny">${tile(s.last24h.denied)}</a></dd></div>
</dl>
${
  recent.events.length > 0
    ? eventRows(recent.events, c.now())
    : html`<p class="empty">No machine has reported an action yet${
        s.machines.enrolled === 0 ? html`: connect one with <code>memnox login --url ${c.url.origin}</code>` : ""
      }.</p>`
}
${recent.events.length > 0 ? html`<p><a href="/caught">Everything the machines reported</a> · last ${ago(recent.events[0]?.receivedAt, c.now())}</p>` : ""}
</section>`;
  },
};
