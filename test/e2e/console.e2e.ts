// The console end to end, in real Chromium against real parts: two `memnox cloud serve` processes (the compiled
// binary) on one real PostgreSQL, a real OpenID provider on loopback, and two machines that are the compiled binary in
// temporary homes. Sign in; approve a machine's code and see it under Machines; a deny a machine reports under What
// was caught with its rule; a held call answered in Waiting on you released on its machine; a rule proposal approved
// by a second admin reaching both machines; Contain it freezing the agent everywhere; a viewer refused by the server;
// signing out ending the session on the server. Screenshots of each page go to .cache/screenshots/console/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { PAGES } from "../../src/cloud/console/index.ts";
import { type RunningChromium, startChromium } from "../support/chromium.ts";
import { api, type RunningCloud, startCloud } from "../support/cloud.ts";
import { formsOf, organizationState } from "../support/console.ts";
import { press, signIn as signInAs } from "../support/console-browser.ts";
import { compiledBinary, runBinary } from "../support/index.ts";
import { gitOn, type Machine, machine, mx, remoteRef, syncNow, waitFor, wire } from "../support/machine.ts";
import { freePort, type RunningProvider, startProvider } from "../support/oidc.ts";
import { startPostgres, type TestPostgres } from "../support/postgres.ts";

const BUNDLE = `version = 1

[[policies]]
name = "no-force-push"
match = { actions = ["git.push-force"] }
decision = { effect = "deny", reason = "force pushes rewrite history somebody else has" }

[[policies]]
name = "release-pushes-ask"
match = { actions = ["git.push"], branches = ["release/*"] }
decision = { effect = "ask", reason = "a person looks at release pushes" }
`;

let bin = "";
let pg: TestPostgres;
let provider: RunningProvider;
let cloud: RunningCloud;
let selfService: RunningCloud;
let chrome: RunningChromium;
let adminToken = "";
const contexts: BrowserContext[] = [];

const A = machine("a");
const B = machine("b");
const git = gitOn;
const sync = syncNow;

/** What the console's pages said went wrong in the browser: a refused script or style, an uncaught error. */
const broken: string[] = [];

async function person(): Promise<Page> {
  const ctx = await chrome.browser.newContext();
  contexts.push(ctx);
  const page = await ctx.newPage();
  page.on("console", (m) => {
    // The provider's own pages are not ours to judge; a 4xx a refusal answers is the test's point, not a break.
    if (m.type() === "error" && !page.url().startsWith(provider.issuer) && !/status of 40[13]/.test(m.text()))
      broken.push(`${page.url()}: ${m.text()}`);
  });
  page.on("pageerror", (e) => broken.push(`${page.url()}: ${e.message}`));
  return page;
}

/** The little of the DOM the in-page checks touch: these functions run in Chromium, typed here without a DOM library. */
interface El {
  readonly labels?: { readonly length: number } | null;
  readonly textContent: string | null;
  readonly outerHTML: string;
  getAttribute(name: string): string | null;
  closest(selector: string): El | null;
  querySelector(selector: string): El | null;
}

async function shot(page: Page, name: string): Promise<void> {
  await page.screenshot({ path: join(chrome.shots, `${name}.png`), fullPage: true });
}

/** Signing in to `base` through the test's provider. */
function signIn(page: Page, base: string, login: string, path = "/"): Promise<void> {
  return signInAs(page, provider.issuer, base, login, path);
}

/** `memnox login --no-open`, read up to the code and URL it prints; the process waits for somebody to approve. */
async function startLogin(m: Machine, extra: string[] = []) {
  const child = Bun.spawn([bin, "login", "--no-open", "--url", cloud.url, ...extra], {
    env: m.env(),
    cwd: m.repo.path,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = child.stdout.getReader();
  const decoder = new TextDecoder();
  let out = "";
  let link = "";
  while (!link) {
    const { value, done } = await reader.read();
    if (done) break;
    out += decoder.decode(value, { stream: true });
    link = /(http:\/\/\S+\/device\?code=[A-Z]{4}-[A-Z]{4})/.exec(out)?.[1] ?? "";
  }
  expect(link).not.toBe("");
  const finished = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      out += decoder.decode(value, { stream: true });
    }
    return { code: await child.exited, out };
  })();
  return { link, finished };
}

beforeAll(async () => {
  bin = await compiledBinary();
  pg = await startPostgres();
  const ports = [freePort(), freePort()] as const;
  provider = await startProvider(ports.map((p) => `http://127.0.0.1:${p}/auth/callback`));
  // Every person here signs in from one address, many times a minute: the limits stay, ten times their size.
  const oidc = ["--oidc-issuer", provider.issuer, "--oidc-client-id", provider.clientId, "--rate-scale", "10"];
  const env = { MEMNOX_OIDC_CLIENT_SECRET: provider.clientSecret };
  [cloud, selfService, chrome] = await Promise.all([
    startCloud(pg.url, { port: ports[0], args: oidc, env }),
    startCloud(pg.url, { port: ports[1], args: [...oidc, "--self-service"], env }),
    startChromium("console"),
  ]);
  const init = await runBinary(
    "memnox",
    ["cloud", "init", "--org", "acme", "--admin", "admin@acme.dev", "--db", pg.url, "--json"],
    {
      env: A.home.env(),
    },
  );
  expect(init.code).toBe(0);
  adminToken = JSON.parse(init.stdout).token;
  for (const m of [A, B]) wire(m, bin, ["git", "memnox-shell"]);
}, 180_000);

afterAll(async () => {
  for (const c of contexts) await c.close().catch(() => {});
  await chrome?.stop();
  await cloud?.stop();
  await selfService?.stop();
  await provider?.stop();
  await pg?.stop();
  for (const m of [A, B]) m[Symbol.dispose]();
});

let admin: Page;
let second: Page;
let viewer: Page;

describe("signing in through OpenID Connect", () => {
  test("a provisioned email lands in its organization with its role, in an HttpOnly Secure SameSite cookie", async () => {
    admin = await person();
    await admin.goto(`${cloud.url}/signin`);
    await shot(admin, "signin");
    await signIn(admin, cloud.url, "admin@acme.dev");
    // The first time in, the team's profile: what extraction will later read.
    expect(new URL(admin.url()).pathname).toBe("/onboarding");
    await shot(admin, "onboarding");
    await admin.getByLabel("What the team does").fill("We build the payments API.");
    await admin.getByLabel("Who you are").fill("Ada Admin");
    await admin.getByRole("button", { name: "Continue" }).click();
    await admin.waitForURL(`${cloud.url}/`);
    expect(await admin.locator(".avatar summary").textContent()).toContain("admin");
    const [session] = (await admin.context().cookies(cloud.url)).filter((c) => c.name === "__Host-memnox-session");
    expect(session).toMatchObject({ httpOnly: true, secure: true, sameSite: "Lax", path: "/" });
    expect(admin.url()).not.toContain(session?.value ?? "never");
    await shot(admin, "home-empty");
    expect(await admin.locator(".tiles dd").first().textContent()).toBe("–");
  });

  test("invited under People, a second admin and a viewer land in acme with the roles given there", async () => {
    await admin.goto(`${cloud.url}/people`);
    for (const [email, role] of [
      ["second@acme.dev", "admin"],
      ["viewer@acme.dev", "viewer"],
    ] as const) {
      await admin.getByLabel("Email").fill(email);
      await admin.locator("#add-role").selectOption(role);
      await press(admin, admin.getByRole("button", { name: "Invite" }));
    }
    await shot(admin, "people");
    const invites = (await admin.getByRole("table", { name: "Invites not yet taken up" }).textContent()) ?? "";
    expect(invites).toContain("viewer@acme.dev");
    // The admin role is power to approve: with no other admin to confirm it, it waits out its cooling-off, shown.
    expect(invites).toContain("to admin once its cooling-off ends");
    await admin.goto(`${cloud.url}/waiting`);
    const waitingOn = (await admin.locator("section#elevations").textContent()) ?? "";
    expect(waitingOn).toContain("second@acme.dev to admin");
    expect(waitingOn).toContain("nobody else could confirm it");
    expect(await admin.locator("section#elevations").getByRole("button", { name: "Confirm" }).count()).toBe(0);
    await shot(admin, "waiting-elevation");
    // A day passes (the cooling-off's end moved to now): the grant takes effect on its own, and the audit says so.
    const sql = new Bun.SQL(pg.url, { max: 1 });
    await sql`UPDATE elevations SET cooling_off_until = now() - interval '1 second' WHERE status = 'pending'`;
    await sql.close();
    second = await person();
    await signIn(second, cloud.url, "second@acme.dev", "/machines");
    expect(new URL(second.url()).pathname).toBe("/machines");
    expect(await second.locator(".avatar summary").textContent()).toContain("admin");
    viewer = await person();
    await signIn(viewer, cloud.url, "viewer@acme.dev", "/machines");
    expect(await viewer.locator(".avatar summary").textContent()).toContain("viewer");
    expect(await viewer.locator(".workspace").textContent()).toBe("acme");
    const audit = (await api(cloud.url, "GET", "/v1/audit", { token: adminToken })).body.audit;
    expect(audit.find((a: { action: string }) => a.action === "member.elevate.cooled")).toMatchObject({
      actor: "cooling-off",
      detail: { role: "admin", requestedBy: "admin@acme.dev" },
    });
  });

  test("refused: an unverified email, an unknown one while self-service is off, and the same email from another subject", async () => {
    for (const login of ["unverified-eve@acme.dev", "stranger@acme.dev", "second@acme.dev#other"]) {
      const p = await person();
      await signIn(p, cloud.url, login);
      expect(await p.locator("h1").textContent()).toBe("Sign-in refused");
      // It says only that it was refused: never whether the account exists, nor why.
      expect(await p.locator("main").textContent()).not.toMatch(/verified|unknown|exist|member|subject/i);
      if (login.startsWith("unverified")) await shot(p, "signin-refused");
      expect((await p.context().cookies(cloud.url)).some((c) => c.name === "__Host-memnox-session")).toBe(false);
    }
    expect(cloud.stderr()).toContain("sign-in refused: unverified");
    expect(cloud.stderr()).toContain("sign-in refused: unknown");
    expect(cloud.stderr()).toContain("sign-in refused: other-identity");
  });

  test("with self-service on, an unknown identity gets a new organization of its own, never membership of acme", async () => {
    const p = await person();
    await signIn(p, selfService.url, "stranger@acme.dev");
    expect(new URL(p.url()).pathname).toBe("/onboarding");
    expect(await p.locator(".workspace").textContent()).toBe("stranger's team");
    const sql = new Bun.SQL(pg.url, { max: 1 });
    const rows =
      await sql`SELECT o.name, m.role FROM members m JOIN orgs o ON o.id = m.org_id WHERE m.email = 'stranger@acme.dev'`;
    await sql.close();
    expect(rows).toEqual([{ name: "stranger's team", role: "admin" }]);
    const acme = (await api(cloud.url, "GET", "/v1/members", { token: adminToken })).body.members;
    expect(acme.map((m: { email: string }) => m.email)).not.toContain("stranger@acme.dev");
  });
});

describe("the fleet, from the browser", () => {
  test("a machine's device code approved in the browser: the machine finishes logging in and shows under Machines", async () => {
    for (const [m, who, extra] of [
      [A, admin, ["--enforce"]],
      [B, second, []],
    ] as const) {
      const login = await startLogin(m, [...extra]);
      await who.goto(login.link);
      expect(await who.locator("main").textContent()).toContain("Hostname it reported");
      if (m === A) await shot(who, "device");
      await who.getByRole("button", { name: "Approve this machine" }).click();
      await who.waitForURL((u) => u.pathname === "/machines");
      const done = await login.finished;
      expect(done.code, done.out).toBe(0);
      m.id = JSON.parse(readFileSync(join(m.home.memnoxHome, "account.json"), "utf8")).machineId;
      await who.reload();
      expect(await who.locator(`tr#${m.id}`).textContent()).toContain(m.id);
    }
    await admin.reload();
    expect(await admin.locator(`tr#${B.id}`).textContent()).toContain("owner second@acme.dev");
    await shot(admin, "machines");
  });

  test("a rule proposal waits for a second admin in Waiting on you; approved there, it reaches both machines", async () => {
    const proposed = await api(cloud.url, "POST", "/v1/policies/proposals", { token: adminToken, raw: BUNDLE });
    expect(proposed.status).toBe(201);
    await admin.goto(`${cloud.url}/waiting`);
    const mine = admin.locator(`li#${proposed.body.id}`);
    expect(await mine.getByRole("button", { name: "Approve and publish" }).count()).toBe(0);
    expect(await mine.getByRole("button", { name: "Withdraw" }).count()).toBe(1);
    for (const m of [A, B]) expect((await sync(m)).bundle.outcome).not.toBe("applied");
    await second.goto(`${cloud.url}/waiting`);
    await shot(second, "waiting");
    await press(second, second.locator(`li#${proposed.body.id}`).getByRole("button", { name: "Approve and publish" }));
    for (const m of [A, B]) {
      expect((await sync(m)).bundle).toMatchObject({ outcome: "applied", rules: 2 });
      const pulled = JSON.parse(readFileSync(join(m.home.memnoxHome, "org.policies.json"), "utf8"));
      expect(pulled.policies.map((p: { name: string }) => p.name)).toEqual(["no-force-push", "release-pushes-ask"]);
    }
    // In force on A (enforce): the force push is refused and the bare remote keeps its history.
    A.repo.git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten");
    const before = remoteRef(A, "main");
    const r = await git(A, ["push", "--force", "origin", "main"]);
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("force pushes rewrite history somebody else has");
    expect(remoteRef(A, "main")).toBe(before);
    await admin.goto(`${cloud.url}/autonomy`);
    await shot(admin, "autonomy");
    expect(await admin.locator("#refused").locator("..").textContent()).toContain("no-force-push");
  });

  test("the deny machine A reported appears under What was caught, with its rule", async () => {
    expect((await sync(A)).sent.accepted).toBeGreaterThan(0);
    await admin.goto(`${cloud.url}/`);
    // The home page's denied count opens the record already narrowed to what was denied.
    await admin.locator('.ways a[href="/caught?effect=deny"]').click();
    await admin.waitForURL((u) => u.pathname === "/caught" && u.searchParams.get("effect") === "deny");
    const row = admin.locator("tr.effect-deny", { hasText: "git.push-force" }).first();
    expect(await row.textContent()).toContain("no-force-push");
    expect(await row.textContent()).toContain(A.id);
    await shot(admin, "caught");
    await row.getByRole("link", { name: "Trace" }).click();
    await admin.waitForURL((u) => u.searchParams.has("trace"));
    expect(await admin.locator("#trace-h").textContent()).toContain("git.push-force");
  });

  test("a machine's scan names its agents and MCP servers; one launched bare waits on a person, and is blocked for the team", async () => {
    const canary = "sk_live_CANARYscanAAAAbbbbCCCC1234";
    mkdirSync(join(A.home.home, ".claude"), { recursive: true });
    await Bun.write(join(A.home.home, ".claude", "settings.json"), "{}\n");
    await Bun.write(
      join(A.home.home, ".claude.json"),
      JSON.stringify({
        mcpServers: { stripe: { command: "stripe-mcp-not-installed", args: ["--live"], env: { STRIPE_KEY: canary } } },
      }),
    );
    expect((await mx(A, ["scan", "--no-probe", "--json"])).code).toBe(0);
    await sync(A);
    await admin.goto(`${cloud.url}/waiting`);
    const shadow = admin.locator("#mcp");
    expect(await shadow.textContent()).toContain("stripe");
    expect(await shadow.textContent()).toContain(A.id);
    await shot(admin, "waiting-mcp");
    await press(admin, shadow.getByRole("button", { name: "Block for the team" }));
    expect(await admin.locator("#rules").textContent()).toContain("team-blocks-mcp-stripe");
    await second.goto(`${cloud.url}/waiting`);
    await press(second, second.locator("#rules").getByRole("button", { name: "Approve and publish" }));
    for (const m of [A, B]) {
      await sync(m);
      const names = JSON.parse(readFileSync(join(m.home.memnoxHome, "org.policies.json"), "utf8")).policies.map(
        (p: { name: string }) => p.name,
      );
      expect(names).toEqual(["no-force-push", "release-pushes-ask", "team-blocks-mcp-stripe"]);
    }
    await admin.goto(`${cloud.url}/agents`);
    expect(await admin.locator("main").textContent()).toContain("taken from the machines it runs on");
    await admin.goto(`${cloud.url}/map`);
    expect(await admin.locator("table.map").textContent()).toContain("bare");
    const dump = await pg.dump();
    expect(dump).toContain("stripe");
    for (const secret of [canary, "stripe-mcp-not-installed", "--live", "STRIPE_KEY"])
      expect(dump).not.toContain(secret);
  });

  test("a held call from machine B, answered by keyboard in Waiting on you, releases the push there once", async () => {
    // B watches only (observe), where nothing is held: moved up the ramp from the browser first.
    await second.goto(`${cloud.url}/machines`);
    await press(second, second.locator(`tr#${B.id}`).getByRole("button", { name: "enforce" }));
    expect(await second.locator(`tr#${B.id}`).textContent()).toContain("moving to enforce on its next beat");
    expect((await sync(B)).modeChange).toMatchObject({ from: "observe", to: "enforce", by: "second@acme.dev" });
    B.repo.git("checkout", "-q", "-b", "release/1");
    B.repo.git("commit", "-q", "--allow-empty", "-m", "release one");
    const held = Bun.spawn([join(B.home.memnoxHome, "bin", "git"), "push", "-q", "origin", "release/1"], {
      env: B.env(),
      cwd: B.repo.path,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    await waitFor("the held call", async () => {
      const a = JSON.parse((await mx(B, ["approvals", "--json"])).stdout) as { approvals: unknown[] };
      return a.approvals.length > 0;
    });
    expect((await sync(B)).holdsUp).toBe(1);
    await second.goto(`${cloud.url}/waiting`);
    expect(await second.locator("#held").textContent()).toContain("origin release/1");
    await shot(second, "waiting-held");
    // Keyboard only: tab to "Allow once" and press Enter.
    const allow = second.getByRole("button", { name: "Allow once" });
    const focused = () =>
      allow.evaluate(
        (el) => el === (globalThis as unknown as { document: { activeElement: unknown } }).document.activeElement,
      );
    for (let i = 0; i < 80 && !(await focused()); i++) await second.keyboard.press("Tab");
    expect(await focused()).toBe(true);
    await press(second, () => second.keyboard.press("Enter"));
    expect(remoteRef(B, "release/1")).toBe("");
    expect((await sync(B)).answers).toEqual([expect.objectContaining({ grant: true, by: "second@acme.dev" })]);
    expect(await held.exited).toBe(0);
    expect(remoteRef(B, "release/1")).toBe(B.repo.git("rev-parse", "release/1").trim());
    B.repo.git("checkout", "-q", "main");
  });

  test("repeated refusals open an incident; Contain it freezes the agent on every machine and moves both to enforce", async () => {
    const hook = (m: Machine, command: string, session: string) =>
      runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
        env: m.env(),
        cwd: m.repo.path,
        stdin: JSON.stringify({
          session_id: session,
          cwd: m.repo.path,
          hook_event_name: "PreToolUse",
          tool_name: "Bash",
          tool_input: { command },
          tool_use_id: `toolu_${crypto.randomUUID().slice(0, 8)}`,
        }),
      });
    for (let i = 0; i < 3; i++) {
      const r = await hook(A, "git push --force origin main", "claude-session-7");
      expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    }
    await sync(A);
    // Down the ramp is the valve somebody needs at two in the morning: B goes to advise, recorded with who.
    await admin.goto(`${cloud.url}/machines`);
    await press(admin, admin.locator(`tr#${B.id}`).getByRole("button", { name: "advise" }));
    expect((await sync(B)).modeChange).toMatchObject({ to: "advise", by: "admin@acme.dev" });
    await admin.goto(`${cloud.url}/caught`);
    const incident = admin.locator("details.incident").first();
    expect(await incident.textContent()).toContain("claude-code was refused 3 or more times");
    await incident.locator("summary").click();
    await shot(admin, "caught-incident");
    await press(admin, incident.getByRole("button", { name: "Contain it" }));
    for (const m of [A, B]) {
      const r = await sync(m);
      expect(readFileSync(join(m.home.memnoxHome, "config.toml"), "utf8")).toContain('mode = "enforce"');
      expect(r.bundle.outcome).toBe("applied");
    }
    // On B, which never saw those refusals: claude-code is refused everything, its push never reaches the remote.
    B.repo.git("commit", "-q", "--allow-empty", "-m", "after containment");
    const before = remoteRef(B, "main");
    const frozen = await git(B, ["push", "-q", "origin", "main"], { MEMNOX_AGENT_NAME: "claude-code" });
    expect(frozen.code).toBe(126);
    expect(frozen.stderr).toContain("agent claude-code is frozen on every machine by admin@acme.dev");
    expect(remoteRef(B, "main")).toBe(before);
    const read = await hook(B, "git status", "claude-session-8");
    expect(JSON.parse(read.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    // Another agent's work goes on.
    expect((await git(B, ["push", "-q", "origin", "main"], { MEMNOX_AGENT_NAME: "codex" })).code).toBe(0);
    await admin.goto(`${cloud.url}/agents?name=claude-code`);
    expect(await admin.locator("main").textContent()).toContain("frozen everywhere");
    await shot(admin, "agent");
  });
});

describe("roles and the session", () => {
  test("every page, as an admin: labelled controls, and a screenshot of each", async () => {
    await sync(A);
    for (const def of PAGES) {
      await admin.goto(`${cloud.url}${def.path}`);
      expect(await admin.locator("h1").textContent()).toBe(def.title);
      const unlabelled = await admin
        .locator(
          "main input:not([type=hidden]), main select, main textarea, main button, header input:not([type=hidden])",
        )
        // In the page, where the DOM is: a control with no label, no aria-label, no text and no legend has no name.
        .evaluateAll((els) =>
          (els as unknown as El[])
            .filter(
              (e) =>
                !(
                  (e.labels?.length ?? 0) > 0 ||
                  e.getAttribute("aria-label") ||
                  (e.textContent ?? "").trim() ||
                  e.closest("fieldset")?.querySelector("legend")
                ),
            )
            .map((e) => e.outerHTML.slice(0, 120)),
        );
      expect(unlabelled, def.path).toEqual([]);
      const name = def.path === "/" ? "home" : def.path.slice(1);
      if (!["device", "onboarding"].includes(name)) await shot(admin, name);
    }
  });

  test("without JavaScript the lists read whole and a form still acts: a plain post, a 303, the page again", async () => {
    const ctx = await chrome.browser.newContext({ javaScriptEnabled: false });
    contexts.push(ctx);
    await ctx.addCookies(await admin.context().cookies(cloud.url));
    const p = await ctx.newPage();
    await p.goto(`${cloud.url}/caught`);
    expect(await p.locator("table.events tbody tr").count()).toBeGreaterThan(3);
    await p.goto(`${cloud.url}/machines`);
    for (const mode of ["observe", "enforce"]) {
      await p.locator(`tr#${A.id}`).getByRole("button", { name: mode }).click();
      await p.waitForLoadState();
      expect(new URL(p.url()).pathname).toBe("/machines");
      expect(await p.locator(`tr#${A.id}`).textContent()).toContain(`moving to ${mode} on its next beat`);
    }
    const history = (await api(cloud.url, "GET", `/v1/machines/${A.id}`, { token: adminToken })).body.modeHistory;
    expect(history.slice(-2).map((h: { to: string; by: string }) => `${h.to} ${h.by}`)).toEqual([
      "observe admin@acme.dev",
      "enforce admin@acme.dev",
    ]);
  });

  test("a viewer sees every page and is offered nothing; each form an admin has, sent as the viewer, is refused", async () => {
    const sql = new Bun.SQL(pg.url, { max: 1 });
    const snapshot = () => organizationState(sql);
    const forms: { action: string; fields: Record<string, string> }[] = [];
    for (const path of [...PAGES.map((p) => p.path), "/agents?name=claude-code", `/machines?id=${A.id}`]) {
      await admin.goto(`${cloud.url}${path}`);
      for (const f of await formsOf(await admin.content()))
        if (f.method === "post" && f.fields._action) {
          const named = f.buttons.filter((b) => b.name);
          for (const b of named.length > 0 ? named : [undefined])
            forms.push({ action: f.action, fields: { ...f.fields, ...(b ? { [b.name]: b.value } : {}) } });
        }
      await viewer.goto(`${cloud.url}${path}`);
      expect(await viewer.locator("h1").count()).toBe(1);
      const offered = (await formsOf(await viewer.content())).filter((f) => f.method === "post" && f.fields._action);
      expect(
        offered.map((f) => `${path} ${f.fields._action}`),
        "a viewer is offered nothing to press",
      ).toEqual([]);
    }
    await viewer.goto(`${cloud.url}/machines`);
    await shot(viewer, "machines-viewer");
    expect(forms.length).toBeGreaterThan(15);
    const before = await snapshot();
    // From the viewer's own page, with the viewer's own session and token: only the server stands in the way.
    const csrf = await viewer.locator('input[name="_csrf"]').first().inputValue();
    const results = await viewer.evaluate(
      async ({ all, csrf }) => {
        const out: { action: string; what: string; status: number; said: string }[] = [];
        for (const f of all) {
          const body = new URLSearchParams({ ...f.fields, _csrf: csrf });
          const r = await fetch(f.action, { method: "POST", body, redirect: "manual" });
          const text = await r.text();
          out.push({
            action: f.action,
            what: f.fields._action ?? "",
            status: r.status,
            said: text.match(/holds the viewer role/)?.[0] ?? text.slice(0, 200),
          });
        }
        return out;
      },
      { all: forms, csrf },
    );
    for (const r of results)
      expect(r, `${r.action} ${r.what}`).toMatchObject({ status: 403, said: "holds the viewer role" });
    expect(await snapshot()).toBe(before);
    await sql.close();
  });

  test("signing out ends the session on the server: the same cookie, replayed, is refused", async () => {
    const [cookie] = (await second.context().cookies(cloud.url)).filter((c) => c.name === "__Host-memnox-session");
    await second.goto(`${cloud.url}/`);
    const csrf = await second.locator('input[name="_csrf"]').first().inputValue();
    await second.locator(".avatar summary").click();
    await second.getByRole("button", { name: "Sign out" }).click();
    await second.waitForURL((u) => u.pathname === "/signin");
    expect(await second.locator("main").textContent()).toContain("The session was ended on the server");
    await shot(second, "signed-out");
    expect((await second.context().cookies(cloud.url)).some((c) => c.name === "__Host-memnox-session")).toBe(false);
    const replay = `__Host-memnox-session=${cookie?.value}`;
    const page = await fetch(`${cloud.url}/machines`, { headers: { cookie: replay }, redirect: "manual" });
    expect(page.status).toBe(303);
    expect(page.headers.get("location")).toStartWith("/signin");
    const act = await fetch(`${cloud.url}/machines`, {
      method: "POST",
      headers: { cookie: replay, "content-type": "application/x-www-form-urlencoded", origin: cloud.url },
      body: new URLSearchParams({ _csrf: csrf, _action: "mode", id: B.id, mode: "off" }).toString(),
      redirect: "manual",
    });
    expect(act.status).toBe(401);
    // The other server process shares the database, so it refuses the cookie too.
    const other = await fetch(`${selfService.url}/machines`, { headers: { cookie: replay }, redirect: "manual" });
    expect(other.status).toBe(303);
  });

  test("no page broke the content security policy or threw, htmx included", () => {
    expect(broken).toEqual([]);
  });
});
