// Teams and workspace grants against a real PostgreSQL and the real HTTP face, through the People page's own forms: a
// grant names the workspace and the role in it; putting somebody on a team grants them the workspace at its role (one
// that approves waits on a second admin, as any raise does); taking them off leaves the grant, which they may hold
// another way; removing a member takes them off every team. A token, a viewer and a reviewer change nothing.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Db } from "../src/cloud/store/db.ts";
import type { NewOrg } from "../src/cloud/store/people.ts";
import { api, memberWithToken } from "./support/cloud.ts";
import { type InProcessCloud, startInProcessCloud } from "./support/cloud-in-process.ts";
import { sessionFor } from "./support/console.ts";

let cloud: InProcessCloud;
let db: Db;
let url = "";

beforeAll(async () => {
  cloud = await startInProcessCloud("whsec_VGVhbXMtYW5kLXdvcmtzcGFjZS1ncmFudHM");
  ({ db, url } = cloud);
}, 60_000);

afterAll(() => cloud?.stop());

const newOrg = () => cloud.newOrg("tm");

async function roleOf(id: string): Promise<string> {
  const [m] = await db`SELECT role FROM members WHERE id = ${id}`;
  return m.role;
}

async function teamId(o: NewOrg, name: string): Promise<string> {
  const [t] = await db`SELECT id FROM teams WHERE workspace_id = ${o.workspace.id} AND name = ${name}`;
  return t.id;
}

/** Everything a refused team act could have changed. */
async function peopleState(o: NewOrg): Promise<string> {
  return JSON.stringify([
    await db`SELECT id, name, role FROM teams WHERE workspace_id = ${o.workspace.id} ORDER BY id`,
    await db`SELECT t.team_id, t.member_id FROM team_members t JOIN teams x ON x.id = t.team_id
             WHERE x.workspace_id = ${o.workspace.id} ORDER BY 1, 2`,
    await db`SELECT id, role, status FROM members WHERE org_id = ${o.org.id} ORDER BY id`,
    await db`SELECT id, status FROM elevations WHERE org_id = ${o.org.id} ORDER BY id`,
  ]);
}

describe("teams and workspace grants", () => {
  test("a team grants its role on joining; taking somebody off leaves the grant; a raise that approves waits on a second admin", async () => {
    const o = await newOrg();
    const carl = await memberWithToken(db, o.org.id, "carl@tm.dev", "viewer");
    const second = await memberWithToken(db, o.org.id, "second@tm.dev", "admin");
    expect(
      (await o.browser.post("/people", { _action: "create-team", name: "contractors", role: "viewer" })).status,
    ).toBe(200);
    expect(
      (await o.browser.post("/people", { _action: "create-team", name: "release", role: "reviewer" })).status,
    ).toBe(200);
    // A second team of the same name is refused.
    expect((await o.browser.post("/people", { _action: "create-team", name: "release", role: "admin" })).status).toBe(
      409,
    );

    // Contractors grants viewer: Carl holds it already, nothing raised.
    await o.browser.post("/people", {
      _action: "team-add",
      team: await teamId(o, "contractors"),
      email: "carl@tm.dev",
    });
    expect(await roleOf(carl.id)).toBe("viewer");
    // Release grants reviewer, a role that approves: pending until another admin confirms, never at once.
    const joined = await o.browser.post("/people", {
      _action: "team-add",
      team: await teamId(o, "release"),
      email: "carl@tm.dev",
    });
    expect(joined.html).toContain("once a second admin confirms it");
    expect(await roleOf(carl.id)).toBe("viewer");
    const sb = await sessionFor(db, url, second.id);
    expect((await sb.post("/waiting", { _action: "confirm-member", id: carl.id })).status).toBe(303);
    expect(await roleOf(carl.id)).toBe("reviewer");

    const grants = await api(url, "GET", "/v1/grants", { token: o.token });
    const carlGrant = grants.body.grants.find((g: { member: { email: string } }) => g.member.email === "carl@tm.dev");
    expect(carlGrant).toEqual({
      member: { id: carl.id, email: "carl@tm.dev", status: "active" },
      workspace: { id: o.workspace.id, name: o.workspace.name },
      role: "reviewer",
      pending: null,
      teams: ["contractors", "release"],
    });
    const page = (await o.browser.get("/people")).html;
    expect(page).toContain("teams: contractors, release");

    // Off release: the grant stays reviewer (held another way or not, it is changed on the member).
    const off = await o.browser.post("/people", {
      _action: "team-remove",
      team: await teamId(o, "release"),
      member: carl.id,
    });
    expect(off.html).toContain("Their grant stays reviewer");
    expect(await roleOf(carl.id)).toBe("reviewer");
    expect((await api(url, "GET", "/v1/teams", { token: o.token })).body.teams).toEqual([
      expect.objectContaining({ name: "contractors", members: [expect.objectContaining({ email: "carl@tm.dev" })] }),
      expect.objectContaining({ name: "release", role: "reviewer", members: [] }),
    ]);
    // Access is taken away on the member, where it is held.
    await o.browser.post("/people", { _action: "role", id: carl.id, role: "viewer" });
    expect(await roleOf(carl.id)).toBe("viewer");

    // Removing Carl takes him off every team, and the receipt says so.
    const removed = await o.browser.post("/people", { _action: "remove", id: carl.id });
    expect(removed.html).toContain("team_members");
    expect(await db`SELECT 1 FROM team_members WHERE member_id = ${carl.id}`).toHaveLength(0);
    const audit = await db`SELECT action FROM audit WHERE org_id = ${o.org.id} AND action LIKE 'team.%' ORDER BY id`;
    expect(audit.map((a: { action: string }) => a.action)).toEqual([
      "team.create",
      "team.create",
      "team.member.add",
      "team.member.add",
      "team.member.remove",
    ]);
  });

  test("nobody joins an admin team into admin at once; a token, a viewer and a reviewer change nothing", async () => {
    const o = await newOrg();
    await o.browser.post("/people", { _action: "create-team", name: "owners", role: "admin" });
    const owners = await teamId(o, "owners");
    const dana = await memberWithToken(db, o.org.id, "dana@tm.dev", "viewer");
    // A token cannot put anybody on a team: it grants, so it is done signed in.
    const byToken = await api(url, "POST", `/v1/teams/${owners}/members`, {
      token: o.token,
      body: { email: "dana@tm.dev" },
    });
    expect(byToken.status).toBe(403);
    // A viewer and a reviewer are offered no team form and refused the ones sent anyway.
    for (const role of ["viewer", "reviewer"] as const) {
      const p = await memberWithToken(db, o.org.id, `${role}-x@tm.dev`, role);
      const b = await sessionFor(db, url, p.id);
      expect((await b.get("/people")).html).not.toContain("Make the team");
      const before = await peopleState(o);
      expect((await b.post("/people", { _action: "create-team", name: "mine", role: "admin" })).status).toBe(403);
      expect((await b.post("/people", { _action: "team-add", team: owners, email: `${role}-x@tm.dev` })).status).toBe(
        403,
      );
      expect((await b.post("/people", { _action: "team-remove", team: owners, member: dana.id })).status).toBe(403);
      expect(await peopleState(o)).toBe(before);
    }
    expect(await roleOf(dana.id)).toBe("viewer");
    // An admin putting Dana on owners: admin only once a second admin confirms; nobody else here, so a cooling-off.
    const joined = await o.browser.post("/people", { _action: "team-add", team: owners, email: "dana@tm.dev" });
    expect(joined.status).toBe(200);
    expect(await roleOf(dana.id)).toBe("viewer");
    const [e] = await db`SELECT to_role, status FROM elevations WHERE member_id = ${dana.id}`;
    expect(e).toEqual({ to_role: "admin", status: "pending" });
    // Somebody not invited is not made a member by a team.
    const stranger = await o.browser.post("/people", { _action: "team-add", team: owners, email: "eve@else.dev" });
    expect(stranger.status).toBe(404);
    expect(await db`SELECT 1 FROM members WHERE email = 'eve@else.dev'`).toHaveLength(0);
  });
});
