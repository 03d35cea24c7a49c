// The store both dashboard tests look at: 21 paginated pages and a few more, a project, a pending page, two sessions
// (one with token use, one with hostile text and a long tool result), and a symlinked transcript from outside.
import { readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { explicitProject } from "../../src/memory/format/project.ts";
import { openStore } from "../../src/memory/pages/store.ts";
import { ingestTranscript } from "../../src/memory/pages/transcripts.ts";
import { type WriteInput, writePage } from "../../src/memory/pages/write.ts";
import { T0 } from "./helpers.ts";

export const SHOP = explicitProject("0123456789abcdef01234567", "shop", "shop");

export function seedViz(dir: string, outside: string): void {
  let clock = T0;
  const w = openStore({ dir, now: () => clock });
  const put = (title: string, extra: Partial<WriteInput> = {}) => {
    clock += 1000;
    return writePage(w, {
      type: "entity",
      title,
      body: `${title.toLowerCase()} body`,
      scope: "global",
      author: "person",
      ...extra,
    });
  };
  put("Alpha entity", { body: "alpha search content" });
  for (let n = 0; n < 21; n++) put(`Paginated memory ${String(n).padStart(2, "0")}`);
  put("Beta pref", { type: "preference", body: "beta preference body, see [[alpha-entity]]" });
  put("Gamma pending", { type: "preference", author: "model", body: "gamma content" });
  put("Project alpha", { body: "alpha project search content", scope: "project", project: SHOP });
  const header = (extra: object) => JSON.stringify({ type: "memex_session_header", ...extra });
  ingestTranscript(w, {
    sessionId: "sess-viz",
    source: "t",
    harness: "codex",
    jsonl: [
      header({ started_at: "2026-09-16T10:00:00Z", token_usage: { total_tokens: 1234 } }),
      '{"role":"user","content":"fix the login bug","turn":1,"ts":"2026-09-16T10:00:01Z"}',
      '{"role":"agent","content":"Reading **the auth module** first.","turn":2}',
      '{"role":"tool","tool_name":"read","query":"src/auth.py","result":"def login(): ...","turn":3}',
    ].join("\n"),
  });
  ingestTranscript(w, {
    sessionId: "sess-older",
    source: "t",
    harness: "claude",
    scope: "project",
    project: SHOP,
    jsonl: [
      header({ started_at: "2026-09-15T09:00:00Z", token_usage: { input_tokens: 600, output_tokens: 66 } }),
      '{"role":"user","content":"<script>alert(1)</script>","turn":1}',
      '{"role":"agent","content":"**A useful answer** <img src=x onerror=alert(1)>","turn":2}',
      JSON.stringify({
        role: "tool",
        tool_name: "read",
        query: "<svg onload=alert(1)>",
        result: `<script>${"x".repeat(2200)}`,
        turn: 3,
      }),
    ].join("\n"),
  });
  w.close();
  writeFileSync(join(outside, "secret.jsonl"), '{"role":"user","content":"outside secret","turn":1}\n');
  symlinkSync(join(outside, "secret.jsonl"), join(dir, "transcripts/2026-09-16/sess-outside.jsonl"));
}

/** Every file under `root` with its size, mtime and bytes: equal before and after means nothing was written. */
export function treeSnapshot(root: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (d: string) => {
    for (const name of readdirSync(d).sort()) {
      const p = join(d, name);
      const s = statSync(p);
      if (s.isDirectory()) walk(p);
      else out[p] = `${s.size}:${s.mtimeMs}:${readFileSync(p).toString("base64")}`;
    }
  };
  walk(root);
  return out;
}
