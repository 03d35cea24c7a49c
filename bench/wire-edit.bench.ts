// Wrapping a large ~/.claude.json (Claude Code keeps every project it has seen in it) against a same-run baseline:
// JSON.parse + JSON.stringify of the same file, which is what a naive rewrite would cost (and what loses comments).
import { applyEdits } from "../src/wire/edit/document.ts";
import type { Edit } from "../src/wire/edit/edits.ts";

function claudeJson(projects: number, serversPerProject: number): string {
  const doc: Record<string, unknown> = { numStartups: 400, mcpServers: {}, projects: {} };
  const all = doc.projects as Record<string, unknown>;
  for (let p = 0; p < projects; p++) {
    const mcpServers: Record<string, unknown> = {};
    for (let s = 0; s < serversPerProject; s++) {
      mcpServers[`server-${s}`] = { type: "stdio", command: "npx", args: ["-y", `@scope/server-${s}`], env: {} };
    }
    all[`/home/u/work/project-${p}`] = {
      allowedTools: [],
      history: Array.from({ length: 40 }, (_, i) => ({ display: `prompt ${i} `.repeat(20), pastedContents: {} })),
      mcpServers,
      hasTrustDialogAccepted: true,
    };
  }
  return JSON.stringify(doc, null, 2);
}

function wrapEdits(projects: number, serversPerProject: number): Edit[] {
  const edits: Edit[] = [];
  for (let p = 0; p < projects; p++) {
    for (let s = 0; s < serversPerProject; s++) {
      const at = ["projects", `/home/u/work/project-${p}`, "mcpServers", `server-${s}`];
      edits.push({ op: "set", path: [...at, "command"], value: "/home/u/.memnox/app/memnox" });
      edits.push({ op: "set", path: [...at, "args"], value: ["mcp", "proxy", "--name", `server-${s}`, "--", "npx"] });
    }
  }
  return edits;
}

function time(runs: number, fn: () => void): number {
  fn();
  const start = performance.now();
  for (let i = 0; i < runs; i++) fn();
  return (performance.now() - start) / runs;
}

for (const [projects, servers] of [
  [20, 2],
  [200, 1],
  [200, 3],
] as const) {
  const text = claudeJson(projects, servers);
  const edits = wrapEdits(projects, servers);
  const runs = Math.max(1, Math.round(2_000_000 / text.length));
  const baseline = time(runs, () => JSON.stringify(JSON.parse(text), null, 2));
  const edit = time(runs, () => applyEdits("json", text, edits, "~/.claude.json"));
  const kb = Math.round(text.length / 1024);
  console.log(
    `${kb} KiB, ${edits.length} edits: span edit + read-back ${edit.toFixed(1)} ms, parse+stringify ${baseline.toFixed(2)} ms, ratio ${(edit / baseline).toFixed(1)}x`,
  );
}
