// `memnox memory hook`: the push layer's contract, from the outside: what a harness reads on stdout, and what lands.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { estimateTokens } from "../../src/memory/recall/pack.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, testContext } from "../support/index.ts";
import { FIXTURES } from "./helpers.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
const HARNESS = join(FIXTURES, "harness");

let n = 0;
/** A fresh store per test, named by --dir so tests never see each other's pages. */
function store(): string[] {
  return ["--dir", home.join(`hook-store-${++n}`)];
}

async function cli(args: string[], opts: { stdin?: string; env?: Record<string, string> } = {}) {
  const { ctx, io } = testContext(home, {
    args,
    ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
    ...(opts.env ? { env: opts.env } : {}),
  });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function write(dir: string[], ...flags: string[]) {
  const r = await cli(["memory", ...dir, "write", ...flags, "--json"]);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as { slug: string; file_path: string };
}

describe("hook session-start and prompt", () => {
  test("the block opens with the three-line constitution, lists the hits, then the one-hop linked pages, and ends", async () => {
    const dir = store();
    const ruff = await write(
      dir,
      "--type",
      "preference",
      "--title",
      "Prefer ruff",
      "--body",
      "Lint with ruff, run [[pytest-runner]].",
      "--tags",
      "lint,python",
      "--importance",
      "0.8",
    );
    const pytest = await write(
      dir,
      "--type",
      "entity",
      "--title",
      "Pytest runner",
      "--body",
      "pytest -q",
      "--description",
      "Test command",
    );
    const r = await cli(["memory", ...dir, "hook", "session-start", "--query", "linting"]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines.slice(0, 6)).toEqual([
      "[memex] Memories below are yours — sessions end, these remain.",
      "[memex] Write durable facts; skip ephemera.",
      "[memex] Recall before assuming; trust what cites its source.",
      "=== memex MEMORY ===",
      '[Search: "linting"]',
      "---",
    ]);
    expect(lines[6]).toMatch(
      /^1\. Prefer ruff \(preference\) \| importance: 0\.8 \| updated: \d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/,
    );
    expect(lines.slice(7, 11)).toEqual([
      `   File: ${ruff.file_path}`,
      "   <mark>Lint</mark> with ruff, run [[pytest-runner]].",
      "   Tags: lint, python",
      "   Links: pytest-runner",
    ]);
    expect(lines.slice(11)).toEqual([
      "---",
      "+ Pytest runner (entity) | depth: 1 | via: prefer-ruff -mentions-> pytest-runner",
      `   File: ${pytest.file_path}`,
      "   Test command",
      "---",
      "=== END memex MEMORY ===",
    ]);
  });

  test("nothing matching, a match below the floor, an empty prompt: silence and exit 0", async () => {
    const dir = store();
    await write(dir, "--type", "preference", "--title", "Prefer ruff", "--body", "lint with ruff always");
    for (const args of [
      ["session-start", "--query", "quantum chromodynamics"],
      // OR finds `ruff` alone: one of five terms is below the floor.
      ["prompt", "--prompt", "ruff quantum chromodynamics lattice gauge"],
      ["session-start", "--query", "!!!"],
    ]) {
      const r = await cli(["memory", ...dir, "hook", ...args]);
      expect([r.code, r.out, r.err]).toEqual([0, "", ""]);
    }
    expect((await cli(["memory", ...dir, "hook", "prompt"], { stdin: "" })).out).toBe("");
    expect((await cli(["memory", ...dir, "hook", "prompt"], { stdin: "ruff always" })).out).toContain("Prefer ruff");
  });

  test("a prompt arrives as --prompt, raw stdin or a hook payload's prompt key", async () => {
    const dir = store();
    await write(dir, "--type", "preference", "--title", "Prefer ruff", "--body", "lint with ruff always");
    const payload = JSON.stringify({ session_id: "abc", prompt: "ruff preferences?", cwd: "/workspace" });
    for (const r of [
      await cli(["memory", ...dir, "hook", "prompt", "--prompt", "ruff preferences"]),
      await cli(["memory", ...dir, "hook", "prompt"], { stdin: "ruff preferences" }),
      await cli(["memory", ...dir, "hook", "prompt"], { stdin: payload }),
    ]) {
      expect(r.code).toBe(0);
      expect(r.out).toContain("1. Prefer ruff (preference)");
      expect(r.out.trimEnd().endsWith("=== END memex MEMORY ===")).toBe(true);
    }
  });

  test("a hook never creates a store that is not there, and says nothing", async () => {
    const dir = home.join("never-made");
    const r = await cli(["memory", "--dir", dir, "hook", "session-start", "--query", "anything"]);
    expect([r.code, r.out]).toEqual([0, ""]);
    expect(existsSync(dir)).toBe(false);
  });

  test("linked pages fill what the budget leaves, the direct hits are never trimmed, and the block names what it cut", async () => {
    const dir = store();
    await write(dir, "--type", "entity", "--title", "Seed", "--body", "seedword [[ay]] [[bee]] [[cee]] [[dee]]");
    for (const t of ["Ay", "Bee", "Cee", "Dee"])
      await write(dir, "--type", "entity", "--title", t, "--body", `${t} page`, "--description", "x".repeat(120));
    const full = JSON.parse(
      (await cli(["memory", ...dir, "hook", "session-start", "--query", "seedword", "--json"])).out,
    );
    expect(full.linked.map((l: { slug: string }) => l.slug)).toEqual(["ay", "bee", "cee", "dee"]);
    expect(full.linked_omitted).toBe(0);
    // What a hit shows (its snippet's len/4+1) and each entry's lines count against the same 4,096-token bound.
    const seedCost = estimateTokens(full.hits[0].snippet);
    const entries = full.linked.map((l: { lines: string[] }) => estimateTokens(l.lines.join("\n")));
    expect(full.tokens_used).toBe(seedCost + entries.reduce((a: number, b: number) => a + b, 0));
    const budget =
      seedCost + entries[0] + entries[1] + estimateTokens("[memex] linked pages omitted (token budget): 2");
    const cut = await cli([
      "memory",
      ...dir,
      "hook",
      "session-start",
      "--query",
      "seedword",
      "--max-tokens",
      String(budget),
    ]);
    const lines = cut.out.trimEnd().split("\n");
    expect(lines.filter((l) => l.startsWith("+ ")).map((l) => l.split(" (")[0])).toEqual(["+ Ay", "+ Bee"]);
    expect(lines.slice(-2)).toEqual(["[memex] linked pages omitted (token budget): 2", "=== END memex MEMORY ==="]);
    const tiny = await cli(["memory", ...dir, "hook", "session-start", "--query", "seedword", "--max-tokens", "1"]);
    expect(tiny.out).toContain("1. Seed (entity)");
    expect(tiny.out).toContain("[memex] linked pages omitted (token budget): 4");
  });

  test("pages recall would hide are never listed as linked: pending, archived, expired or another project's", async () => {
    const dir = store();
    await write(
      dir,
      "--type",
      "entity",
      "--title",
      "Seed",
      "--body",
      "seedword [[shown]] [[archived]] [[expired]] [[theirs]]",
    );
    await write(dir, "--type", "entity", "--title", "Shown", "--body", "here");
    await write(dir, "--type", "entity", "--title", "Archived", "--body", "gone");
    await write(dir, "--type", "entity", "--title", "Expired", "--body", "old");
    expect((await cli(["memory", ...dir, "forget", "expired", "--mode", "soft"])).code).toBe(0);
    await write(
      dir,
      "--type",
      "entity",
      "--title",
      "Theirs",
      "--body",
      "elsewhere",
      "--scope",
      "project",
      "--project-id",
      "cccccccccccccccccccccccc",
    );
    expect((await cli(["memory", ...dir, "forget", "archived", "--mode", "archive"])).code).toBe(0);
    const r = JSON.parse((await cli(["memory", ...dir, "hook", "session-start", "--query", "seedword", "--json"])).out);
    expect(r.linked.map((l: { slug: string }) => l.slug)).toEqual(["shown"]);
  });

  test("only what is injected counts as recall access; silence counts nothing", async () => {
    const dir = store();
    await write(dir, "--type", "preference", "--title", "Prefer ruff", "--body", "lint with ruff always");
    await cli(["memory", ...dir, "hook", "prompt", "--prompt", "ruff quantum chromodynamics lattice gauge"]);
    await cli(["memory", ...dir, "hook", "prompt", "--prompt", "ruff always"]);
    const hits = JSON.parse((await cli(["memory", ...dir, "recall", "ruff", "--json"])).out).hits;
    expect(hits[0].last_access).not.toBeNull();
    const info = JSON.parse((await cli(["memory", ...dir, "verify", "--since", "2026-11-30T00:00:00Z", "--json"])).out);
    expect(info.recall_evidence).toBe(true);
  });
});

describe("hook transcript", () => {
  test("a Claude Code session becomes a transcript and an episode; a second capture duplicates nothing", async () => {
    const dir = store();
    const args = [
      "memory",
      ...dir,
      "hook",
      "transcript",
      "--harness",
      "claude",
      "--path",
      join(HARNESS, "claude.jsonl"),
    ];
    const r = await cli(args);
    expect(r.code).toBe(0);
    const report = JSON.parse(r.out);
    expect(report).toMatchObject({
      session_id: "b1c2d3e4-0000-4000-8000-00000000a11e",
      harness: "claude",
      turn_count: 5,
    });
    const stored = readFileSync(report.transcript_file, "utf8")
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));
    expect(stored[0]).toMatchObject({
      type: "memex_session_header",
      harness: "claude",
      started_at: "2026-10-02T09:00:00Z",
    });
    expect(stored.slice(1).map((t: { role: string }) => t.role)).toEqual(["user", "agent", "tool", "tool", "agent"]);
    expect(JSON.stringify(stored)).not.toContain("sidechain");
    const meta = JSON.parse(readFileSync(report.transcript_file.replace(/\.jsonl$/, ".meta.json"), "utf8"));
    expect(meta.token_usage).toEqual({ input_tokens: 200, output_tokens: 40 });
    expect((await cli(args)).code).toBe(0);
    const episodes = readdirSync(join(dir[1] ?? "", "docs/global/episodes")).filter(
      (f) => f.endsWith(".md") && f !== "index.md",
    );
    expect(episodes).toEqual(["b1c2d3e4-0000-4000-8000-00000000a11e.md"]);
    expect(readFileSync(report.transcript_file, "utf8").trim().split("\n")).toHaveLength(6);
  });

  test("Codex rollouts and pi sessions are read in their own shapes", async () => {
    const dir = store();
    const codex = JSON.parse(
      (
        await cli([
          "memory",
          ...dir,
          "hook",
          "transcript",
          "--harness",
          "codex",
          "--path",
          join(HARNESS, "codex.jsonl"),
        ])
      ).out,
    );
    expect(codex).toMatchObject({ session_id: "0199a1b2-c3d4-7e5f-8a9b-c0d1e2f3a4b5", turn_count: 4 });
    const pi = JSON.parse(
      (await cli(["memory", ...dir, "hook", "transcript", "--harness", "pi", "--path", join(HARNESS, "pi.jsonl")])).out,
    );
    expect(pi).toMatchObject({ session_id: "pi-7f3a", turn_count: 4, harness: "pi" });
    const turns = readFileSync(pi.transcript_file, "utf8")
      .trim()
      .split("\n")
      .slice(1)
      .map((l) => JSON.parse(l));
    expect(turns[3]).toMatchObject({
      role: "tool",
      tool_name: "bash",
      query: "uv run ruff check .",
      result: "All checks passed",
    });
    const sessions = JSON.parse((await cli(["memory", ...dir, "sessions", "--json"])).out);
    expect(sessions.map((s: { session_id: string; harness: string }) => [s.session_id, s.harness])).toEqual([
      ["pi-7f3a", "pi"],
      ["0199a1b2-c3d4-7e5f-8a9b-c0d1e2f3a4b5", "codex"],
    ]);
  });

  test("the path may arrive as transcript_path in the hook's stdin payload; status shows the last capture per harness", async () => {
    const dir = store();
    const payload = JSON.stringify({
      session_id: "x",
      transcript_path: join(HARNESS, "claude.jsonl"),
      hook_event_name: "SessionEnd",
    });
    expect((await cli(["memory", ...dir, "hook", "transcript", "--harness", "claude"], { stdin: payload })).code).toBe(
      0,
    );
    await cli(["memory", ...dir, "hook", "transcript", "--harness", "pi", "--path", join(HARNESS, "pi.jsonl")]);
    const status = JSON.parse((await cli(["memory", ...dir, "status", "--json"])).out);
    expect(Object.keys(status.last_capture).sort()).toEqual(["claude", "pi"]);
    const human = (await cli(["memory", ...dir, "status"])).out;
    expect(human).toMatch(/^last capture \(claude\): \d{4}-/m);
  });

  test("a missing file or path fails with the reason; --no-overwrite leaves a captured session alone, quietly", async () => {
    const dir = store();
    const missing = await cli([
      "memory",
      ...dir,
      "hook",
      "transcript",
      "--harness",
      "pi",
      "--path",
      "/nonexistent/session.jsonl",
    ]);
    expect([missing.code, missing.err]).toEqual([1, "memnox: transcript not found: /nonexistent/session.jsonl\n"]);
    const none = await cli(["memory", ...dir, "hook", "transcript", "--harness", "pi"], { stdin: "{}" });
    expect([none.code, none.err]).toEqual([1, "memnox: no transcript path given or found on stdin\n"]);
    const args = ["memory", ...dir, "hook", "transcript", "--harness", "codex", "--path", join(HARNESS, "codex.jsonl")];
    await cli(args);
    const again = await cli([...args, "--no-overwrite"]);
    expect([again.code, again.err]).toEqual([
      0,
      "memnox: transcript already ingested: 0199a1b2-c3d4-7e5f-8a9b-c0d1e2f3a4b5\n",
    ]);
  });

  test("--consolidate without a model reports why in the result and never fails the hook", async () => {
    const dir = store();
    const file = home.join("session.jsonl");
    writeFileSync(file, readFileSync(join(HARNESS, "pi.jsonl")));
    const r = await cli(["memory", ...dir, "hook", "transcript", "--harness", "pi", "--path", file, "--consolidate"]);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out).consolidation).toEqual({
      requested: true,
      error: "llm.api_key is required (set MEMEX_API_KEY or [llm].api_key)",
    });
    const auto = await cli(["memory", ...dir, "hook", "transcript", "--harness", "pi", "--path", file], {
      env: { MEMEX_AUTO_CONSOLIDATE: "1" },
    });
    expect(JSON.parse(auto.out).consolidation.requested).toBe(true);
  });
});
