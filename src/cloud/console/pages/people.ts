// People: the members, the role each holds (a role here is also the grant on the organization's one workspace), the
// invites still open, and an admin adding somebody, changing a role, suspending (the default for somebody who left);
// teams (putting somebody on one grants its role) and the chat accounts slash commands act as.
import { ROLES } from "../../roles.ts";
import type { TeamView } from "../../routes/teams.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { ago, type Html, html } from "../html.ts";
import { form, meOf } from "../layout.ts";
import { field, type PageDef } from "../page.ts";

interface Account {
  readonly sourceType: string;
  readonly account: string;
  readonly email: string;
  readonly evidence: string;
  readonly linkedBy: string;
}

interface Member {
  readonly id: string;
  readonly email: string;
  readonly name: string | null;
  readonly role: string;
  readonly status: string;
  readonly invited: boolean;
  readonly lastSignInAt: string | null;
  readonly createdBy: string;
  readonly pending: { readonly to: string; readonly coolingOffUntil: string | null } | null;
}

export const people: PageDef = {
  path: "/people",
  title: "People",
  async render(c) {
    const [{ members }, me, { accounts }, { teams }] = await Promise.all([
      invoke<{ members: Member[] }>(c, "GET /v1/members"),
      meOf(c),
      invoke<{ accounts: Account[] }>(c, "GET /v1/people/accounts"),
      invoke<{ teams: TeamView[] }>(c, "GET /v1/teams"),
    ]);
    const teamsOf = (id: string) => teams.filter((t) => t.members.some((x) => x.id === id)).map((t) => t.name);
    const chat = accounts.filter((a) => a.sourceType === "slack");
    const admin = may(c, "PATCH /v1/members/:id");
    const remove = may(c, "POST /v1/members/:id/remove");
    const roleSelect = (id: string, current: string) =>
      html`<select id="${id}" name="role">${ROLES.map(
        (r) => html`<option value="${r}"${r === current ? html` selected` : ""}>${r}</option>`,
      )}</select>`;
    const joined = members.filter((m) => !m.invited);
    const invites = members.filter((m) => m.invited);
    const row = (
      m: Member,
    ) => html`<tr id="${m.id}"><th scope="row">${m.email}${m.name ? html`<div class="muted">${m.name}</div>` : ""}</th>
<td>${m.role}${
      m.pending
        ? html`<div class="warn">to ${m.pending.to} once ${m.pending.coolingOffUntil ? `its cooling-off ends (${ago(m.pending.coolingOffUntil, c.now())})` : "a second admin confirms it"}, under <a href="/waiting#elevate-${m.id}">Waiting on you</a></div>`
        : ""
    }</td><td>${me.workspace.name}${
      teamsOf(m.id).length > 0 ? html`<div class="muted">teams: ${teamsOf(m.id).join(", ")}</div>` : ""
    }</td><td>${m.status}</td>
<td>${m.invited ? html`<span class="muted">invited by ${m.createdBy}</span>` : ago(m.lastSignInAt, c.now())}</td>
<td>${
      admin
        ? html`<div class="row">${form(
            c,
            "role",
            { id: m.id },
            html`<label for="role-${m.id}" class="visually-hidden">Role of ${m.email}</label>${roleSelect(`role-${m.id}`, m.role)}
          <button type="submit">Change role</button>`,
            { label: `Role of ${m.email}` },
          )}${form(
            c,
            "status",
            { id: m.id, status: m.status === "active" ? "suspended" : "active" },
            html`<button type="submit">${m.status === "active" ? "Suspend" : "Reactivate"}</button>`,
          )}${
            remove && m.id !== me.memberId
              ? form(
                  c,
                  "remove",
                  { id: m.id },
                  html`<button type="submit" class="danger" title="Erases the account; what they approved stays under their name">Remove</button>`,
                  { label: `Remove ${m.email}` },
                )
              : ""
          }</div>`
        : ""
    }</td></tr>`;
    const table = (caption: string, list: readonly Member[]) =>
      html`<table class="list"><caption>${caption}</caption><thead><tr><th scope="col">Member</th><th scope="col">Role</th>
<th scope="col">Workspace</th><th scope="col">Status</th><th scope="col">Last signed in</th>
<th scope="col"><span class="visually-hidden">Actions</span></th></tr></thead><tbody>${list.map(row)}</tbody></table>`;
    return html`<p class="muted">Three roles, differing in what they may change, never in what they may see: a viewer reads
everything, a reviewer also approves, an admin also configures. The role comes from here and nothing else; a claim in a
sign-in token grants nothing.</p>
${table("Members", joined)}
${invites.length > 0 ? table("Invites not yet taken up", invites) : ""}
${
  may(c, "POST /v1/members")
    ? form(
        c,
        "add",
        {},
        html`<h2>Invite somebody</h2><label for="add-email">Email</label><input id="add-email" name="email" type="email" required>
  <label for="add-role">Role</label>${roleSelect("add-role", "viewer")}
  <button type="submit">Invite</button>
  <p class="muted">They sign in as themselves and land in ${me.org.name} as a viewer; a role that approves takes
  effect once a second admin confirms it.</p>`,
        { className: "stack", label: "Invite somebody" },
      )
    : ""
}
${teamsSection(c, teams, joined)}
<section id="chat-accounts"><h2>Chat accounts</h2>
<p class="muted">A slash command in Slack (<code>/memnox freeze</code>, <code>freeze-agent</code>,
<code>enforce-everywhere</code>) acts as the member its Slack account is linked to here, with that member's role, once
they have signed in here. A Slack account linked to nobody is refused, and the refusal is in the audit.</p>
${
  chat.length > 0
    ? html`<table class="list"><caption>Linked Slack accounts</caption><thead><tr><th scope="col">Slack user id</th>
<th scope="col">Member</th><th scope="col">Linked by</th></tr></thead><tbody>${chat.map(
        (a) =>
          html`<tr><td><code>${a.account}</code></td><td>${a.email}</td><td>${a.evidence === "reported" ? "Slack reported the address" : a.linkedBy}</td></tr>`,
      )}</tbody></table>`
    : html`<p>No Slack account is linked yet.</p>`
}${
  may(c, "POST /v1/people/accounts")
    ? form(
        c,
        "link",
        {},
        html`<label for="link-account">Slack user id</label><input id="link-account" name="account" required placeholder="U024BE7LH">
  <label for="link-email">Member's address</label><input id="link-email" name="email" type="email" required>
  <button type="submit">Link</button>`,
        { className: "stack", label: "Link a Slack account" },
      )
    : ""
}</section>`;
  },
  actions: {
    async add(c) {
      const email = field(c, "email");
      const added = await invoke<{ link: string }>(c, "POST /v1/members", { body: { email, role: field(c, "role") } });
      // memnox sends no email: the person inviting passes the link on, and it grants nothing by itself.
      return {
        ok: `${email} is invited. memnox sends nothing: pass them this link.`,
        once: html`<p>Sign-in link for ${email}: <code id="invite-link">${added.link}</code></p>
<p class="muted">It only brings them to sign in: the role comes from the record made here, for that address.</p>`,
      };
    },
    async remove(c) {
      const r = await invoke<{ receipt: { table: string; records: number; strategy: string; why?: string }[] }>(
        c,
        "POST /v1/members/:id/remove",
        { params: { id: field(c, "id") } },
      );
      return {
        ok: "Removed: the account's personal data is erased, and the seat given back. Keep this receipt.",
        once: html`<table id="erasure-receipt"><caption>Erasure receipt</caption><thead><tr><th scope="col">Table</th>
<th scope="col">Records</th><th scope="col">How</th></tr></thead><tbody>${r.receipt.map(
          (x) =>
            html`<tr><td><code>${x.table}</code></td><td>${x.records}</td><td>${x.strategy}${x.why ? html` <span class="muted">(${x.why})</span>` : ""}</td></tr>`,
        )}</tbody></table>`,
      };
    },
    async "create-team"(c) {
      await invoke(c, "POST /v1/teams", { body: { name: field(c, "name"), role: field(c, "role") } });
      return { ok: `Team ${field(c, "name")} made. Putting somebody on it grants them ${field(c, "role")}.` };
    },
    async "team-add"(c) {
      const email = field(c, "email");
      const r = await invoke<{ role: string; pending: { to: string; coolingOffUntil: string | null } | null }>(
        c,
        "POST /v1/teams/:id/members",
        {
          params: { id: field(c, "team") },
          body: { email },
        },
      );
      return {
        ok: !r.pending
          ? `${email} is on the team, holding ${r.role} here.`
          : r.pending.coolingOffUntil
            ? `${email} is on the team; their grant becomes ${r.pending.to} when its cooling-off ends (${r.pending.coolingOffUntil}): no other admin is here to confirm it.`
            : `${email} is on the team; their grant becomes ${r.pending.to} once a second admin confirms it (Waiting on you).`,
      };
    },
    async "team-remove"(c) {
      const r = await invoke<{ role: string | null }>(c, "POST /v1/teams/:id/members/:member/remove", {
        params: { id: field(c, "team"), member: field(c, "member") },
      });
      return {
        ok: `Off the team. Their grant stays ${r.role ?? "as it was"}: they may hold it another way, so change it on the member.`,
      };
    },
    async link(c) {
      const account = field(c, "account");
      const email = field(c, "email");
      await invoke(c, "POST /v1/people/accounts", { body: { sourceType: "slack", account, email } });
      return { ok: `Slack's ${account} now acts as ${email} in chat commands.` };
    },
    async role(c) {
      await invoke(c, "PATCH /v1/members/:id", { params: { id: field(c, "id") }, body: { role: field(c, "role") } });
      return undefined;
    },
    async status(c) {
      await invoke(c, "PATCH /v1/members/:id", {
        params: { id: field(c, "id") },
        body: { status: field(c, "status") },
      });
      return undefined;
    },
  },
};

function teamsSection(c: ConsoleCall, teams: readonly TeamView[], members: readonly Member[]): Html {
  const admin = may(c, "POST /v1/teams");
  const list =
    teams.length === 0
      ? html`<p>No team yet.</p>`
      : html`<table class="list" id="teams"><caption>Teams</caption><thead><tr><th scope="col">Team</th><th scope="col">Grants</th>
<th scope="col">On it</th></tr></thead><tbody>${teams.map(
          (t) =>
            html`<tr id="${t.id}"><th scope="row">${t.name}</th><td>${t.role}</td><td>${
              t.members.length === 0
                ? html`<span class="muted">nobody</span>`
                : html`<ul>${t.members.map(
                    (x) =>
                      html`<li>${x.email}${
                        admin
                          ? form(
                              c,
                              "team-remove",
                              { team: t.id, member: x.id },
                              html`<button type="submit">Take off</button>`,
                              {
                                label: `Take ${x.email} off ${t.name}`,
                              },
                            )
                          : ""
                      }</li>`,
                  )}</ul>`
            }</td></tr>`,
        )}</tbody></table>`;
  const make = admin
    ? form(
        c,
        "create-team",
        {},
        html`<h3>Make a team</h3><label for="team-name">Team name</label><input id="team-name" name="name" required placeholder="release">
  <label for="team-role">Role it grants</label><select id="team-role" name="role">${ROLES.map((r) => html`<option value="${r}">${r}</option>`)}</select>
  <button type="submit">Make the team</button>`,
        { className: "stack", label: "Make a team" },
      )
    : "";
  const add =
    may(c, "POST /v1/teams/:id/members") && teams.length > 0
      ? form(
          c,
          "team-add",
          {},
          html`<h3>Put somebody on a team</h3><label for="team-pick">Team</label><select id="team-pick" name="team">${teams.map(
            (t) => html`<option value="${t.id}">${t.name} (${t.role})</option>`,
          )}</select>
  <label for="team-email">Member's address</label><input id="team-email" name="email" type="email" required list="member-addresses">
  <datalist id="member-addresses">${members.map((m) => html`<option value="${m.email}">`)}</datalist>
  <button type="submit">Put them on it</button>`,
          { className: "stack", label: "Put somebody on a team" },
        )
      : "";
  return html`<section id="teams-section"><h2>Teams and grants</h2>
<p class="muted">A grant names a workspace and the role held in it: here, the role beside each member. A team is a
named group in this workspace; putting somebody on it grants them the workspace at the team's role (a role that approves
waits on a second admin). Taking them off leaves their grant, which they may hold another way: change it on the member.</p>
${list}${make}${add}</section>`;
}
