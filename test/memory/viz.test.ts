// The dashboard's routes over a real HTTP server on loopback: what each view shows, what it refuses, and that no
// request changes a byte of the store.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { openStore, type Store } from "../../src/memory/pages/store.ts";
import { serveViz, type Viz } from "../../src/memory/viz/server.ts";
import { tempDir } from "../support/index.ts";
import { T0 } from "./helpers.ts";
import { seedViz, treeSnapshot } from "./viz-seed.ts";

const dir = tempDir("memnox-viz");
const outside = tempDir("memnox-viz-outside");
const clock = T0;
let reader: Store;
let viz: Viz;

beforeAll(() => {
  seedViz(dir.path, outside.path);
  reader = openStore({ dir: dir.path, now: () => clock, readonly: true });
  viz = serveViz(reader, { port: 0 });
});

afterAll(async () => {
  await viz.stop();
  reader.close();
  dir[Symbol.dispose]();
  outside[Symbol.dispose]();
});

async function get(path: string, headers: Record<string, string> = {}): Promise<[number, string]> {
  const r = await fetch(new URL(path, viz.url), { headers });
  return [r.status, await r.text()];
}
const frag = (path: string) => get(path, { "hx-request": "true", "hx-target": "main" });

const snapshot = () => treeSnapshot(dir.path);

describe("viz: the shell and direct views", () => {
  test("the shell serves htmx and the stylesheet from the binary, and links every view", async () => {
    const [code, body] = await get("/");
    expect(code).toBe(200);
    expect(body).toContain('src="/htmx.js"');
    expect(body).toContain('href="/style.css"');
    for (const v of ["memories", "search", "sessions", "tokens", "health"]) expect(body).toContain(`href="/view/${v}"`);
    const [, js] = await get("/htmx.js");
    expect(js.length).toBeGreaterThan(10_000);
    expect(js).toContain("htmx");
    expect(body).not.toMatch(/https?:\/\/(?!127\.0\.0\.1)/);
  });

  test.each([
    ["/view/memories?page=2&type=entity", "Page 2 of 2"],
    ["/view/search?q=alpha", "Alpha entity"],
    ["/view/sessions", "2026-09-16"],
    ["/view/tokens", "1,234"],
    ["/view/page/alpha-entity", "alpha search content"],
    ["/view/page/project-alpha?project=0123456789abcdef01234567", "alpha project search content"],
    ["/view/session/sess-viz", "fix the login bug"],
    ["/view/health", "pending"],
  ])("%s renders whole, without htmx", async (route, expected) => {
    const [code, body] = await get(route);
    expect(code).toBe(200);
    expect(body).toContain('<main id="main">');
    expect(body).toContain(expected);
  });

  test("an unknown route is a Not found page", async () => {
    const [code, body] = await get("/definitely-not-a-route");
    expect([code, body.includes("Not found")]).toEqual([200, true]);
  });
});

describe("viz: memories", () => {
  test("20 newest-first cards a page; Previous/Next keep type and scope; changing either starts on page one", async () => {
    const [, first] = await frag("/pages?scope=global&page=1");
    const [, second] = await frag("/pages?scope=global&page=2");
    expect(first.match(/class="card"/g)).toHaveLength(20);
    const titles = (b: string) => new Set(b.match(/Paginated memory \d\d/g));
    expect([...titles(first)].filter((t) => titles(second).has(t))).toEqual([]);
    // Newest first: the last written is on top.
    expect(first.indexOf("Gamma pending")).toBeLessThan(first.indexOf("Beta pref"));
    const [, typed] = await frag("/pages?type=entity&page=1");
    expect(typed).toContain("Page 1 of 2");
    expect(typed).toContain('href="/view/memories?type=entity&amp;page=2"');
    const [, page2] = await frag("/pages?type=entity&page=2&scope=global");
    expect(page2).toContain('href="/view/memories?type=entity&amp;scope=project&amp;project=0123456789abcdef01234567"');
    expect(page2).not.toContain("project=0123456789abcdef01234567&amp;page=2");
    expect(page2).toContain('href="/view/memories?scope=global"');
  });

  test("type, Global only and a project label filter; a page number out of range is clamped", async () => {
    const [, prefs] = await frag("/pages?type=preference");
    expect([prefs.includes("Beta pref"), prefs.includes("Alpha entity")]).toEqual([true, false]);
    const [, shop] = await frag("/pages?scope=project&project=0123456789abcdef01234567");
    expect(shop).toContain("Project alpha");
    expect(shop).not.toContain("Alpha entity");
    expect(shop).not.toContain("file:");
    const [, global] = await frag("/pages?scope=global&page=2");
    expect(global).not.toContain("Project alpha");
    expect((await frag("/pages?page=oops"))[1]).toContain("Page 1 of");
    expect((await frag("/pages?page=999"))[1]).toContain("Page 2 of 2");
    expect((await frag("/pages"))[1]).toContain("pending");
  });

  test.each([
    ["/pages?type=unrecognized", "Unknown memory type"],
    ["/pages?scope=unrecognized", "Unknown memory scope"],
    ["/pages?scope=project&project=missing", "Unknown project scope"],
    ["/pages?type=summary", "No memories match this selection"],
  ])("%s says %s", async (route, message) => {
    expect((await frag(route))[1]).toContain(message);
  });
});

describe("viz: search", () => {
  test("Best match prefers the chosen project and falls back to all memory; Search everywhere searches all", async () => {
    const [, best] = await frag("/search?q=alpha&scope=best&project=0123456789abcdef01234567");
    expect(best).toContain("Project alpha");
    expect(best).not.toContain("Alpha entity");
    const [, fallback] = await frag("/search?q=beta&scope=best&project=0123456789abcdef01234567");
    expect(fallback).toContain("Beta pref");
    expect(fallback).toContain("showing matches from all memory");
    const [, everywhere] = await frag("/search?q=alpha&scope=all&project=0123456789abcdef01234567");
    expect([everywhere.includes("Project alpha"), everywhere.includes("Alpha entity")]).toEqual([true, true]);
    const [, only] = await get("/search?q=alpha&scope=best&project=0123456789abcdef01234567", {
      "hx-request": "true",
      "hx-target": "search-results",
    });
    expect(only).not.toContain("<form");
    expect(only).toContain("<mark>alpha</mark>");
  });

  test("searching never counts as recall: no access counter moves", async () => {
    const before = reader.index().get("global", "", "alpha-entity")?.access_count;
    await frag("/search?q=alpha&scope=all");
    await get("/view/search?q=alpha");
    expect(reader.index().get("global", "", "alpha-entity")?.access_count).toBe(before);
    expect(before).toBe(0);
  });

  test.each([
    ["/search?q=", "Enter a search term"],
    ["/search?q=alpha&scope=project", "Choose a project"],
    ["/search?q=alpha&scope=best&project=missing", "Unknown project scope"],
    ["/search?q=alpha&scope=invalid", "Unknown search scope"],
    ["/search?q=nonexistent", "No memories match"],
  ])("%s says %s", async (route, message) => {
    expect((await get(route, { "hx-request": "true", "hx-target": "search-results" }))[1]).toContain(message);
  });
});

describe("viz: sessions, replay and tokens", () => {
  test("sessions group by date (newest first), then project label when known, then harness", async () => {
    const [, body] = await frag("/sessions");
    expect(body).toContain('class="session-day"');
    expect(body).toContain('class="session-card"');
    expect(body.indexOf("2026-09-16")).toBeLessThan(body.indexOf("2026-09-15"));
    expect(body).toContain("shop · claude");
    expect(body).toContain("Global or unscoped · codex");
    expect(body).not.toContain("sess-outside");
  });

  test("a replay shows User, AI assistant and Tool cards, escaped, with bounded previews and a truncation notice", async () => {
    const [, body] = await frag("/session/sess-older");
    for (const who of ["User", "AI assistant", "Tool · read"]) expect(body).toContain(who);
    expect(body).toContain("&lt;script&gt;alert(1)&lt;/script&gt;");
    expect(body).not.toContain("<script>");
    expect(body).not.toContain("<img");
    expect(body).not.toContain("<svg onload");
    expect(body).toContain("<strong>A useful answer</strong>");
    expect(body).toContain("<summary>Show more result</summary>");
    expect(body).toContain("Truncated after 2,000 characters");
    const [, viz2] = await frag("/session/sess-viz");
    expect(viz2).toContain("3 turns");
    expect(viz2).toContain("codex");
    expect(viz2).toContain("def login(): ...");
  });

  test("a missing, path-like or symlinked session is not found, and nothing outside the store is read", async () => {
    for (const id of ["no-such-session", "%2E%2E%2Fsecret", "sess-outside"]) {
      const [code, body] = await frag(`/session/${id}`);
      expect([code, body.includes("Session not found")]).toEqual([200, true]);
      expect(body).not.toContain("outside secret");
    }
  });

  test("token use is an SVG chart of what harnesses reported; an unusable total is left out, not drawn", async () => {
    const bad = join(dir.path, "transcripts/2026-09-16");
    for (const [name, raw] of [
      ["nan", "NaN"],
      ["neg", "-1"],
      ["bool", "true"],
      ["huge", "1000000000001"],
    ]) {
      writeFileSync(join(bad, `bad-${name}.jsonl`), '{"role":"user","content":"x","turn":1}\n');
      writeFileSync(
        join(bad, `bad-${name}.meta.json`),
        `{"session_id":"bad-${name}","token_usage":{"total_tokens":${raw}}}`,
      );
    }
    const [code, body] = await frag("/tokens");
    expect(code).toBe(200);
    expect(body).toContain("<svg");
    expect(body).toContain("<rect");
    expect(body).toContain("1,234");
    expect(body).not.toContain("bad-");
  });
});

describe("viz: pages", () => {
  test("a page renders its Markdown; a pending one says so; a project page needs its project", async () => {
    expect((await frag("/page/alpha-entity"))[1]).toContain("alpha search content");
    const [, pending] = await frag("/page/gamma-pending");
    expect(pending).toContain("pending");
    expect((await frag("/page/project-alpha"))[1]).toContain("Page not found");
    expect((await frag("/page/project-alpha?project=0123456789abcdef01234567"))[1]).toContain(
      "alpha project search content",
    );
    expect((await frag("/page/..%2F..%2Fetc"))[1]).toContain("Page not found");
  });
});

describe("viz: read-only on loopback", () => {
  test("POST, PUT and DELETE are refused, and no request of any kind changes the store", async () => {
    const before = snapshot();
    for (const method of ["POST", "PUT", "DELETE", "PATCH"]) {
      const r = await fetch(new URL("/pages?type=entity", viz.url), { method, body: "title=x" });
      expect(r.status).toBe(405);
      expect(r.headers.get("allow")).toBe("GET, HEAD");
    }
    for (const route of [
      "/",
      "/overview",
      "/pages?page=2",
      "/search?q=alpha",
      "/sessions",
      "/session/sess-viz",
      "/tokens",
      "/health",
      "/view/memories?type=entity&page=2",
      "/view/page/project-alpha?project=0123456789abcdef01234567",
      "/session/no-such-session",
    ])
      expect((await get(route))[0]).toBe(200);
    expect(snapshot()).toEqual(before);
  });

  test("it listens on loopback only and answers only to its own Host (no DNS rebinding)", async () => {
    expect(viz.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
    const r = await fetch(viz.url, { headers: { host: "attacker.example" } });
    expect(r.status).toBe(403);
    expect(() => serveViz(reader, { port: 0, host: "0.0.0.0" })).toThrow(/loopback only/);
    const csp = (await fetch(viz.url)).headers.get("content-security-policy") ?? "";
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
  });
});
