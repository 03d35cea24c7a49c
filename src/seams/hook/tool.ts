// A tool call about to run: ask the gate about each thing it does, answer with the strictest, remember it for its
// outcome (done.ts records that).
import { existsSync } from "node:fs";
import type { HookEvent, HookReply, SeamCall, ToolVerdict } from "../../../hooks/types.ts";
import type { GateAnswer, GateRequest } from "../../gate/types.ts";
import { insideWall } from "../../wall/inside.ts";
import { keepMilestones } from "../shared/milestones.ts";
import { stampHold } from "../shared/requester.ts";
import { type Face, gateSession } from "./deps.ts";
import { claimReminders, noticeFile, type PendingCall, readNotice, updateNotice, withoutArguments } from "./notice.ts";
import { callReminder, type Reminder } from "./reminders.ts";
import { adviseNote, strictest, toolVerdict } from "./verdict.ts";
import { snapshotTree } from "./written.ts";

type ToolEvent = Extract<HookEvent, { kind: "tool" }>;

export function gateRequest(
  f: Face,
  ev: { cwd: string; session?: string },
  call: SeamCall,
  canAsk: boolean,
): GateRequest {
  const session = gateSession(f.ctx, ev.session);
  const base = {
    surface: "hook" as const,
    agent: f.adapter.agent,
    canAsk,
    // An agent inside a wall that cannot ask its person is refused, never held: the answer could not be read back.
    ...(insideWall(f.ctx.env) ? { walled: true as const } : {}),
    ...(session ? { session } : {}),
  };
  if ("command" in call) {
    const walls = existsSync(f.ctx.paths.applier) && f.adapter.shellUnderWall?.(f.ctx.env, f.ctx.paths.applier);
    return {
      ...base,
      cwd: call.cwd ?? ev.cwd,
      command: call.command,
      ...(walls ? { underWall: true as const } : {}),
    };
  }
  return {
    ...base,
    cwd: ev.cwd,
    action: call.action,
    ...(call.rawArguments !== undefined ? { rawArguments: call.rawArguments } : {}),
  };
}

export async function onTool(f: Face, ev: ToolEvent): Promise<HookReply> {
  const gate = f.deps.gate();
  const answers: GateAnswer[] = [];
  for (const call of ev.calls) {
    const a = await gate.decide(gateRequest(f, ev, call, ev.canAsk));
    answers.push(a);
    if (a.effect === "deny") break;
  }
  const deciding = strictest(answers);
  // A hold is the agent's: once the agent has gone, nobody is left to retry it, so it stops waiting.
  if (deciding.holdId && !f.deps.byHand) stampHold(f.ctx, deciding.holdId, "agent");
  const verdict = toolVerdict(deciding, ev.canAsk);
  const reminding = verdict.effect === "allow" ? await reminderFor(f, ev, deciding) : {};
  // An ask goes to the agent's own prompt, whose yes memnox never sees before the call runs: keep one for it too.
  if (verdict.effect !== "deny" && !f.deps.byHand) {
    await keepMilestones(f.ctx, {
      surface: "hook",
      session: gateSession(f.ctx, ev.session),
      agent: f.adapter.agent,
      cwd: ev.cwd,
      actions: answers.flatMap((a) => a.actions),
      firstWrite: true,
    });
  }
  const tree = verdict.effect !== "deny" ? await beforeShell(f, ev, answers) : undefined;
  const refused = verdict.effect === "deny" ? (deciding.eventId ?? answers.find((a) => a.eventId)?.eventId) : undefined;
  const said = remember(f, ev, answers, verdict.effect === "ask" ? deciding : undefined, reminding, {
    ...tree,
    ...(refused ? { refused } : {}),
  });
  const context = [adviseNote(deciding), said?.text].filter(Boolean).join("\n");
  const shell = verdict.effect === "allow" ? shellEnv(f, ev) : undefined;
  return f.adapter.decision(f.event, { ...verdict, ...(context ? { context } : {}), ...(shell ? { shell } : {}) });
}

/** For an agent whose hook must carry them: what an allowed shell command runs with to meet the interceptors. */
function shellEnv(f: Face, ev: ToolEvent): ToolVerdict["shell"] {
  const [call, more] = ev.calls;
  const reach = existsSync(f.ctx.paths.bin) || existsSync(f.ctx.paths.applier);
  if (!f.adapter.shellEnvByHook || more || !call || !("command" in call) || !reach) return undefined;
  const session = gateSession(f.ctx, ev.session);
  const vars: Record<string, string> = {
    MEMNOX_AGENT_NAME: f.adapter.agent,
    ...(session ? { MEMNOX_SESSION: session } : {}),
    ...(f.ctx.env.MEMNOX_HOME ? { MEMNOX_HOME: f.ctx.env.MEMNOX_HOME } : {}),
  };
  const applier = existsSync(f.ctx.paths.applier) ? { applier: f.ctx.paths.applier } : {};
  return { bin: f.ctx.paths.bin, vars, command: call.command, ...applier };
}

/** What a call's allow has to remind of: a reminder, or the rule found quiet (remembered, so not looked up again). */
interface Reminding {
  readonly reminder?: Reminder;
  readonly quiet?: string;
}

/** Only beside an allow a rule decided, in an agent that reads context back before a call. */
async function reminderFor(f: Face, ev: ToolEvent, a: GateAnswer): Promise<Reminding> {
  if (!f.adapter.remindsAtCall || !ev.session || !a.rule || a.stopped || a.enforceEffect !== "allow") return {};
  // A rule already said this session, or found to have nothing to say, is never looked up again.
  const n = readNotice(noticeFile(f.ctx.paths.notice, ev.session));
  if (n.said.includes(a.rule.name) || n.quiet?.includes(a.rule.name)) return {};
  const session = gateSession(f.ctx, ev.session);
  const briefing = await f.deps
    .gate()
    .briefing({ cwd: ev.cwd, agent: f.adapter.agent, ...(session ? { session } : {}) });
  const reminder = callReminder(a.rule.name, briefing.rules, a.decided?.action);
  return reminder ? { reminder } : { quiet: a.rule.name };
}

/** One write of the session's notice: the reminder claimed against the budget, the call kept for its outcome. */
function remember(
  f: Face,
  ev: ToolEvent,
  answers: readonly GateAnswer[],
  asked: GateAnswer | undefined,
  { reminder, quiet }: Reminding,
  tree?: Pick<PendingCall, "tree" | "checked" | "refused">,
): Reminder | undefined {
  const eventIds = answers.flatMap((a) => (a.eventId ? [a.eventId] : []));
  const keep = ev.callKey !== undefined && (eventIds.length > 0 || asked !== undefined);
  if (!ev.session || (!keep && !reminder && !quiet)) return undefined;
  const now = f.ctx.clock.now();
  return updateNotice(noticeFile(f.ctx.paths.notice, ev.session), now, (n) => {
    let next = quiet && !n.quiet?.includes(quiet) ? { ...n, quiet: [...(n.quiet ?? []), quiet] } : n;
    let said: Reminder | undefined;
    if (reminder) {
      const claimed = claimReminders(next, ev.turn ?? n.turn?.id ?? "", [reminder], false);
      next = claimed.next;
      said = claimed.said[0];
    }
    if (keep && ev.callKey) {
      const pending: PendingCall = {
        at: new Date(now).toISOString(),
        eventIds,
        ...(asked ? { asked: withoutArguments(asked) } : {}),
        ...tree,
      };
      next = { ...next, calls: { ...next.calls, [ev.callKey]: pending } };
    }
    return { next, result: said };
  });
}

/** Before a shell command that may write: the tree as it stands, and the writes the gate already decided. */
async function beforeShell(
  f: Face,
  ev: ToolEvent,
  answers: readonly GateAnswer[],
): Promise<Pick<PendingCall, "tree" | "checked"> | undefined> {
  if (!ev.callKey || !ev.session || !ev.calls.some((c) => "command" in c)) return undefined;
  const actions = answers.flatMap((a) => a.actions);
  // Reads, and writes that name their files (already checked), need no snapshot: what runs opaque code does.
  const opaque = actions.some(
    (a) => a.name === "shell.unknown" || (a.name !== "shell.execute" && a.class !== "read" && !WRITES.has(a.name)),
  );
  if (!opaque) return undefined;
  const tree = await snapshotTree(f.ctx, ev.cwd).catch(() => undefined);
  if (!tree) return undefined;
  const checked = actions.filter((a) => WRITES.has(a.name)).flatMap((a) => a.targets);
  return { tree, ...(checked.length > 0 ? { checked } : {}) };
}

const WRITES = new Set(["filesystem.write", "filesystem.delete"]);
