// `memnox hook <agent> [event]`: the payload in, the agent's protocol out and nothing else; diagnostics to stderr.
// Every path ends in an answer the mode chose on purpose, within a deadline: a crash or a hook that runs out of time
// reads as "let it through" to every agent.
import { ADAPTERS } from "../../../hooks/index.ts";
import { type HookAdapter, type HookEvent, HookInputError, type HookReply, isAgentName } from "../../../hooks/types.ts";
import { describeError } from "../../core/errors.ts";
import { type FailurePosture, failsClosed } from "../../gate/posture.ts";
import { startDaemonIfNone } from "../../gate/remote/start.ts";
import type { Context } from "../../ports/context.ts";
import { insideWall } from "../../wall/inside.ts";
import type { HookDeps } from "./deps.ts";
import { failureVerdict } from "./verdict.ts";

/** Every pre-tool hook of every agent here blocks on exit 2; used only when no adapter could be chosen. */
const BLOCK_ANY = 2;

/**
 * How long a hook may take before memnox answers without the gate. Every agent memnox wires gives a tool hook 30 s
 * and the others 3 to 10 s, and a hook that runs out of time lets the call through: memnox answers well before.
 */
export function deadlineMs(event: string): number {
  if (/^(pre|before)[_-]?(tool|shell|mcp|read|write|run)|^tool\.execute\.before$/i.test(event)) return 20_000;
  return /end/i.test(event) ? 2_500 : 8_000;
}

/** The adapter and event, once known: a failure is answered in that agent's protocol. */
interface Chosen {
  adapter?: HookAdapter;
  event: string;
}

export async function handleHook(ctx: Context, deps: HookDeps): Promise<number> {
  const chosen: Chosen = { event: ctx.args[1] ?? "" };
  const ms = (deps.deadlineMs ?? deadlineMs)(chosen.event);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<HookReply>((resolve) => {
    timer = setTimeout(() => {
      const why = `memnox could not rule within ${ms / 1000} s, and the agent lets a call through once its own time runs out`;
      resolve(failure(deps, chosen, why));
    }, ms);
  });
  const work = answer(ctx, deps, chosen).catch((e: unknown) =>
    failure(deps, chosen, `the hook failed before it could answer: ${describeError(e)}`),
  );
  const reply = await Promise.race([work, late]);
  clearTimeout(timer);
  if (reply.stdout) ctx.io.out(reply.stdout);
  if (reply.stderr) ctx.io.err(reply.stderr);
  if (deps.byHand)
    ctx.io.err(`memnox: this hook was run from inside an agent's tool call (${deps.byHand}): nothing was recorded\n`);
  // After the answer is out: where setup ran and no daemon answers, one is started (a spawn, never waited on).
  else if (isAgentName(ctx.args[0] ?? "") && !insideWall(ctx.env))
    startDaemonIfNone({ launcher: ctx.selfArgv, paths: ctx.paths, env: ctx.env, nowMs: ctx.clock.now() });
  return reply.exitCode;
}

function failure(deps: HookDeps, chosen: Chosen, why: string): Promise<HookReply> {
  return chosen.adapter ? failed(deps, chosen.adapter, chosen.event, why) : unrouted(deps, `memnox: ${why}`);
}

async function answer(ctx: Context, deps: HookDeps, chosen: Chosen): Promise<HookReply> {
  const [agent, eventArg] = ctx.args;
  if (agent === "git") {
    const { gitHook } = await import("./git.ts");
    return { stdout: "", exitCode: await gitHook(ctx, deps.gate()) };
  }
  if (!agent || !isAgentName(agent)) {
    return unrouted(
      deps,
      `memnox: unknown agent \`${agent ?? ""}\` (memnox hook <agent> <event>, agent one of ${Object.keys(ADAPTERS).join(", ")})`,
    );
  }
  const adapter = await ADAPTERS[agent]();
  chosen.adapter = adapter;
  let event = eventArg ?? "";
  let parsed: HookEvent;
  try {
    const payload = parseJson(await ctx.io.readAll());
    event = eventArg ?? adapter.eventOf(payload) ?? "";
    chosen.event = event;
    if (!event) throw new HookInputError("the payload names no event and the hook command line gave none");
    const claudeConfigDir = ctx.env.CLAUDE_CONFIG_DIR;
    parsed = adapter.parse(event, payload, {
      cwd: ctx.cwd,
      home: ctx.paths.home,
      ...(claudeConfigDir ? { claudeConfigDir } : {}),
    });
  } catch (e) {
    return failed(
      deps,
      adapter,
      event,
      `the ${agent} ${event || "hook"} payload could not be read (${describeError(e)})`,
    );
  }
  // A call to rule on from a directory that is gone: nobody can say which rules apply where it would act.
  const gone = parsed.kind === "tool" ? deps.missingDirectory?.(parsed.cwd) : undefined;
  if (gone) return failed(deps, adapter, event, gone);
  try {
    return await dispatch(ctx, deps, adapter, event, parsed);
  } catch (e) {
    return failed(deps, adapter, event, describeError(e));
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    // The parser's message can quote the payload, and a payload can hold a secret.
    throw new HookInputError("it is not JSON");
  }
}

function dispatch(ctx: Context, deps: HookDeps, adapter: HookAdapter, event: string, ev: HookEvent) {
  const face = { ctx, deps, adapter, event };
  switch (ev.kind) {
    // Each event loads only its own handlers: a pre-tool call never evaluates the outcome or session code.
    case "tool":
      return import("./tool.ts").then((m) => m.onTool(face, ev));
    case "tool-done":
      return import("./done.ts").then((m) => m.onToolDone(face, ev));
    case "session-start":
      return import("./session.ts").then((m) => m.onSessionStart(face, ev));
    case "prompt":
      return import("./session.ts").then((m) => m.onPrompt(face, ev));
    case "session-end":
      return import("./session.ts").then((m) => m.onSessionEnd(face, ev));
    case "unknown-tool":
    case "ignore":
      return Promise.resolve(adapter.neutral(event));
  }
}

/** memnox failed before the gate answered: refuse in the agent's deny format only where the mode says so. */
async function failed(deps: HookDeps, adapter: HookAdapter, event: string, why: string): Promise<HookReply> {
  return failedReply(adapter, event, await deps.posture(), why);
}

export function failedReply(adapter: HookAdapter, event: string, posture: FailurePosture, why: string): HookReply {
  const note = posture.note ? `; ${posture.note}` : "";
  if (adapter.gates(event) && failsClosed(posture)) {
    const reply = adapter.decision(event, failureVerdict(why));
    return { ...reply, stderr: `${reply.stderr ?? ""}memnox: refused (enforce): ${why}${note}\n` };
  }
  const reply = adapter.neutral(event);
  const stance = posture.stopped ? "stopped" : posture.mode;
  return { ...reply, stderr: `${reply.stderr ?? ""}memnox: ${why}; let through (${stance})${note}\n` };
}

/** No adapter to speak for: exit 2 blocks a pre-tool hook in every agent, and only enforce asks for that. */
async function unrouted(deps: HookDeps, message: string): Promise<HookReply> {
  const posture = await deps.posture();
  return { stdout: "", stderr: `${message}\n`, exitCode: failsClosed(posture) ? BLOCK_ANY : 0 };
}
