// Rows shaped like the gate's, and a plain table of the same columns as the baseline to measure the chain against.
import type { Database } from "bun:sqlite";
import type { EventInput } from "../src/core/event.ts";

const OPS = ["git.push", "npm.test", "filesystem.read", "gh.pr-merge", "http.request", "rm"];

export function benchRow(i: number, occurredAt: string): EventInput {
  const deny = i % 17 === 0;
  return {
    kind: "decision",
    occurredAt,
    surface: "shell",
    operation: OPS[i % OPS.length] ?? "x",
    classes: ["write"],
    session: `ses_${Math.floor(i / 200)}`,
    agent: i % 3 ? "claude-code" : "codex",
    resourceRef: `/home/dev/project/src/file-${i % 500}.ts`,
    effect: deny ? "deny" : "allow",
    enforceEffect: deny ? "deny" : "allow",
    mode: "enforce",
    governed: true,
    reason: deny ? "destructive verbs are refused in this repository" : "reads are fine",
    ruleId: deny ? "no-destructive" : "allow-reads",
    ruleFile: "/home/dev/project/memnox.policies.toml",
    ruleLine: 12,
    argsDigest: "ab".repeat(32),
    policyHash: "cd".repeat(32),
    cwd: "/home/dev/project",
    request: {
      action: OPS[i % OPS.length] ?? "x",
      class: "write",
      targets: [`/home/dev/project/src/file-${i % 500}.ts`],
      cwd: "/home/dev/project",
      agent: "claude-code",
      branch: "main",
      scope: "undeclared",
      facts: [],
      argumentMatches: [],
      ruleFiles: ["/home/dev/project/memnox.policies.toml"],
    },
    detail: { source: "rule", utcOffsetMinutes: 0 },
  };
}

/** The baseline: one autocommit INSERT of a same-sized row into a plain table, no tip read, no hash. */
export function rawInsert(db: Database): (i: number) => void {
  db.run("PRAGMA journal_mode = WAL");
  db.run("PRAGMA synchronous = NORMAL");
  db.run("CREATE TABLE IF NOT EXISTS raw_events (seq INTEGER PRIMARY KEY, body TEXT NOT NULL)");
  const q = db.query("INSERT INTO raw_events (body) VALUES (?)");
  const body = JSON.stringify(benchRow(0, new Date(0).toISOString()));
  return () => {
    q.run(body);
  };
}
