// `memnox approvals`, `memnox approve <id>`, `memnox deny <id>`: held calls, answered from any terminal.
import { formatDuration } from "../../../core/duration.ts";
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { localPerson } from "../../../state/identity.ts";
import {
  type AnswerResult,
  answerHold,
  effectiveStatus,
  type Hold,
  holdsWaiting,
  listHolds,
  requesterGone,
} from "../../../state/pending.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

function view(h: Hold, now: number) {
  return {
    id: h.id,
    status: effectiveStatus(h, now),
    action: h.action,
    target: h.target ?? null,
    agent: h.agent ?? null,
    session: h.session ?? null,
    reason: h.reason,
    rule: h.rule?.name ?? null,
    waitedMs: now - Date.parse(h.createdAt),
    expiresAt: h.expiresAt,
    approvals: `${h.grants.length}/${h.minApprovals}`,
    approvers: h.approvers,
    approvedBy: h.grants.map((g) => g.by),
  };
}

export const approvals: CommandFactory = (ctx) =>
  command({
    meta: { name: "approvals", description: "calls held for a person to answer, and how long each has waited" },
    args: {
      all: { type: "boolean", description: "include answered and expired holds" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const now = ctx.clock.now();
      const holds = args.all ? listHolds(ctx.paths.pending) : holdsWaiting(ctx.paths.pending, now);
      const rows = holds.map((h) => view(h, now));
      emit(ctx, args.json, { approvals: rows }, () =>
        rows.length === 0
          ? ["nothing is waiting for an answer"]
          : rows.map(
              (r) =>
                `${r.id}  ${r.status}  waited ${formatDuration(r.waitedMs)}  ${r.agent ?? "?"} wants ${r.action}${r.target ? ` ${r.target}` : ""}: ${r.reason}${who(r.approvers, r.approvals)}`,
            ),
      );
      return 0;
    },
  });

/** Who may answer, when the rule names them, and how many answers it needs. */
function who(approvers: readonly string[], approvals: string): string {
  return approvers.length > 0 ? ` (answered by ${approvers.join(" or ")}: ${approvals})` : "";
}

interface Answered {
  readonly id: string;
  readonly outcome: AnswerResult["outcome"];
  readonly hold: Hold;
  /** What happened, in a person's words. */
  readonly words: string;
  /** 1 when the account may not answer this hold. */
  readonly code: number;
}

/**
 * One answer to a held call, from the OS account running this process (with its groups; USER and LOGNAME are the
 * caller's to set and are not read), put on the record: what `memnox approve`/`deny` and `memnox ui` both do.
 */
export function answerHeld(ctx: Context, id: string, grant: boolean, scope: "once" | "session"): Answered {
  const now = ctx.clock.now();
  const person = localPerson(ctx.env);
  const by = person.name;
  const result = answerHold(ctx.paths.pending, id, { by, groups: person.groups, grant, nowMs: now, scope });
  if (!result) throw new MemnoxError("not_found", `no held call \`${id}\``, "memnox approvals lists what is waiting");
  const words = describe(result, grant, by);
  if (result.outcome === "not-approver") {
    recordState(
      ctx,
      grant ? "memnox.approve" : "memnox.deny",
      `${by} tried to ${grant ? "approve" : "deny"} ${id} (${result.hold.action}), which only ${result.hold.approvers.join(", ")} may answer: it did not count`,
      "cli",
      result.hold.session,
    );
    return { id, outcome: result.outcome, hold: result.hold, words, code: 1 };
  }
  if (result.outcome !== "already" && result.outcome !== "duplicate") {
    recordState(
      ctx,
      grant ? "memnox.approve" : "memnox.deny",
      `${by} ${grant ? "approved" : "denied"} ${id} (${result.hold.action})`,
      "cli",
      // Named to the held call's session, so its replay shows who answered it once the hold is no longer waiting.
      result.hold.session,
      result.hold.decisionEventId,
    );
  }
  return { id, outcome: result.outcome, hold: result.hold, words, code: 0 };
}

function answer(ctx: Context, id: string, grant: boolean, session: boolean, json: boolean): number {
  const a = answerHeld(ctx, id, grant, session ? "session" : "once");
  emit(ctx, json, { id, outcome: a.outcome, hold: view(a.hold, ctx.clock.now()) }, () => [a.words]);
  return a.code;
}

function describe(r: AnswerResult, grant: boolean, by: string): string {
  const h = r.hold;
  switch (r.outcome) {
    case "already":
      return `${h.id} was already ${r.status}${r.status === "unattended" ? (requesterGone(h) ? " (what asked for it has exited, so nothing waits for an answer)" : " (nobody answered before it expired)") : ""}; nothing changed`;
    case "not-approver":
      return `${by} may not answer ${h.id}: its rule names ${h.approvers.join(", ")} (an account or a Unix group on this machine), so nothing changed (${h.grants.length}/${h.minApprovals}). memnox takes who answers from the account running it, not from USER or LOGNAME`;
    case "duplicate":
      return `${by} already approved ${h.id}; one person counts once (${h.grants.length}/${h.minApprovals})`;
    case "recorded":
      return `${by} approved ${h.id}; ${h.grants.length} of ${h.minApprovals} approvals so far`;
    case "decided":
      return grant
        ? `${h.id} approved by ${h.grants.map((g) => g.by).join(", ")}: the agent's retry of ${h.action} goes through once`
        : `${h.id} denied by ${by}: ${h.action} will not run`;
  }
}

export const approve: CommandFactory = (ctx) =>
  command({
    meta: { name: "approve", description: "release one held call; first answer wins" },
    args: {
      id: { type: "positional", description: "the hold id from memnox approvals" },
      session: { type: "boolean", description: "allow the same call for the rest of that session" },
      json: { type: "boolean", description: "structured output" },
    },
    run: ({ args }) => answer(ctx, args.id ?? "", true, args.session === true, args.json === true),
  });

export const deny: CommandFactory = (ctx) =>
  command({
    meta: { name: "deny", description: "refuse one held call" },
    args: {
      id: { type: "positional", description: "the hold id from memnox approvals" },
      json: { type: "boolean", description: "structured output" },
    },
    run: ({ args }) => answer(ctx, args.id ?? "", false, false, args.json === true),
  });
