import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { gunzipSync } from "node:zlib";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { consolidate } from "../../src/memory/consolidate.ts";
import { rememberDecision } from "../../src/memory/decision.ts";
import { explicitProject } from "../../src/memory/format/project.ts";
import { createMemoryServer } from "../../src/memory/mcp.ts";
import { ingestTranscript } from "../../src/memory/pages/transcripts.ts";
import { backup } from "../../src/memory/portability/backup.ts";
import { exportNodes, importNodes } from "../../src/memory/portability/export.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { tempDir } from "../support/index.ts";
import { memStore, put } from "./helpers.ts";

// Built at run time so the repository itself holds no credential-shaped literal.
const j = (...p: string[]) => p.join("");
const CANARIES = {
  openai: j("sk-proj-", "CANARYopenai0123456789abcd"),
  anthropic: j("sk-ant-", "api03-CANARYanthropic012345"),
  github: j("ghp_", "CANARYgithub0123456789abcdefghij"),
  gitlab: j("glpat-", "CANARYgitlab01234567"),
  slack: j("xoxb-", "CANARY-slack-0123456789"),
  aws: j("AKIA", "CANARY0123456789"),
  jwt: j("eyJ", "CANARYhdr.eyJCANARYpayload.CANARYsignature"),
  db: j("postgres://", "canary:hunter2@db.internal/prod"),
  key: j("-----BEGIN PRIVATE ", "KEY-----\nCANARYkeymaterial\n-----END PRIVATE ", "KEY-----"),
};
const ALL = Object.values(CANARIES).join(" and ");
const NEEDLES = ["CANARY", "hunter2"];

let answer = "";
const server = Bun.serve({
  hostname: "127.0.0.1",
  port: 0,
  fetch: () => Response.json({ choices: [{ message: { content: answer } }] }),
});
afterAll(() => server.stop(true));

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? files(p) : [p];
  });
}

test("no planted secret survives any write boundary into pages, index, logs, exports or backups", async () => {
  using m = memStore(
    {},
    { MEMNOX_MEMORY_LLM_BASE_URL: `http://127.0.0.1:${server.port}`, MEMNOX_MEMORY_LLM_MODEL: "m" },
  );
  using out = tempDir("memnox-canary-out");
  const project = explicitProject("0123456789abcdef01234567", "shop", "shop");
  put(m.store, {
    title: `Deploy key ${CANARIES.aws}`,
    description: `Uses ${CANARIES.openai}`,
    body: ALL,
    tags: [CANARIES.slack],
  });
  put(m.store, { title: "Project note", body: ALL, scope: "project", project, resource: CANARIES.db });
  rememberDecision(m.store, {
    rule: "no-keys",
    reason: `never paste ${CANARIES.anthropic}`,
    effect: "deny",
    where: "repository",
    by: "sam",
    project,
  });

  const mcp = createMemoryServer({ store: m.store, version: "t", currentProject: async () => project });
  const [a, b] = InMemoryTransport.createLinkedPair();
  await mcp.connect(a);
  const client = new Client({ name: "t", version: "1" });
  await client.connect(b);
  await client.callTool({
    name: "write",
    arguments: { type: "entity", title: "From agent", body: ALL, scope: "global", description: CANARIES.github },
  });

  ingestTranscript(m.store, {
    sessionId: "sess-c1",
    jsonl: [
      JSON.stringify({ type: "memex_session_header", harness: "claude-code", cwd: `/x ${CANARIES.gitlab}` }),
      JSON.stringify({ role: "user", content: ALL, turn: 1 }),
      JSON.stringify({ role: "tool", tool_name: "bash", result: CANARIES.key, turn: 2 }),
    ].join("\n"),
    source: "t",
  });
  const importFile = out.join("import.json");
  writeFileSync(
    importFile,
    JSON.stringify({
      nodes: [{ slug: "imported", type: "entity", title: "Imported", body: ALL, scope: "global", tags: ["x"] }],
    }),
  );
  expect(importNodes(m.store, readFileSync(importFile, "utf8"), "import.json").imported).toBe(1);
  answer = JSON.stringify({ nodes: [{ type: "summary", title: "Model wrote", body: `the model echoed ${ALL}` }] });
  await consolidate(m.store, { mode: "full", maxEpisodes: 5 });
  expect(recall(m.store, { query: "redacted" }).hits.length).toBeGreaterThan(0);

  exportNodes(m.store, out.join("export.json"));
  backup(m.store, out.join("backup.tar.gz"));
  await client.close();
  m.store.close();

  const leaks: string[] = [];
  const check = (name: string, bytes: Uint8Array) => {
    const text = Buffer.from(bytes).toString("latin1").toLowerCase();
    for (const needle of NEEDLES) if (text.includes(needle.toLowerCase())) leaks.push(`${name} holds ${needle}`);
  };
  for (const f of files(m.dir.path)) {
    check(f, readFileSync(f));
    check(`the name ${f}`, new TextEncoder().encode(f.slice(m.dir.path.length)));
  }
  check("export.json", readFileSync(out.join("export.json")));
  check("backup.tar.gz", gunzipSync(readFileSync(out.join("backup.tar.gz"))));
  expect(leaks).toEqual([]);

  const scanned = files(m.dir.path).map((f) => f.slice(m.dir.path.length + 1));
  expect(scanned).toContain("memnox-index.db");
  expect(scanned.some((f) => f.startsWith("transcripts/"))).toBe(true);
  const log = readFileSync(m.store.layout.opLog, "utf8")
    .trim()
    .split("\n")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
  for (const entry of log)
    for (const k of Object.keys(entry)) expect(["at", "op", "slugs", "count", "redacted", "note"]).toContain(k);
  expect(log.some((e) => Array.isArray(e.redacted) && e.redacted.includes("private_key"))).toBe(true);
});
