import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { readPage } from "../../src/memory/pages/store.ts";
import { clearTranscripts, ingestTranscript, provenance } from "../../src/memory/pages/transcripts.ts";
import { memStore, put } from "./helpers.ts";

const TURNS = [
  { type: "memex_session_header", harness: "claude-code", session_id: "sess-abc", started_at: "2026-09-15T10:00:00Z" },
  { role: "user", content: "I prefer ruff over flake8", ts: "2026-09-15T10:00:00Z", turn: 1 },
  { role: "agent", content: "Got it, see [[ruff-linter]].", ts: "2026-09-15T10:00:01Z", turn: 2 },
  { role: "tool", tool_name: "bash", result: "ruff installed", ts: "2026-09-15T10:00:02Z", turn: 3 },
]
  .map((t) => JSON.stringify(t))
  .join("\n");

describe("transcripts", () => {
  test("ingest writes the JSONL and its sidecar under the session's date, and an episode linked to it", () => {
    using m = memStore();
    const r = ingestTranscript(m.store, { sessionId: "sess-abc", jsonl: TURNS, source: "turns.jsonl" });
    expect(r).toMatchObject({ episode_node: "sess-abc", turn_count: 3, user_turns: 1, agent_turns: 1, tool_turns: 1 });
    expect(r.transcript_file).toBe(join(m.dir.path, "transcripts/2026-09-15/sess-abc.jsonl"));
    expect(readFileSync(r.transcript_file, "utf8").split("\n").filter(Boolean)).toHaveLength(4);
    const meta = JSON.parse(readFileSync(r.meta_file, "utf8"));
    expect(meta).toMatchObject({ session_id: "sess-abc", harness: "claude-code", turn_count: 3 });
    const episode = readPage(m.store, r.episode_file_path);
    expect(episode).toMatchObject({
      type: "episode",
      session_id: "sess-abc",
      transcript_ref: "transcripts/2026-09-15/sess-abc.jsonl",
      harness: "claude-code",
      occurred_at: "2026-09-15T10:00:00Z",
    });
    expect(episode.body).toContain("- **user** (turn 1): I prefer ruff over flake8");
    const again = ingestTranscript(m.store, { sessionId: "sess-abc", jsonl: TURNS, source: "turns.jsonl" });
    expect(again.episode_file_path).toBe(r.episode_file_path);
  });

  test("a bad line is refused naming the file and line, and nothing is written", () => {
    using m = memStore();
    expect(() =>
      ingestTranscript(m.store, {
        sessionId: "s1",
        jsonl: '{"role":"user","content":"x","turn":1}\n{"role":"bot"}',
        source: "t.jsonl",
      }),
    ).toThrow(/`t.jsonl` line 2/);
    expect(() => ingestTranscript(m.store, { sessionId: "../x", jsonl: "{}", source: "t" })).toThrow(
      /invalid session id/,
    );
    expect(existsSync(join(m.dir.path, "transcripts"))).toBe(false);
  });

  test("provenance: direct from a transcript, inferred through an episode's link, else none", () => {
    using m = memStore();
    put(m.store, { title: "Ruff linter" });
    put(m.store, { title: "Unrelated" });
    ingestTranscript(m.store, { sessionId: "sess-abc", jsonl: TURNS, source: "t" });
    expect(provenance(m.store, "sess-abc").confidence).toBe("direct");
    const inferred = provenance(m.store, "ruff-linter");
    expect(inferred).toMatchObject({
      confidence: "inferred",
      linked_episodes: ["sess-abc"],
      transcript_files: ["transcripts/2026-09-15/sess-abc.jsonl"],
      meta_files: ["transcripts/2026-09-15/sess-abc.meta.json"],
    });
    expect(provenance(m.store, "unrelated").confidence).toBe("none");
  });

  test("clear-transcripts needs --confirm, deletes the raw files and retires the episodes' links", () => {
    using m = memStore();
    const r = ingestTranscript(m.store, { sessionId: "sess-abc", jsonl: TURNS, source: "t" });
    expect(() => clearTranscripts(m.store, false)).toThrow(/--confirm/);
    expect(existsSync(r.transcript_file)).toBe(true);
    expect(clearTranscripts(m.store, true)).toEqual({ removed_files: 2, retired_links: 1 });
    expect(existsSync(r.transcript_file)).toBe(false);
    expect(readPage(m.store, r.episode_file_path).transcript_ref).toBe("retired:transcripts/2026-09-15/sess-abc.jsonl");
    expect(provenance(m.store, "sess-abc").confidence).toBe("none");
  });
});
