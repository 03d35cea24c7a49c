import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { consolidate } from "../../src/memory/consolidate.ts";
import { ingestTranscript, provenance } from "../../src/memory/pages/transcripts.ts";
import { verify } from "../../src/memory/pages/verify.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { tempDir } from "../support/index.ts";
import { memStore } from "./helpers.ts";

interface Seen {
  readonly auth: string | null;
  readonly body: { model: string; messages: { role: string; content: string }[] };
}

let answer = "";
const seen: Seen[] = [];
// A scripted OpenAI-compatible endpoint on loopback: records each request, returns `answer`.
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  async fetch(req) {
    seen.push({ auth: req.headers.get("authorization"), body: (await req.json()) as Seen["body"] });
    return Response.json({
      choices: [{ message: { content: answer } }],
      usage: { prompt_tokens: 42, completion_tokens: 7 },
    });
  },
});
afterAll(() => server.stop(true));

const env = {
  MEMNOX_MEMORY_LLM_BASE_URL: `http://127.0.0.1:${server.port}/v1`,
  MEMNOX_MEMORY_LLM_MODEL: "small",
  MEMNOX_MEMORY_LLM_API_KEY: "k-test",
};
const TURNS = '{"role":"user","content":"We always pin ruff to 0.6 in CI.","turn":1}';
const NODES = JSON.stringify({
  nodes: [
    {
      type: "procedure",
      title: "Pin ruff in CI",
      body: "Pin ruff to 0.6.",
      description: "When editing CI linting.",
      tags: ["ci"],
    },
    { type: "summary", title: "Lint week", body: "Ruff pinned." },
  ],
});

describe("consolidate", () => {
  test("with no key for the default provider it says so in memex's words and calls nothing", async () => {
    using m = memStore();
    ingestTranscript(m.store, { sessionId: "s1", jsonl: TURNS, source: "t" });
    const before = seen.length;
    await expect(consolidate(m.store, { mode: "full", maxEpisodes: 10 })).rejects.toThrow(
      "llm.api_key is required (set MEMEX_API_KEY or [llm].api_key)",
    );
    expect(seen.length).toBe(before);
  });

  test("dry-run proposes and writes nothing; full writes knowledge pending, summaries active, and links episodes to them", async () => {
    using m = memStore({}, env);
    ingestTranscript(m.store, { sessionId: "s1", jsonl: TURNS, source: "t" });
    answer = NODES;
    const dry = await consolidate(m.store, { mode: "dry-run", maxEpisodes: 10 });
    expect(dry).toMatchObject({ dry_run: true, episodes_processed: 1, llm_calls: 1, llm_prompt_tokens: 42 });
    expect(dry.nodes_created.map((n) => n.title)).toEqual(["Pin ruff in CI", "Lint week"]);
    expect(existsSync(`${m.dir.path}/docs/global/procedures/pin-ruff-in-ci.md`)).toBe(false);
    const last = seen.at(-1);
    expect(last?.auth).toBe("Bearer k-test");
    expect(last?.body.model).toBe("small");
    expect(last?.body.messages[1]?.content).toContain("pin ruff to 0.6");

    const full = await consolidate(m.store, { mode: "full", maxEpisodes: 10 });
    expect(full.nodes_created.map((n) => [n.slug, n.status])).toEqual([
      ["pin-ruff-in-ci", "pending"],
      ["lint-week", "active"],
    ]);
    const hits = recall(m.store, { query: "ruff pinned" }).hits.map((h) => h.slug);
    expect(hits).toContain("lint-week");
    expect(hits).not.toContain("pin-ruff-in-ci");
    expect(provenance(m.store, "pin-ruff-in-ci").confidence).toBe("inferred");
    const again = await consolidate(m.store, { mode: "full", maxEpisodes: 10 });
    expect(again.episodes_processed).toBe(0);
    expect(readFileSync(m.store.layout.runsLog, "utf8").trim().split("\n")).toHaveLength(2);
  });

  test("an answer outside the schema is refused and nothing is written; three empty runs warn in verify", async () => {
    using m = memStore({}, env);
    ingestTranscript(m.store, { sessionId: "s1", jsonl: TURNS, source: "t" });
    answer = JSON.stringify({ nodes: [{ type: "decision", title: "x", body: "y" }] });
    await expect(consolidate(m.store, { mode: "full", maxEpisodes: 10 })).rejects.toThrow(
      /did not fit the page schema/,
    );
    answer = "not json";
    await expect(consolidate(m.store, { mode: "full", maxEpisodes: 10 })).rejects.toThrow(/not JSON/);
    answer = '{"nodes": []}';
    for (let i = 0; i < 3; i++) {
      ingestTranscript(m.store, { sessionId: `e${i}`, jsonl: TURNS, source: "t" });
      await consolidate(m.store, { mode: "full", maxEpisodes: 1 });
    }
    expect(verify(m.store).warnings).toContain("3 consecutive zero-yield consolidations");
  });

  test('[consolidation] provider = "claude" rides the claude CLI in print mode: its answer is checked like any other', async () => {
    using bin = tempDir("memnox-fake-claude");
    const argvLog = bin.join("argv");
    // A stand-in for Claude Code's print mode: records its arguments and answers with the pages.
    writeFileSync(
      bin.join("claude"),
      `#!/bin/sh\nprintf '%s\\n' "$@" > ${JSON.stringify(argvLog)}\ncat <<'EOF'\n${NODES}\nEOF\n`,
      { mode: 0o755 },
    );
    using m = memStore({}, { PATH: `${bin.path}:${process.env.PATH ?? ""}` });
    writeFileSync(`${m.dir.path}/memex.toml`, '[consolidation]\nprovider = "claude"\nmodel = "haiku"\n');
    ingestTranscript(m.store, { sessionId: "s1", jsonl: TURNS, source: "t" });
    const before = seen.length;
    const r = await consolidate(m.store, { mode: "full", maxEpisodes: 10 });
    expect(r.nodes_created.map((n) => n.slug)).toEqual(["pin-ruff-in-ci", "lint-week"]);
    expect(seen.length).toBe(before);
    const argv = readFileSync(argvLog, "utf8");
    expect(argv.startsWith("-p\n")).toBe(true);
    expect(argv).toContain("pin ruff to 0.6");
    expect(argv).toContain("--model\nhaiku");
  });
});
