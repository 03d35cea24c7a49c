// What Codex 0.171 and Gemini CLI 0.61 really send and accept, beyond the shared fixtures: Codex's outcome read from
// its session transcript (its PostToolUse hands only the output, as a string), and Gemini's allowed shell command
// carrying the interceptors and the session's variables, which its own hook is the one place to set.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { FailurePosture } from "../src/gate/posture.ts";
import type { GateAnswer } from "../src/gate/types.ts";
import { handleHook } from "../src/seams/hook/handle.ts";
import { noticeFile } from "../src/seams/hook/notice.ts";
import { answerProblems } from "./support/agent-schemas.ts";
import { fakeHome, testContext } from "./support/index.ts";
import { scriptedGate } from "./support/scripted-gate.ts";

const ENFORCE: FailurePosture = { mode: "enforce", failOpen: false, stopped: false };
const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

async function hook(
  agent: string,
  event: string,
  payload: unknown,
  answers: readonly Partial<GateAnswer>[] = [{ eventId: "evt_1" }],
) {
  const gate = scriptedGate({ answers });
  const { ctx, io } = testContext(home, { args: [agent, event], stdin: JSON.stringify(payload) });
  const code = await handleHook(ctx, { gate: () => gate, posture: async () => ENFORCE });
  return { code, out: io.stdout(), gate, ctx };
}

describe("Codex: the exit code comes from the session transcript", () => {
  test("a failed command's exit code and duration are recorded, read from the rollout line for that call", async () => {
    const session = "01a2335a-460c-7e82-86a9-b54cb24308a0";
    const dir = join(home.home, ".codex", "sessions", "2026", "12", "01");
    mkdirSync(dir, { recursive: true });
    const transcript = join(dir, `rollout-2026-12-01T20-44-43-${session}.jsonl`);
    // As Codex 0.171 writes it (observed offline): the execution's end carries exit_code and duration.
    writeFileSync(
      transcript,
      [
        '{"timestamp":"2026-12-01T20:44:44.445Z","type":"response_item","payload":{"type":"function_call","name":"exec_command","arguments":"{\\"cmd\\":\\"npm test\\"}","call_id":"call_1"}}',
        `{"timestamp":"2026-12-01T20:44:44.634Z","type":"event_msg","payload":{"type":"item_completed","thread_id":"${session}","item":{"type":"CommandExecution","id":"call_1","command":["/bin/bash","-lc","npm test"],"status":"failed","aggregated_output":"Process exited with code 0\\n","exit_code":2,"duration":{"secs":1,"nanos":250000000}}}}`,
        '{"timestamp":"2026-12-01T20:44:44.673Z","type":"response_item","payload":{"type":"function_call_output","call_id":"call_1","output":"Chunk ID: a44c83\\nProcess exited with code 2\\n"}}',
        "",
      ].join("\n"),
    );
    const { ctx } = testContext(home);
    mkdirSync(ctx.paths.notice, { recursive: true });
    const calls = { call_1: { at: "2026-12-01T20:44:44.000Z", eventIds: ["evt_test"] } };
    writeFileSync(noticeFile(ctx.paths.notice, session), JSON.stringify({ version: 1, said: [], calls }));
    const r = await hook("codex", "PostToolUse", {
      session_id: session,
      transcript_path: transcript,
      cwd: home.home,
      hook_event_name: "PostToolUse",
      tool_name: "Bash",
      tool_input: { command: "npm test" },
      tool_response: "1 failing\n",
      tool_use_id: "call_1",
    });
    expect(r.out).toBe("{}\n");
    expect(r.gate.calls.filter((c) => c.method === "recordOutcome")).toEqual([
      { method: "recordOutcome", eventId: "evt_test", outcome: { exitCode: 2, durationMs: 1250 } },
    ]);
  });
});

describe("Gemini CLI: an allowed shell command meets the interceptors", () => {
  const session = "83bf4e69-24c7-4817-aac5-05035dfe0b43";
  const before = (command: string) => ({
    session_id: session,
    cwd: home.home,
    hook_event_name: "BeforeTool",
    tool_name: "run_shell_command",
    tool_input: { command },
  });

  test("with interceptors installed, the hook's allow puts them first on PATH with the session's variables", async () => {
    const { ctx } = testContext(home);
    mkdirSync(ctx.paths.bin, { recursive: true });
    const r = await hook("gemini-cli", "BeforeTool", before('echo "$PATH|$MEMNOX_SESSION|$MEMNOX_AGENT_NAME"'));
    expect(answerProblems("gemini-cli", "BeforeTool", r.out, r.code)).toEqual([]);
    const answer = JSON.parse(r.out) as { hookSpecificOutput: { tool_input: { command: string } } };
    const command = answer.hookSpecificOutput.tool_input.command;
    expect(command.endsWith('\necho "$PATH|$MEMNOX_SESSION|$MEMNOX_AGENT_NAME"')).toBe(true);
    // Run as Gemini runs it (bash -c): the interceptors first, then the PATH it had; the row joins this session.
    const ran = Bun.spawnSync(["bash", "-c", command], { env: { PATH: "/usr/bin:/bin" } });
    expect(ran.stdout.toString().trim()).toBe(`${ctx.paths.bin}:/usr/bin:/bin|${session}|gemini-cli`);
  });

  test("AfterTool hands back the command as memnox rewrote it, and its outcome still reaches the decision", async () => {
    const original = "npm test";
    const allowed = await hook("gemini-cli", "BeforeTool", before(original), [{ eventId: "evt_npm" }]);
    const rewritten = (JSON.parse(allowed.out) as { hookSpecificOutput: { tool_input: { command: string } } })
      .hookSpecificOutput.tool_input.command;
    const done = await hook("gemini-cli", "AfterTool", {
      ...before(rewritten),
      hook_event_name: "AfterTool",
      tool_response: {
        llmContent: "<untrusted_context>\nOutput: 1 failing\nExit Code: 1\nProcess Group PGID: 7\n</untrusted_context>",
        returnDisplay: "1 failing",
      },
    });
    expect(done.gate.calls.filter((c) => c.method === "recordOutcome")).toEqual([
      { method: "recordOutcome", eventId: "evt_npm", outcome: { exitCode: 1 } },
    ]);
  });

  test("a refused command is refused as it is, never rewritten", async () => {
    const r = await hook("gemini-cli", "BeforeTool", before("git push --force origin main"), [
      { effect: "deny", eventId: "evt_2", reason: "a force push loses work" },
    ]);
    expect(JSON.parse(r.out)).toMatchObject({ decision: "deny" });
    expect(r.out).not.toContain("tool_input");
  });
});
