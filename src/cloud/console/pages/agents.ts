// Agents: each one the machines reported, who answers for it, who it acts for, and why it is silent when it is (live,
// halted and why, revoked). An agent's own page (?name=) is where it is given owners and stopped: halted (a reviewer,
// with a reason, lifted again), frozen on every machine for a while, or revoked for good (an admin).
import type { AgentView } from "../../routes/agents.ts";
import type { EventView } from "../../routes/events.ts";
import type { GrantView } from "../../routes/grants.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import { field, type PageDef } from "../page.ts";
import { eventRows } from "./caught.ts";

function state(a: AgentView): Html {
  if (a.state === "revoked") return html`<strong>revoked</strong> <span class="muted">by ${a.revoked?.by}</span>`;
  if (a.state === "halted")
    return html`<strong class="warn">halted</strong> <span class="muted">by ${a.halt?.by}: ${a.halt?.reason}</span>`;
  if (a.state === "lapsed")
    return html`<strong class="warn">lapsed</strong> <span class="muted">its grant expired</span>`;
  if (a.frozen)
    return html`<strong class="warn">frozen everywhere</strong> <span class="muted">until ${a.frozen.until}</span>`;
  return html`<span class="ok">${a.state}</span>`;
}

const owners = (a: AgentView) =>
  a.owners.length === 0
    ? html`<span class="warn">nobody</span>`
    : html`${a.owners.join(", ")}${a.ownersFrom === "machines" ? html` <span class="muted">(taken from the machines it runs on)</span>` : ""}`;

interface MemberRow {
  readonly email: string;
  readonly status: string;
}

/** Giving an agent a grant (enrolling it, when `name` is not given): signed in, its credential shown once. */
async function grantForm(c: ConsoleCall, name?: string): Promise<Html | string> {
  if (!may(c, "POST /v1/agents/:name/grants")) return "";
  const { members } = await invoke<{ members: MemberRow[] }>(c, "GET /v1/members");
  const active = members.filter((m) => m.status === "active");
  return form(
    c,
    "grant",
    name ? { name } : {},
    html`<h3>${name ? "Give it a grant" : "Enrol an agent"}</h3>${
      name ? "" : html`<label for="grant-name">Agent's name</label><input id="grant-name" name="name" required>`
    }
<label for="grant-principal">Acts for</label><select id="grant-principal" name="principal">${active.map(
      (m) => html`<option value="${m.email}">${m.email}</option>`,
    )}</select>
<label for="grant-role">Role (the job it holds)</label><input id="grant-role" name="role" placeholder="release engineer">
<label for="grant-actions">Actions it handles (namespaced verbs)</label><input id="grant-actions" name="actions" placeholder="deploy.release, db.migrate">
<label for="grant-limit">What it may commit alone (spend limit)</label><input id="grant-limit" name="spendLimit" type="number" min="0" step="any">
<label for="grant-currency">Currency</label><input id="grant-currency" name="currency" value="USD" maxlength="3">
<label for="grant-expires">Expires after</label><select id="grant-expires" name="expiresIn"><option value="">never</option>
<option value="2h">2 hours</option><option value="1d">1 day</option><option value="7d">7 days</option><option value="30d">30 days</option></select>
<button type="submit">Mint the credential</button>
<p class="muted">The credential is shown once, in the answer. A lost one is replaced by minting another and revoking the first.</p>`,
    { className: "stack", label: name ? "Give it a grant" : "Enrol an agent" },
  );
}

function grantRows(c: ConsoleCall, name: string, grants: readonly GrantView[]): Html {
  if (grants.length === 0) return html`<p class="empty">No grant yet: it is not enrolled.</p>`;
  const revoke = may(c, "POST /v1/agents/:name/grants/:id/revoke");
  return html`<table class="list" id="grants"><caption>Grants</caption><thead><tr><th scope="col">Role</th><th scope="col">Acts for</th>
<th scope="col">Spend limit</th><th scope="col">Expires</th><th scope="col">State</th><th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead>
<tbody>${grants.map(
    (
      g,
    ) => html`<tr id="${g.id}"><td>${g.role ?? "–"}${g.actions.length > 0 ? html`<div class="muted">${g.actions.join(", ")}</div>` : ""}</td>
<td>${g.principal}</td><td>${g.spendLimit === null ? "none" : `${g.spendLimit} ${g.currency ?? ""}`}</td>
<td>${g.expiresAt ? ago(g.expiresAt, c.now()) : "never"}</td><td>${g.state}</td>
<td>${revoke && g.state === "live" ? form(c, "revoke-grant", { name, id: g.id }, html`<button type="submit">Revoke grant</button>`) : ""}</td></tr>`,
  )}</tbody></table>`;
}

async function own(c: ConsoleCall, name: string): Promise<Html> {
  const [a, recent, { grants }, { agents: spend }] = await Promise.all([
    invoke<AgentView>(c, "GET /v1/agents/:name", { params: { name } }),
    invoke<{ events: EventView[] }>(c, "GET /v1/events", { query: { order: "desc", agent: name, limit: "20" } }),
    invoke<{ grants: GrantView[] }>(c, "GET /v1/agents/:name/grants", { params: { name } }),
    invoke<{ agents: { agent: string; spent: { amount: number; currency: string } | null }[] }>(
      c,
      "GET /v1/spend/agents",
    ),
  ]);
  const spent = spend.filter((s) => s.agent === name && s.spent).map((s) => `${s.spent?.amount} ${s.spent?.currency}`);
  const live = a.state !== "revoked";
  return html`<section class="detail" aria-labelledby="agent-h"><h2 id="agent-h">${a.name}</h2>
<dl class="facts">
  <dt>Kind</dt><dd>${a.kind ?? "unknown"}</dd>
  <dt>State</dt><dd>${state(a)}</dd>
  <dt>Answers for it</dt><dd>${owners(a)}</dd>
  <dt>Acts for</dt><dd>${a.principal ?? html`<span class="muted">no principal named</span>`}</dd>
  <dt>Runs on</dt><dd>${a.machines.map((m) => html`<a href="/machines#${m}"><code>${m}</code></a> `)}</dd>
  <dt>Seen</dt><dd>first ${ago(a.firstSeenAt, c.now())}, last ${ago(a.lastSeenAt, c.now())}</dd>
  <dt>Spent</dt><dd>${spent.length > 0 ? spent.join(", ") : html`<span class="muted">unknown: it reported nothing</span>`}</dd>
</dl>
${grantRows(c, a.name, grants)}
${live ? await grantForm(c, a.name) : ""}
${
  may(c, "PATCH /v1/agents/:name") && live
    ? form(
        c,
        "owners",
        { name: a.name },
        html`<label for="owners">Owners (members' emails, comma-separated)</label>
  <input id="owners" name="owners" value="${a.ownersFrom === "named" ? a.owners.join(", ") : ""}">
  <label for="principal">Acts for (a person)</label>
  <input id="principal" name="principal" value="${a.principal ?? ""}">
  <button type="submit">Save</button>`,
        { className: "stack", label: "Owners and principal" },
      )
    : ""
}
<div class="row">
${
  live && a.state !== "halted" && may(c, "POST /v1/agents/:name/halt")
    ? form(
        c,
        "halt",
        { name: a.name },
        html`<label for="halt-reason">Why halt it</label><input id="halt-reason" name="reason" required>
  <button type="submit">Halt</button>`,
        { label: "Halt" },
      )
    : ""
}
${a.state === "halted" && may(c, "POST /v1/agents/:name/lift") ? form(c, "lift", { name: a.name }, html`<button type="submit">Lift the halt</button>`) : ""}
${
  live && may(c, "POST /v1/state")
    ? form(
        c,
        "freeze",
        { name: a.name },
        html`<label for="freeze-for">Freeze it everywhere for</label><select id="freeze-for" name="for">
  <option value="30m">30 minutes</option><option value="2h">2 hours</option><option value="1d">1 day</option></select>
  <label for="freeze-why">Why</label><input id="freeze-why" name="reason">
  <button type="submit">Freeze everywhere</button>`,
        { label: "Freeze everywhere" },
      )
    : ""
}
${
  live && may(c, "POST /v1/agents/:name/revoke")
    ? html`<details class="confirm"><summary>Revoke…</summary>${form(
        c,
        "revoke",
        { name: a.name },
        html`<p>The end of this agent on every machine. Its record stays.</p><button type="submit" class="danger">Revoke ${a.name}</button>`,
      )}</details>`
    : ""
}
</div>
<h3>What it did</h3>
${recent.events.length === 0 ? html`<p class="empty">No action of it reported yet.</p>` : eventRows(recent.events, c.now())}
<p><a href="/caught?agent=${a.name}">Every action it took</a></p>
</section>`;
}

export const agents: PageDef = {
  path: "/agents",
  title: "Agents",
  async render(c) {
    const { agents: list } = await invoke<{ agents: AgentView[] }>(c, "GET /v1/agents");
    const name = c.url.searchParams.get("name");
    return html`${
      list.length === 0
        ? html`<p class="empty">No agent reported yet. A machine's scan names its agents, and every action an agent takes
      names it, once the machine is logged in.</p>`
        : html`<table class="list"><caption class="visually-hidden">Agents</caption>
<thead><tr><th scope="col">Agent</th><th scope="col">State</th><th scope="col">Answers for it</th><th scope="col">Acts for</th>
<th scope="col">Machines</th><th scope="col">Actions</th></tr></thead>
<tbody>${list.map(
            (
              a,
            ) => html`<tr><th scope="row"><a href="/agents?name=${a.name}">${a.name}</a><div class="muted">${a.kind ?? ""}</div></th>
<td>${state(a)}</td><td>${owners(a)}</td><td>${a.principal ?? "–"}</td><td>${a.machines.length}</td>
<td><a href="/caught?agent=${a.name}">${a.actions}</a></td></tr>`,
          )}</tbody></table>`
    }
${name ? await own(c, name) : await grantForm(c)}`;
  },
  actions: {
    async owners(c) {
      const name = field(c, "name");
      const owners = (c.form.get("owners") ?? "")
        .split(",")
        .map((s) => s.trim())
        .filter(Boolean);
      const principal = (c.form.get("principal") ?? "").trim();
      await invoke(c, "PATCH /v1/agents/:name", { params: { name }, body: { owners, principal: principal || null } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async grant(c) {
      const name = field(c, "name");
      const limit = (c.form.get("spendLimit") ?? "").trim();
      const role = (c.form.get("role") ?? "").trim();
      const actions = (c.form.get("actions") ?? "").split(/[\s,]+/).filter(Boolean);
      const expiresIn = (c.form.get("expiresIn") ?? "").trim();
      const g = await invoke<{ credential: string; expiresAt: string | null }>(c, "POST /v1/agents/:name/grants", {
        params: { name },
        body: {
          principal: field(c, "principal"),
          ...(role ? { role } : {}),
          ...(actions.length > 0 ? { actions } : {}),
          ...(limit ? { spendLimit: Number(limit) } : {}),
          currency: (c.form.get("currency") ?? "USD").trim().toUpperCase() || "USD",
          ...(expiresIn ? { expiresIn } : {}),
        },
      });
      c.url.searchParams.set("name", name);
      return {
        ok: `${name} holds a new grant. Its credential is shown once, here: give it to the agent now.`,
        once: html`<p>Credential for ${name}: <code id="agent-credential">${g.credential}</code></p>${
          g.expiresAt ? html`<p class="muted">It lapses ${ago(g.expiresAt, c.now())}.</p>` : ""
        }`,
      };
    },
    async "revoke-grant"(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/grants/:id/revoke", { params: { name, id: field(c, "id") } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async halt(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/halt", { params: { name }, body: { reason: field(c, "reason") } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async lift(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/lift", { params: { name } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async freeze(c) {
      const name = field(c, "name");
      const reason = (c.form.get("reason") ?? "").trim();
      await invoke(c, "POST /v1/state", {
        body: { kind: "freeze-agent", subject: name, for: field(c, "for"), ...(reason ? { reason } : {}) },
      });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
    async revoke(c) {
      const name = field(c, "name");
      await invoke(c, "POST /v1/agents/:name/revoke", { params: { name } });
      return `/agents?name=${encodeURIComponent(name)}`;
    },
  },
};
