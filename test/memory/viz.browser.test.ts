// `memnox memory viz` from the compiled binary, clicked through in Debian's Chromium (playwright-core): every view,
// htmx's partial swaps and pushed URLs, paging that keeps its filters, search that counts no access, the session
// replay's expandable previews; no request leaves loopback, writes are refused and the store is unchanged.
// Screenshots stay in .cache/screenshots/ (gitignored) after the run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";
import { type BrowserContext, chromium, type Page } from "playwright-core";
import { openStore } from "../../src/memory/pages/store.ts";
import { CHROMIUM, CHROMIUM_ARGS } from "../support/chromium.ts";
import { compiledBinary, fakeHome, tempDir } from "../support/index.ts";
import { T0 } from "./helpers.ts";
import { seedViz, treeSnapshot } from "./viz-seed.ts";

const SHOTS = join(import.meta.dir, "..", "..", ".cache", "screenshots");
const home = fakeHome();
const store = tempDir("memnox-viz-browser");
const outside = tempDir("memnox-viz-browser-outside");
const profile = tempDir("memnox-chromium-profile");
let child: ReturnType<typeof Bun.spawn> | undefined;
let browser: BrowserContext | undefined;
let page: Page;
let base = "";
const requests: string[] = [];

const snapshot = () => treeSnapshot(store.path);
let before: Record<string, string> = {};

async function shot(name: string): Promise<void> {
  await page.screenshot({ path: join(SHOTS, `viz-${name}.png`), fullPage: true });
}

/** Clicks a link and waits for htmx to swap #main and push the address: the partial, not a page load. */
async function follow(selector: string, url: RegExp): Promise<void> {
  await page.click(selector);
  await page.waitForURL(url);
  await page.waitForLoadState("networkidle");
}

beforeAll(async () => {
  // Without Debian's chromium (`.ci/run` installs it) the describe below is skipped, and so is this.
  if (!existsSync(CHROMIUM)) return;
  mkdirSync(SHOTS, { recursive: true });
  seedViz(store.path, outside.path);
  const bin = await compiledBinary();
  child = Bun.spawn([bin, "memory", "viz", "--port", "0"], {
    env: home.env({ MEMNOX_MEMORY_DIR: store.path }),
    cwd: home.home,
    stdout: "pipe",
    stderr: "pipe",
  });
  const reader = (child.stdout as ReadableStream<Uint8Array>).getReader();
  let said = "";
  while (!/http:\/\/127\.0\.0\.1:\d+\//.test(said)) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`viz did not start: ${said}`);
    said += new TextDecoder().decode(value);
  }
  reader.releaseLock();
  base = said.match(/http:\/\/127\.0\.0\.1:\d+\//)?.[0] ?? "";
  before = snapshot();
  browser = await chromium.launchPersistentContext(profile.path, {
    executablePath: CHROMIUM,
    headless: true,
    viewport: { width: 1280, height: 900 },
    args: [...CHROMIUM_ARGS],
  });
  page = browser.pages()[0] ?? (await browser.newPage());
  page.on("request", (r) => requests.push(r.url()));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  child?.kill("SIGTERM");
  await child?.exited;
  home[Symbol.dispose]();
  store[Symbol.dispose]();
  outside[Symbol.dispose]();
  profile[Symbol.dispose]();
});

describe.skipIf(!existsSync(CHROMIUM))("memnox memory viz in Chromium", () => {
  test("the overview shows counts, search and recent memories, with htmx loaded from the binary", async () => {
    await page.goto(base);
    await page.waitForLoadState("networkidle");
    expect(await page.evaluate("typeof window.htmx")).toBe("object");
    expect(await page.textContent(".stats")).toContain("Memory pages");
    // 25 pages written and the two sessions' episodes.
    expect(await page.locator(".stat b").first().textContent()).toBe("27");
    await shot("overview");
  });

  test("Memories: 20 newest first; the type filter and Previous/Next keep each other; a new scope starts on page 1", async () => {
    await follow('nav a[href="/view/memories"]', /\/view\/memories$/);
    expect(await page.locator("article.card").count()).toBe(20);
    await shot("memories");
    await follow('.filters a[href="/view/memories?type=entity"]', /type=entity$/);
    expect(await page.textContent(".pager")).toContain("Page 1 of 2");
    await follow('.pager a:has-text("Next")', /\/view\/memories\?type=entity&page=2$/);
    expect(await page.textContent(".pager")).toContain("Page 2 of 2");
    await shot("memories-entity-page-2");
    await follow('.filters a:has-text("Global only")', /\/view\/memories\?type=entity&scope=global$/);
    expect(await page.textContent(".pager")).toContain("Page 1 of 2");
    await follow('.filters a:has-text("shop")', /type=entity&scope=project&project=0123456789abcdef01234567$/);
    expect(await page.locator("article.card h3").allTextContents()).toEqual(["Project alpha"]);
    await shot("memories-project");
    // The pushed URL is a real address: reloading it renders the same view whole.
    await page.reload();
    expect(await page.locator("article.card h3").allTextContents()).toEqual(["Project alpha"]);
  });

  test("a card opens its page, rendered from Markdown, with its links", async () => {
    await page.goto(`${base}view/memories?type=preference`);
    await follow('article.card a:has-text("Beta pref")', /\/view\/page\/beta-pref$/);
    expect(await page.textContent(".page-body")).toContain("beta preference body");
    expect(await page.locator('.page-body a[href="/view/page/alpha-entity"]').count()).toBe(1);
    await shot("page");
  });

  test("Search: Best match stays in the chosen project, falls back to all memory; Search everywhere searches all", async () => {
    await follow('nav a[href="/view/search"]', /\/view\/search$/);
    await page.fill('input[name="q"]', "alpha");
    await page.selectOption('select[name="project"]', "0123456789abcdef01234567");
    await page.click('button:has-text("Best match")');
    await page.waitForSelector("#search-results article.card");
    expect(await page.locator("#search-results article.card h3").allTextContents()).toEqual(["Project alpha"]);
    await shot("search-best-match");
    await page.click('button:has-text("Search everywhere")');
    // The page's CSP refuses string evaluation, so the wait is a locator, not a function.
    await page.locator("#search-results article.card").nth(2).waitFor();
    // Beta pref links [[alpha-entity]] in its body, so it matches too.
    expect((await page.locator("#search-results article.card h3").allTextContents()).sort()).toEqual([
      "Alpha entity",
      "Beta pref",
      "Project alpha",
    ]);
    await shot("search-everywhere");
    await page.fill('input[name="q"]', "beta");
    await page.click('button:has-text("Best match")');
    await page.waitForSelector('#search-results .notice:has-text("showing matches from all memory")');
    expect(await page.locator("#search-results article.card h3").allTextContents()).toEqual(["Beta pref"]);
  });

  test("Health and Token use", async () => {
    await follow('nav a[href="/view/health"]', /\/view\/health$/);
    expect(await page.textContent("main")).toContain("index-fresh");
    await shot("health");
    await follow('nav a[href="/view/tokens"]', /\/view\/tokens$/);
    expect(await page.locator("svg.chart rect").count()).toBe(2);
    expect(await page.textContent("main")).toContain("1,234");
    await shot("tokens");
  });

  test("Sessions group by date, project and harness; a replay's long tool output opens on request", async () => {
    await follow('nav a[href="/view/sessions"]', /\/view\/sessions$/);
    const days = await page.locator(".session-day h2").allTextContents();
    expect(days).toEqual(["2026-09-16", "2026-09-15"]);
    expect(await page.locator(".session-group h4").allTextContents()).toEqual([
      "Global or unscoped · codex",
      "shop · claude",
    ]);
    await shot("sessions");
    await follow('a:has-text("sess-older")', /\/view\/session\/sess-older$/);
    // The swap moved the nav's mark with it, and the title.
    expect(await page.locator('nav a[aria-current="page"]').allTextContents()).toEqual(["Sessions"]);
    expect(await page.title()).toBe("Session · memnox memory");
    expect(await page.locator("article.turn header span:first-child").allTextContents()).toEqual([
      "User",
      "AI assistant",
      "Tool · read",
    ]);
    const details = page.locator("details").last();
    expect(await details.getAttribute("open")).toBeNull();
    await page.click('summary:has-text("Show more result")');
    expect(await details.getAttribute("open")).toBe("");
    expect(await page.textContent("main")).toContain("Truncated after 2,000 characters");
    // The hostile text stayed text: no script ran, no image tag was made.
    expect(await page.locator("main img").count()).toBe(0);
    expect(await page.locator('article.turn.user p:has-text("<script>alert(1)</script>")').count()).toBe(1);
    await shot("session-replay");
  });

  test("writes are refused, nothing left loopback, and the store is byte for byte what it was", async () => {
    const statuses = await page.evaluate(async () => {
      const out: number[] = [];
      for (const method of ["POST", "PUT", "DELETE"]) out.push((await fetch("/pages", { method, body: "x" })).status);
      return out;
    });
    expect(statuses).toEqual([405, 405, 405]);
    expect(requests.length).toBeGreaterThan(10);
    expect(requests.filter((u) => !u.startsWith(base))).toEqual([]);
    expect(snapshot()).toEqual(before);
    const s = openStore({ dir: store.path, now: () => T0, readonly: true });
    try {
      expect(
        s
          .index()
          .all()
          .every((r) => r.access_count === 0),
      ).toBe(true);
    } finally {
      s.close();
    }
  });
});
