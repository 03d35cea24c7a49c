// Memory pushed into a Claude Code session (issue 31), with the compiled binary: a session opens on what its project
// holds, memnox's own hook says it, and the push layer `memory install claude` adds stays silent beside it.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "shop\n" });
let bin = "";

const memnox = (args: string[], stdin?: string) =>
  runBinary("memnox", args, { env: home.env(), cwd: repo.path, ...(stdin !== undefined ? { stdin } : {}) });

beforeAll(async () => {
  bin = await compiledBinary();
  for (const args of [
    ["memory", "types", "enable", "decision"],
    ["memory", "write", "--type", "decision", "--scope", "project", "--title", "Deploys only on Tuesdays"],
    ["memory", "write", "--type", "preference", "--scope", "project", "--title", "Use pnpm"],
  ]) {
    const full = args[1] === "write" ? [...args, "--description", "about the shop", "--body", "We decided it."] : args;
    const r = await memnox(full);
    if (r.code !== 0) throw new Error(`${full.join(" ")}: ${r.stderr}`);
  }
}, 60_000);

afterAll(() => {
  repo[Symbol.dispose]();
  home[Symbol.dispose]();
});

const payload = (event: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({
    session_id: `s-${Math.random().toString(36).slice(2)}`,
    cwd: repo.path,
    hook_event_name: event,
    transcript_path: join(home.home, ".claude", "projects", "x", "s.jsonl"),
    ...extra,
  });

test("a session opens on its project's decisions and preferences, whatever its folder's words match", async () => {
  const pushed = await memnox(["memory", "hook", "session-start"], payload("SessionStart"));
  expect(pushed.stdout).toContain("Deploys only on Tuesdays (decision)");
  expect(pushed.stdout).toContain("Use pnpm (preference)");
  const hooked = await memnox(["hook", "claude-code", "SessionStart"], payload("SessionStart", { source: "startup" }));
  const context = (JSON.parse(hooked.stdout) as { hookSpecificOutput: { additionalContext: string } })
    .hookSpecificOutput.additionalContext;
  expect(context).toContain("A previous decision: Deploys only on Tuesdays");
  expect(context).toContain("Memory (preference): Use pnpm");
  expect(bin).not.toBe("");
});

test("beside memnox's own Claude Code hook, the push layer says nothing: memory is said once", async () => {
  const prompt = payload("UserPromptSubmit", { prompt: "when do we deploy? only on tuesdays?" });
  expect((await memnox(["memory", "hook", "prompt"], prompt)).stdout).toContain("=== memex MEMORY ===");
  mkdirSync(join(home.home, ".claude"), { recursive: true });
  writeFileSync(
    join(home.home, ".claude", "settings.json"),
    JSON.stringify({
      hooks: {
        SessionStart: [{ hooks: [{ type: "command", command: `${bin} hook claude-code SessionStart` }] }],
        UserPromptSubmit: [{ hooks: [{ type: "command", command: `${bin} hook claude-code UserPromptSubmit` }] }],
      },
    }),
  );
  expect((await memnox(["memory", "hook", "prompt"], prompt)).stdout).toBe("");
  expect((await memnox(["memory", "hook", "session-start"], payload("SessionStart"))).stdout).toBe("");
  // Another harness's payload (no Claude Code transcript) still gets the push layer's block.
  expect((await memnox(["memory", "hook", "prompt"], "when do we deploy? only on tuesdays?")).stdout).toContain(
    "Deploys only on Tuesdays",
  );
});
