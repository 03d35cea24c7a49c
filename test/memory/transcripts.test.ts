import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { explicitProject } from "../../src/memory/format/project.ts";
import { readPage } from "../../src/memory/pages/store.ts";
import {
  clearTranscripts,
  ingestTranscript,
  listSessions,
  provenance,
  sessionTurns,
} from "../../src/memory/pages/transcripts.ts";
import { memStore, put } from "./helpers.ts";

const project = explicitProject("0123456789abcdef01234567", "shop", "shop");

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
    expect(() => ingestTranscript(m.store, { sessionId: "sess-abc", jsonl: TURNS, source: "turns.jsonl" })).toThrow(
      "transcript already exists: sess-abc.jsonl",
    );
    const again = ingestTranscript(m.store, {
      sessionId: "sess-abc",
      jsonl: TURNS,
      source: "turns.jsonl",
      overwrite: true,
    });
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
    ).toThrow(/^t.jsonl:2: turn entry missing required field: content/);
    expect(() => ingestTranscript(m.store, { sessionId: "../x", jsonl: "{}", source: "t" })).toThrow(
      "session_id must be alphanumeric with '.', '_', '-' only",
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
    expect(() => clearTranscripts(m.store, false)).toThrow("transcript clearing requires confirm=True");
    expect(existsSync(r.transcript_file)).toBe(true);
    expect(clearTranscripts(m.store, true)).toEqual({ cleared: 1, removed_files: 2, retired_links: 1 });
    expect(existsSync(r.transcript_file)).toBe(false);
    expect(readPage(m.store, r.episode_file_path).transcript_ref).toBe("retired:transcripts/2026-09-15/sess-abc.jsonl");
    expect(provenance(m.store, "sess-abc").confidence).toBe("none");
  });

  test.each([
    ['{"role":"bot","content":"x","turn":1}', /role must be one of \('user', 'agent', 'tool'\), got 'bot'/],
    ['{"role":"user","content":"x","turn":0}', /turn must be a 1-based integer/],
    ['{"role":"user","content":"x","turn":1.5}', /turn entry fields role\/content must be str and turn must be int/],
    ['{"role":"user","turn":1}', /turn entry missing required field: content/],
    [
      '{"role":"user","content":"x","turn":1,"tool_name":"bash"}',
      /tool_name\/result are only allowed when role='tool'/,
    ],
    ['{"role":"user","content":"x","turn":1,"ts":"2026-02-30T10:00:00Z"}', /ts is not a valid date/],
    ['{"role":"user","content":"x","turn":1,"ts":"yesterday"}', /ts must be an ISO8601 UTC string/],
    ["{not json", /not JSON/],
  ])("an invalid turn %s is refused naming the file and line; nothing is stored", (line, why) => {
    using m = memStore();
    const jsonl = `{"role":"user","content":"ok","turn":1}\n\n${line}`;
    expect(() => ingestTranscript(m.store, { sessionId: "s1", jsonl, source: "/tmp/turns.jsonl" })).toThrow(
      new RegExp(`^turns.jsonl:3: ${why.source}`),
    );
    expect(existsSync(join(m.dir.path, "transcripts"))).toBe(false);
    expect(existsSync(join(m.dir.path, "docs/global/episodes/s1.md"))).toBe(false);
  });

  test("ingesting a session twice is refused unless overwriting, which merges the turns without duplicating them", () => {
    using m = memStore();
    const one = '{"role":"user","content":"first","turn":1}';
    const two = '{"role":"agent","content":"second","turn":2}';
    const r = ingestTranscript(m.store, { sessionId: "grow", jsonl: one, source: "t" });
    expect(() => ingestTranscript(m.store, { sessionId: "grow", jsonl: `${one}\n${two}`, source: "t" })).toThrow(
      "transcript already exists: grow.jsonl",
    );
    expect(readFileSync(r.transcript_file, "utf8").trim().split("\n")).toHaveLength(1);
    const grown = ingestTranscript(m.store, {
      sessionId: "grow",
      jsonl: `${one}\n${two}`,
      source: "t",
      overwrite: true,
    });
    expect(grown.turn_count).toBe(2);
    // After a compaction the harness file holds only the tail: the stored turns stay and the new one is appended.
    const tail = '{"role":"user","content":"third","turn":1}';
    const merged = ingestTranscript(m.store, { sessionId: "grow", jsonl: tail, source: "t", overwrite: true });
    expect(merged.turn_count).toBe(3);
    expect(sessionTurns(m.store, "grow")?.turns.map((t) => [t.turn, t.content])).toEqual([
      [1, "first"],
      [2, "second"],
      [3, "third"],
    ]);
    expect(existsSync(join(m.dir.path, "docs/global/episodes/grow.md"))).toBe(true);
  });

  test("sessions lists every capture newest first, with its harness, turns, project and token use", () => {
    using m = memStore();
    ingestTranscript(m.store, { sessionId: "sess-abc", jsonl: TURNS, source: "t" });
    const later = [
      JSON.stringify({
        type: "memex_session_header",
        harness: "codex",
        session_id: "later",
        started_at: "2026-10-01T09:00:00Z",
        token_usage: { input_tokens: 120, output_tokens: 30 },
      }),
      '{"role":"user","content":"hello","turn":1}',
    ].join("\n");
    ingestTranscript(m.store, { sessionId: "later", jsonl: later, source: "t", scope: "project", project });
    const sessions = listSessions(m.store);
    expect(sessions.map((s) => [s.session_id, s.date, s.harness, s.turn_count, s.project_label])).toEqual([
      ["later", "2026-10-01", "codex", 1, "shop"],
      ["sess-abc", "2026-09-15", "claude-code", 3, null],
    ]);
    expect(sessions[0]?.token_usage).toEqual({ input_tokens: 120, output_tokens: 30 });
    expect(sessions[1]?.episode_slug).toBe("sess-abc");
    expect(sessionTurns(m.store, "../etc")).toBeUndefined();
  });
});
