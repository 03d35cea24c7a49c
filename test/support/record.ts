// A ledger built the way agents build it: Claude Code's hook payloads through the real hook face (in this process,
// so a clock can walk across days), and the CLI run on the same home.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { run as cliRun } from "../../src/seams/cli/index.ts";
import { run as hookRun } from "../../src/seams/hook/index.ts";
import type { FakeHome } from "./home.ts";
import { testContext } from "./home.ts";

export const DAY = 86_400_000;

export function enforce(home: FakeHome): void {
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
}

export interface Claude {
  readonly session: string;
  readonly cwd: string;
  readonly transcript?: string;
}

function common(c: Claude, event: string) {
  return {
    session_id: c.session,
    transcript_path: c.transcript ?? join(c.cwd, ".no-transcript.jsonl"),
    cwd: c.cwd,
    permission_mode: "default",
    hook_event_name: event,
  };
}

export const payloads = {
  pre: (c: Claude, tool: string, input: unknown, id: string) =>
    JSON.stringify({ ...common(c, "PreToolUse"), tool_name: tool, tool_input: input, tool_use_id: id }),
  post: (c: Claude, tool: string, input: unknown, id: string, response: unknown = { stdout: "", stderr: "" }) =>
    JSON.stringify({
      ...common(c, "PostToolUse"),
      tool_name: tool,
      tool_input: input,
      tool_response: response,
      tool_use_id: id,
      duration_ms: 40,
    }),
  failed: (c: Claude, tool: string, input: unknown, id: string, code: number) =>
    JSON.stringify({
      ...common(c, "PostToolUseFailure"),
      tool_name: tool,
      tool_input: input,
      tool_use_id: id,
      error: `Exit code ${code}\nFAIL`,
      duration_ms: 1200,
    }),
  prompt: (c: Claude, prompt: string) => JSON.stringify({ ...common(c, "UserPromptSubmit"), prompt }),
  start: (c: Claude) => JSON.stringify({ ...common(c, "SessionStart"), source: "startup" }),
  end: (c: Claude) => JSON.stringify({ ...common(c, "SessionEnd"), reason: "other" }),
};

/** One Claude Code hook call through the real face at `now`; the answer as Claude Code reads it. */
export async function claudeHook(home: FakeHome, event: string, stdin: string, now: number, cwd: string) {
  const { ctx, io } = testContext(home, { args: ["claude-code", event], stdin, now, cwd });
  const code = await hookRun(ctx);
  const out = io.stdout();
  const decision = out ? JSON.parse(out).hookSpecificOutput?.permissionDecision : undefined;
  return { code, out, err: io.stderr(), decision: (decision ?? "allow") as string, reason: out };
}

/** A Claude Code call the person answers in its own prompt: yes runs it (PostToolUse), no never does. */
export async function askedAndAnswered(
  home: FakeHome,
  c: Claude,
  call: { tool: string; input: unknown; id: string },
  yes: boolean,
  now: number,
): Promise<string> {
  const pre = await claudeHook(home, "PreToolUse", payloads.pre(c, call.tool, call.input, call.id), now, c.cwd);
  if (yes) await claudeHook(home, "PostToolUse", payloads.post(c, call.tool, call.input, call.id), now + 1000, c.cwd);
  else await claudeHook(home, "UserPromptSubmit", payloads.prompt(c, "no, not that"), now + 1000, c.cwd);
  return pre.decision;
}

/** The CLI at `now` in `cwd`; `json()` parses what it printed. */
export async function cli(home: FakeHome, args: string[], now: number, cwd: string, env: Record<string, string> = {}) {
  const { ctx, io } = testContext(home, { args, now, cwd, env });
  const code = await cliRun(ctx);
  return { code, out: io.stdout(), err: io.stderr(), json: () => JSON.parse(io.stdout()) };
}
