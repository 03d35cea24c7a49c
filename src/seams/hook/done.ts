// A tool call ran (or the person's turn came round without it): its outcome recorded, its output read, the writes
// it made checked. Loaded only for the events that report a call done, so a pre-tool hook never evaluates it.
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import type { HookEvent, HookReply } from "../../../hooks/types.ts";
import { maskDeep } from "../../core/secrets.ts";
import { detectInstructions, instructionLabels } from "../../gate/notice/instructions.ts";
import type { GateAnswer, GateRequest } from "../../gate/types.ts";
import { type Face, gateSession } from "./deps.ts";
import { noticeFile, type PendingCall, readNotice, updateNotice } from "./notice.ts";
import { gateRequest } from "./tool.ts";
import { writtenSince } from "./written.ts";

type DoneEvent = Extract<HookEvent, { kind: "tool-done" }>;

/**
 * The call ran: recorded as below, and a result that carries a credential is handed back to the model masked, where
 * the agent lets a hook replace it (a shell's output, a file read, an MCP tool's result alike).
 */
export async function onToolDone(f: Face, ev: DoneEvent): Promise<HookReply> {
  const recorded = await recordDone(f, ev);
  if (ev.response === undefined || !f.adapter.replaceOutput) return recorded;
  const masked = maskDeep(ev.response);
  return JSON.stringify(masked) === JSON.stringify(ev.response) ? recorded : f.adapter.replaceOutput(f.event, masked);
}

/** A person's yes in the agent's own prompt, then the outcome of every decision the call took. */
async function recordDone(f: Face, ev: DoneEvent): Promise<HookReply> {
  if (!ev.session) return f.adapter.neutral(f.event);
  if (ev.output) await readResult(f, ev.session, ev.output);
  const file = noticeFile(f.ctx.paths.notice, ev.session);
  // Most calls were never remembered (nothing decided them); they cost one read, not a lock and a write.
  if (!readNotice(file).calls[ev.callKey]) return f.adapter.neutral(f.event);
  const pending = updateNotice(file, f.ctx.clock.now(), (n) => {
    const { [ev.callKey]: taken, ...calls } = n.calls;
    return { next: { ...n, calls }, result: taken };
  });
  if (!pending) return f.adapter.neutral(f.event);
  const gate = f.deps.gate();
  if (pending.refused) {
    await refusedCallDone(f, ev, pending.refused);
    return f.adapter.neutral(f.event);
  }
  if (pending.asked) {
    const call = ev.calls[0];
    const request = call ? gateRequest(f, ev, call, true) : answerOnly(f, ev, pending.asked);
    await gate.recordAnswer(pending.asked, request, {
      grant: true,
      scope: "once",
      via: "agent-prompt",
    });
  }
  const read = ev.exitCode === undefined && ev.outcomeIn ? fromTranscript(f, ev.outcomeIn) : undefined;
  const exitCode = ev.exitCode ?? read?.exitCode;
  const durationMs = ev.durationMs ?? read?.durationMs;
  const outcome = {
    ...(exitCode !== undefined ? { exitCode } : {}),
    ...(durationMs !== undefined ? { durationMs } : {}),
    ...(ev.failed && exitCode === undefined ? { note: "the tool reported a failure" } : {}),
  };
  for (const id of pending.eventIds) await gate.recordOutcome(id, outcome);
  if (pending.tree) await afterShell(f, ev, pending);
  return f.adapter.neutral(f.event);
}

/**
 * An after-tool event for a call the agent was refused. Claude Code reports a blocked call as a failure with the
 * refusal for its error, which is no outcome: nothing ran. An event that says it ran (success, or exit code 0) is
 * not the agent's tool reporting: a finding on the session naming the refusal, never that call's outcome.
 */
async function refusedCallDone(f: Face, ev: DoneEvent, decision: string): Promise<void> {
  if (ev.failed && ev.exitCode !== 0) return;
  const session = gateSession(f.ctx, ev.session);
  const said = ev.failed
    ? "a failure with exit code 0"
    : `success${ev.exitCode !== undefined ? `, exit code ${ev.exitCode}` : ""}`;
  await f.deps.gate().recordForgedOutcome({
    decision,
    surface: "hook",
    cwd: ev.cwd,
    ...(session ? { session } : {}),
    agent: f.adapter.agent,
    claimed: `${f.event}: ${said}`,
  });
}

/**
 * What a shell command or a web fetch handed back, read as the MCP proxy reads a tool's result: text shaped like
 * instructions to the model makes the session wary (its outward and destructive actions ask for a while).
 */
async function readResult(f: Face, session: string, output: string): Promise<void> {
  const found = detectInstructions(output);
  if (found.length === 0) return;
  const id = gateSession(f.ctx, session) ?? session;
  await f.deps.gate().markWary(id, `a tool result read like instructions (${instructionLabels(found)})`);
}

/**
 * After it ran: the files it wrote that no check saw meet the edit tools' checks. The write happened, so a verdict
 * that is not allow cannot refuse it: it is recorded, and in enforce the session is paused until a person looks.
 */
async function afterShell(f: Face, ev: DoneEvent, pending: PendingCall): Promise<void> {
  if (!pending.tree) return;
  const already = new Set(pending.checked ?? []);
  const written = (await writtenSince(f.ctx, pending.tree)).filter((p) => !already.has(p));
  if (written.length === 0) return;
  const gate = f.deps.gate();
  const session = gateSession(f.ctx, ev.session);
  const a = await gate.decide({
    surface: "hook",
    agent: f.adapter.agent,
    canAsk: false,
    ran: true,
    cwd: ev.cwd,
    ...(session ? { session } : {}),
    action: { name: "filesystem.write", class: "write", targets: written, arguments: {} },
  });
  if (a.enforceEffect === "allow" || !session) return;
  const shown = written.slice(0, 3).join(", ") + (written.length > 3 ? ` and ${written.length - 3} more` : "");
  const reason = `a shell command already wrote ${shown}, which the edit tools would have been ${a.enforceEffect === "deny" ? "refused" : "asked about"} (${a.reason}); the command had run before memnox could see it, so it is not undone: memnox rewind can put it back`;
  if (a.mode === "enforce") await gate.pauseSession(session, reason, "hook");
}

/**
 * The person's turn came round (a new prompt, the session's end) and a call the agent's own prompt asked about never
 * ran: no outcome arrived, so the answer was no (or the call was stopped). Recorded as a refusal, which is what
 * `memnox next` needs to hear: one refusal is enough to keep asking.
 */
export async function settleUnanswered(f: Face, ev: { cwd: string; session?: string }): Promise<void> {
  if (!ev.session || !f.adapter.asksInSession) return;
  const file = noticeFile(f.ctx.paths.notice, ev.session);
  const before = readNotice(file).calls;
  if (!Object.values(before).some((c) => c.asked)) return;
  const asked = updateNotice(file, f.ctx.clock.now(), (n) => {
    const kept = Object.fromEntries(Object.entries(n.calls).filter(([, c]) => !c.asked));
    const taken = Object.values(n.calls).flatMap((c) => (c.asked ? [c.asked] : []));
    return { next: { ...n, calls: kept }, result: taken };
  });
  const gate = f.deps.gate();
  for (const a of asked) {
    await gate.recordAnswer(a, answerOnly(f, ev, a), { grant: false, scope: "once", via: "agent-prompt" });
  }
}

/** The request of an asked call whose input the outcome payload no longer carries: its action as decided. */
function answerOnly(f: Face, ev: { cwd: string; session?: string }, asked: GateAnswer): GateRequest {
  const session = gateSession(f.ctx, ev.session);
  const action = asked.actions.find((a) => a.name !== "shell.execute") ?? asked.actions[0];
  return {
    surface: "hook",
    cwd: ev.cwd,
    agent: f.adapter.agent,
    canAsk: true,
    ...(session ? { session } : {}),
    ...(action ? { action } : {}),
  };
}

/** The last 256 KiB of the agent's transcript is where a call that just finished was written. */
const TAIL_BYTES = 256 * 1024;

function fromTranscript(f: Face, at: { transcript: string; callId: string }) {
  if (!f.adapter.outcomeFromTranscript || !at.transcript.endsWith(".jsonl")) return undefined;
  try {
    const fd = openSync(at.transcript, "r");
    try {
      const size = fstatSync(fd).size;
      const len = Math.min(size, TAIL_BYTES);
      const buf = Buffer.alloc(len);
      readSync(fd, buf, 0, len, size - len);
      return f.adapter.outcomeFromTranscript(buf.toString("utf8"), at.callId);
    } finally {
      closeSync(fd);
    }
  } catch {
    // No transcript (or none readable): the outcome row says nothing of an exit code rather than a wrong one.
    return undefined;
  }
}
