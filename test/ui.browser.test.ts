// `memnox ui` from the compiled binary, in Debian's Chromium (playwright-core): a real git push through the
// interceptor waits on a hold in enforce, a person approves it on the page, and the waiting push goes through to the
// bare origin; a second one is denied and exits 126. The page is nothing without its token, answers only as itself on
// loopback, takes no form from elsewhere or without its CSRF token, and is refused from an agent's seat in enforce.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium, type Page } from "playwright-core";
import { openLedger } from "../src/ledger/store.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { CHROMIUM, CHROMIUM_ARGS } from "./support/chromium.ts";
import { compiledBinary, fakeHome, runBinary } from "./support/index.ts";
import { repoWithOrigin } from "./support/origin.ts";
import { whenChanged } from "./support/wait.ts";

const SHOTS = join(import.meta.dir, "..", ".cache", "screenshots", "ui");
const home = fakeHome();
const wired = repoWithOrigin();
const { repo, originHead } = wired;
const pending = join(home.memnoxHome, "pending");
let bin = "";
let child: ReturnType<typeof Bun.spawn> | undefined;
let browser: Browser | undefined;
let page: Page;
let url = "";
let port = 0;
const requests: string[] = [];

interface HoldFile {
  id: string;
  status: string;
  session?: string;
}

const holds = (): HoldFile[] =>
  existsSync(pending)
    ? readdirSync(pending)
        .filter((f) => f.endsWith(".json"))
        .map((f) => JSON.parse(readFileSync(join(pending, f), "utf8")) as HoldFile)
    : [];

function pushAs(session: string) {
  return Bun.spawn([join(home.memnoxHome, "bin", "git"), "push", "-q", "origin", "main"], {
    env: home.env({ MEMNOX_SESSION: session, PATH: `${join(home.memnoxHome, "bin")}:${process.env.PATH}` }),
    cwd: repo.path,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

function ledgerOps(): { operation: string; reason?: string; session?: string }[] {
  const ledger = openLedger(memnoxPaths(home.env()));
  try {
    return ledger.db.query("SELECT operation, reason, session FROM events ORDER BY seq").all() as {
      operation: string;
      reason?: string;
      session?: string;
    }[];
  } finally {
    ledger.close();
  }
}

const shot = (name: string) => page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });

beforeAll(async () => {
  if (!existsSync(CHROMIUM)) return;
  mkdirSync(SHOTS, { recursive: true });
  bin = await compiledBinary();
  mkdirSync(join(home.memnoxHome, "bin"), { recursive: true });
  symlinkSync(bin, join(home.memnoxHome, "bin", "git"));
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  writeFileSync(
    join(home.memnoxHome, "machine.policies.toml"),
    `version = 1
[[policies]]
name = "pushes-ask"
[policies.match]
actions = ["git.push"]
[policies.decision]
effect = "ask"
reason = "a push is seen by others"
`,
  );
  child = Bun.spawn([bin, "ui", "--json"], { env: home.env(), cwd: repo.path, stdout: "pipe", stderr: "pipe" });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let said = "";
  while (!said.includes("}")) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`memnox ui did not start: ${said}`);
    said += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  ({ url, port } = JSON.parse(said) as { url: string; port: number });
  browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  page = await browser.newPage({ viewport: { width: 1200, height: 900 } });
  page.on("request", (r) => requests.push(r.url()));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  child?.kill("SIGTERM");
  await child?.exited;
  home[Symbol.dispose]();
  wired[Symbol.dispose]();
});

describe.skipIf(!existsSync(CHROMIUM))("memnox ui in Chromium", () => {
  test("prints an address on loopback with a token, and the page is nothing without it", async () => {
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/t\/[A-Za-z0-9_-]{43}$/);
    const bare = await page.goto(`http://127.0.0.1:${port}/`);
    expect(bare?.status()).toBe(403);
    expect(await page.content()).not.toContain("Waiting for a person");
    const wrong = await page.goto(`http://127.0.0.1:${port}/t/${"x".repeat(43)}`);
    expect(wrong?.status()).toBe(403);
    // The CSS and the other views are behind the token too.
    for (const p of ["/ui.css", "/timeline", "/rules"])
      expect((await fetch(`http://127.0.0.1:${port}${p}`)).status).toBe(403);
    // Another name for this machine (DNS rebinding) is refused even with the token.
    const rebound = await fetch(url, { headers: { host: `attacker.example:${port}` }, redirect: "manual" });
    expect(rebound.status).toBe(421);
    // Nothing listens beyond loopback: the port is not open on another address of this machine.
    const lan = Bun.spawnSync(["sh", "-c", "hostname -I 2>/dev/null | awk '{print $1}'"]).stdout.toString().trim();
    if (lan && lan !== "127.0.0.1")
      await expect(fetch(`http://${lan}:${port}/`, { signal: AbortSignal.timeout(3000) })).rejects.toThrow();
  });

  test("a push held in enforce is approved on the page, and the waiting push goes through", async () => {
    repo.git("commit", "-q", "--allow-empty", "-m", "approved from the page");
    const push = pushAs("ses_ui_alpha");
    const hold = await whenChanged(pending, () =>
      holds().find((h) => h.status === "waiting" && h.session === "ses_ui_alpha"),
    );

    const opened = await page.goto(url);
    expect(opened?.status()).toBe(200);
    expect(page.url()).toBe(`http://127.0.0.1:${port}/`);
    const card = page.locator(`[data-hold="${hold.id}"]`);
    await expect(card.textContent()).resolves.toContain("git.push");
    expect(await card.textContent()).toContain("a push is seen by others");
    expect(await card.textContent()).toContain("ses_ui_alpha");
    const headers = (await page.request.get(`http://127.0.0.1:${port}/`)).headers();
    expect(headers["content-security-policy"]).toContain("script-src 'self'");
    expect(headers["content-security-policy"]).toContain("frame-ancestors 'none'");
    expect(await page.locator("script").count()).toBe(0);
    await shot("waiting");

    await card.getByRole("button", { name: "Approve once" }).click();
    await page.waitForURL(`http://127.0.0.1:${port}/`);
    expect(await page.locator(".flash").textContent()).toContain(`${hold.id} approved by`);
    expect(await page.locator(`[data-hold="${hold.id}"]`).count()).toBe(0);
    await shot("answered");

    expect(await push.exited).toBe(0);
    expect(originHead()).toBe(repo.git("rev-parse", "main").trim());
    // The same record as `memnox approve`: a memnox.approve row by the OS account, named to the held call's session.
    const row = ledgerOps().find((r) => r.operation === "memnox.approve");
    expect(row?.reason).toMatch(new RegExp(`^\\S+ approved ${hold.id} \\(git\\.push\\)$`));
    expect(row?.session).toBe("ses_ui_alpha");
  }, 60_000);

  test("a deny from the page refuses the waiting push (exit 126), and the timeline shows both", async () => {
    repo.git("commit", "-q", "--allow-empty", "-m", "denied from the page");
    const before = originHead();
    const push = pushAs("ses_ui_bravo");
    const hold = await whenChanged(pending, () =>
      holds().find((h) => h.status === "waiting" && h.session === "ses_ui_bravo"),
    );
    await page.goto(`http://127.0.0.1:${port}/`);
    await page.locator(`[data-hold="${hold.id}"]`).getByRole("button", { name: "Deny" }).click();
    await page.waitForURL(`http://127.0.0.1:${port}/`);
    expect(await page.locator(".flash").textContent()).toContain(`${hold.id} denied by`);
    expect(await push.exited).toBe(126);
    expect(originHead()).toBe(before);

    await page.click('nav a[href="/timeline"]');
    await page.waitForURL(/\/timeline$/);
    const timeline = (await page.locator("table.timeline").textContent()) ?? "";
    expect(timeline).toContain("git.push");
    expect(timeline).toContain("ses_ui_bravo");
    expect(timeline).toContain("memnox.deny");
    await shot("timeline");

    await page.click('nav a[href="/rules"]');
    await page.waitForURL(/\/rules$/);
    const rules = (await page.locator("table.rules").textContent()) ?? "";
    expect(rules).toContain("pushes-ask");
    expect(rules).toContain("a push is seen by others");
    await shot("rules");
    // Every request the page made stayed on this loopback address.
    expect(requests.every((r) => r.startsWith(`http://127.0.0.1:${port}/`))).toBe(true);
  }, 60_000);

  test("no form from another origin or without the page's CSRF token answers a hold", async () => {
    repo.git("commit", "-q", "--allow-empty", "-m", "forged answers");
    const push = pushAs("ses_ui_charlie");
    const hold = await whenChanged(pending, () =>
      holds().find((h) => h.status === "waiting" && h.session === "ses_ui_charlie"),
    );
    const cookies = await page.context().cookies(`http://127.0.0.1:${port}/`);
    const cookie = cookies.map((c) => `${c.name}=${c.value}`).join("; ");
    const csrf = await page
      .goto(`http://127.0.0.1:${port}/`)
      .then(() => page.locator(`[data-hold="${hold.id}"] input[name="_csrf"]`).first().getAttribute("value"));
    const post = (headers: Record<string, string>, body: string) =>
      fetch(`http://127.0.0.1:${port}/holds/${hold.id}/approve`, {
        method: "POST",
        redirect: "manual",
        headers: { "content-type": "application/x-www-form-urlencoded", ...headers },
        body,
      });
    const origin = `http://127.0.0.1:${port}`;
    // The page's cookie and CSRF token, but from another site.
    expect((await post({ cookie, origin: "http://attacker.example" }, `_csrf=${csrf}`)).status).toBe(403);
    // This origin, but without the form's token or with a wrong one.
    expect((await post({ cookie, origin }, "")).status).toBe(403);
    expect((await post({ cookie, origin }, "_csrf=forged")).status).toBe(403);
    // Everything but the cookie.
    expect((await post({ origin }, `_csrf=${csrf}`)).status).toBe(403);
    expect(holds().find((h) => h.id === hold.id)?.status).toBe("waiting");
    // The page's own form, from its own origin: that one counts (and lets the push finish).
    expect((await post({ cookie, origin }, `_csrf=${csrf}&scope=once`)).status).toBe(303);
    expect(await push.exited).toBe(0);
  }, 60_000);
});

describe("from an agent's seat", () => {
  test("in enforce, starting the page is refused and nothing listens", async () => {
    const r = await runBinary("memnox", ["ui", "--json"], {
      env: home.env({ CLAUDECODE: "1", MEMNOX_SESSION: "ses_agent" }),
      cwd: repo.path,
    });
    expect(r.code).not.toBe(0);
    expect(r.stdout + r.stderr).toContain("memnox ui");
    expect(r.stdout + r.stderr).toContain("agent's seat");
    expect(r.stdout).not.toContain("/t/");
  }, 30_000);
});
