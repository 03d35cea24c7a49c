// A session starting, a prompt, a session ending: the boundary block, the decisions a prompt names, the record.
import { existsSync } from "node:fs";
import type { HookEvent, HookReply } from "../../../hooks/types.ts";
import { openConfigFindings } from "../../gate/agent-config.ts";
import type { Briefing } from "../../gate/types.ts";
import { repoRoot } from "../../io/repo.ts";
import { type AgentWallFile, archOf, holdLocalRemotes, readAgentWall } from "../../wall/agent.ts";
import { agentWallLine, currentWall, wallLine } from "../../wall/inside.ts";
import { type Face, gateSession } from "./deps.ts";
import { settleUnanswered } from "./done.ts";
import { writeSessionEnv } from "./env-file.ts";
import { besideRules, memoryCandidates, renderSaid } from "./memory.ts";
import { claimReminders, dropNotice, noticeFile, readNotice, updateNotice } from "./notice.ts";
import { boundaryBlock } from "./opening.ts";
import { promptReminders } from "./reminders.ts";

type Ev<K extends HookEvent["kind"]> = Extract<HookEvent, { kind: K }>;

function briefing(f: Face, ev: { cwd: string; session?: string }): Promise<Briefing> {
  const session = gateSession(f.ctx, ev.session);
  return f.deps.gate().briefing({ cwd: ev.cwd, agent: f.adapter.agent, ...(session ? { session } : {}) });
}

export async function onSessionStart(f: Face, ev: Ev<"session-start">): Promise<HookReply> {
  const session = gateSession(f.ctx, ev.session);
  // Under `memnox run` the governed shell is the agent's shell and puts the interceptors first itself; lines memnox
  // wrote to the session's env file would reach it as part of every command, read as the agent's own exports.
  const governed = /\/memnox-(?:bash|zsh)$/.test(f.ctx.env.CLAUDE_CODE_SHELL ?? "");
  const envFile = governed ? undefined : f.adapter.sessionEnvFile?.(f.ctx.env);
  const failed = envFile
    ? writeSessionEnv(envFile, { bin: f.ctx.paths.bin, agent: f.adapter.agent, ...(session ? { session } : {}) })
    : undefined;
  if (failed) f.ctx.io.err(`memnox: the interceptors are not first on PATH in this session: ${failed}\n`);
  const gate = f.deps.gate();
  await gate.recordSession({
    kind: "start",
    surface: "hook",
    agent: f.adapter.agent,
    cwd: ev.cwd,
    ...(session ? { session } : {}),
    ...(ev.source ? { detail: ev.source } : {}),
  });
  // The daemon the seams inside the wall answer through is started by the hook face after its answer (handle.ts).
  if (!f.deps.byHand) holdLocalRemotes(f.ctx.paths, repoRoot(ev.cwd) ?? ev.cwd, archOf(process.arch));
  const b = await briefing(f, ev);
  const around = await configAround(f, ev, b);
  if (!f.adapter.hearsContext) return f.adapter.neutral(f.event);
  const wall = currentWall(f.ctx.env);
  const agentWall = wall ? undefined : walledShell(f);
  const text = boundaryBlock({
    mode: b.mode,
    ...(b.seamModes ? { seamModes: b.seamModes } : {}),
    rules: b.rules,
    canAsk: f.adapter.asksInSession,
    ...(b.stop ? { stop: b.stop } : {}),
    ...(b.repository ? { repository: b.repository } : {}),
    ...(b.probation ? { probation: { agent: f.adapter.agent, until: b.probation.until } } : {}),
    ...(b.grants ? { grants: b.grants } : {}),
    ...(wall ? { wall: wallLine(wall) } : agentWall ? { wall: agentWallLine(agentWall) } : {}),
  });
  const remembered = b.mode === "off" || b.stop || !ev.session ? undefined : await startMemories(f, ev.session, ev.cwd);
  return f.adapter.context(f.event, [around, text, remembered].filter(Boolean).join("\n\n") || undefined);
}

/**
 * The project's agent configuration that disables, shadows or runs around memnox, unless a person accepted exactly
 * that content: in enforce the session is refused (paused: every call refused, with the reason), else recorded.
 */
async function configAround(f: Face, ev: Ev<"session-start">, b: Briefing): Promise<string | undefined> {
  if (b.mode === "off") return undefined;
  const root = repoRoot(ev.cwd) ?? ev.cwd;
  const open = openConfigFindings(root, f.adapter.agent, f.ctx.paths.skills);
  if (open.length === 0) return undefined;
  const listed = open.map((c) => `${c.path}: ${c.what}`).join("; ");
  const session = gateSession(f.ctx, ev.session);
  const reason = `this project's agent configuration runs around memnox (${listed}); a person reads it and accepts exactly this content with memnox skills --accept, then resumes the session`;
  if (b.mode === "enforce" && session) {
    await f.deps.gate().pauseSession(session, reason, "hook");
    return `memnox refused this session: ${reason}. Until then every tool call is refused.`;
  }
  return `memnox found that ${reason}. In enforce this session would be refused.`;
}

export async function onPrompt(f: Face, ev: Ev<"prompt">): Promise<HookReply> {
  await settleUnanswered(f, ev);
  if (!f.adapter.hearsContext || !ev.session) return f.adapter.neutral(f.event);
  const b = await briefing(f, ev);
  if (b.mode === "off" || b.stop) return f.adapter.neutral(f.event);
  const file = noticeFile(f.ctx.paths.notice, ev.session);
  const before = readNotice(file).said;
  const rules = promptReminders(ev.prompt, b.rules);
  const memories = await memoryCandidates(f, ev.cwd, ev.prompt, before);
  const candidates = [...rules, ...besideRules(memories, [...before, ...rules.map((r) => r.key)])];
  const now = f.ctx.clock.now();
  const turn = ev.turn ?? `prompt-${now}`;
  const said = updateNotice(file, now, (n) => {
    const claimed = claimReminders(n, turn, candidates, true);
    return { next: claimed.next, result: claimed.said };
  });
  return f.adapter.context(f.event, await renderSaid(said));
}

/** At a session's start, what the team remembered about this repository, claimed like any reminder. */
async function startMemories(f: Face, session: string, cwd: string): Promise<string | undefined> {
  const file = noticeFile(f.ctx.paths.notice, session);
  const memories = await memoryCandidates(f, cwd, undefined, readNotice(file).said);
  if (memories.length === 0) return undefined;
  const now = f.ctx.clock.now();
  const said = updateNotice(file, now, (n) => {
    const claimed = claimReminders(n, `start-${session}`, memories, true);
    return { next: claimed.next, result: claimed.said };
  });
  return renderSaid(said);
}

export async function onSessionEnd(f: Face, ev: Ev<"session-end">): Promise<HookReply> {
  await settleUnanswered(f, ev);
  const session = gateSession(f.ctx, ev.session);
  await f.deps.gate().recordSession({
    kind: "end",
    surface: "hook",
    agent: f.adapter.agent,
    cwd: ev.cwd,
    ...(session ? { session } : {}),
    ...(ev.reason ? { detail: ev.reason } : {}),
  });
  if (ev.session) dropNotice(noticeFile(f.ctx.paths.notice, ev.session));
  return f.adapter.neutral(f.event);
}

/** The machine's agent wall, when this agent's shell commands run inside it. */
function walledShell(f: Face): AgentWallFile | undefined {
  if (!existsSync(f.ctx.paths.applier) || !f.adapter.shellUnderWall?.(f.ctx.env, f.ctx.paths.applier)) return undefined;
  try {
    return readAgentWall(f.ctx.paths);
  } catch {
    return undefined;
  }
}
