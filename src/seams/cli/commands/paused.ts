// `memnox paused` (sessions memnox is holding, and why) and `memnox resume --by <name> [session]` (lift a session's
// wariness or pause, on the record).
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { liftFacts } from "../../../state/overlays.ts";
import { type PausedSession, pausedLines, pausedSessions, SESSION_HOLDS } from "../../../state/paused.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { callerSeat } from "../seat-guard.ts";
import { recordState } from "./_state-record.ts";

function view(p: PausedSession) {
  return {
    session: p.session,
    facts: p.facts.map((f) => ({
      kind: f.kind,
      reason: f.reason ?? null,
      setAt: f.setAt,
      expiresAt: f.expiresAt,
      by: f.by ?? null,
    })),
    held: p.held.map((h) => ({
      id: h.id,
      action: h.action,
      target: h.target ?? null,
      agent: h.agent ?? null,
      reason: h.reason,
      expiresAt: h.expiresAt,
    })),
  };
}

export const paused: CommandFactory = (ctx) =>
  command({
    meta: { name: "paused", description: "sessions memnox is holding: wary, paused, or with calls waiting, and why" },
    args: { json: { type: "boolean", description: "structured output" } },
    run({ args }) {
      const now = ctx.clock.now();
      const list = pausedSessions(ctx.paths, now);
      emit(ctx, args.json, { sessions: list.map(view) }, () => {
        if (list.length === 0) return ["no session is held: none is wary or paused, and no call waits for a person"];
        // How to answer is said only at a person's own terminal: an agent that lists its holds never reads it.
        const person = list.length > 0 && callerSeat(ctx).kind === "person";
        const lines = list.flatMap((p) => [
          `${p.session ?? "(no session)"}`,
          ...pausedLines(p, now, person).map((l) => `  ${l}`),
        ]);
        const wary = list.some((p) => p.facts.length > 0);
        return [
          ...lines,
          ...(wary && person ? ["memnox resume --by <name> <session> lets a wary or paused session carry on"] : []),
        ];
      });
      return 0;
    },
  });

/** The session `given` names among those held back (an unambiguous prefix will do), or the only one. */
function pick(candidates: readonly string[], given: string | undefined): string | undefined {
  if (given) {
    const hits = candidates.includes(given) ? [given] : candidates.filter((s) => s.startsWith(given));
    if (hits.length > 1) {
      throw new MemnoxError("usage", `\`${given}\` matches ${hits.length} sessions`, hits.join(", "));
    }
    return hits[0];
  }
  if (candidates.length > 1) {
    throw new MemnoxError(
      "usage",
      `${candidates.length} sessions are held back; name one`,
      `memnox resume --by <name> <session>: ${candidates.join(", ")}`,
    );
  }
  return candidates[0];
}

export const resume: CommandFactory = (ctx: Context) =>
  command({
    meta: { name: "resume", description: "let a wary or paused session carry on; who lifted it stays in the record" },
    args: {
      session: {
        type: "positional",
        required: false,
        description: "the session id or a prefix (default: the only one)",
      },
      by: { type: "string", valueHint: "name", description: "who lets it carry on (required)" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const by = args.by?.trim();
      if (!by) {
        throw new MemnoxError("usage", "memnox resume needs --by <name>", "who lifted it stays in the record");
      }
      const now = ctx.clock.now();
      const held = pausedSessions(ctx.paths, now);
      const candidates = held.filter((p) => p.facts.length > 0 && p.session !== null).map((p) => p.session ?? "");
      const session = pick(candidates, args.session);
      if (!session) {
        const named = args.session;
        const waiting = named ? held.filter((p) => p.session?.startsWith(named)).flatMap((p) => p.held) : [];
        throw new MemnoxError(
          "not_found",
          named
            ? `session \`${named}\` is not held: it is neither wary nor paused, so there is nothing to resume`
            : "no session is held: none is wary or paused, so there is nothing to resume",
          waiting.length > 0
            ? `${waiting.length} call(s) of it wait for a person instead: memnox approve ${waiting[0]?.id}`
            : "memnox paused lists what is held, and why",
        );
      }
      const lifted = SESSION_HOLDS.flatMap((kind) => liftFacts(ctx.paths.overlays, kind, session, by, now));
      const kinds = [...new Set(lifted.map((f) => f.kind))];
      recordState(
        ctx,
        "memnox.resume",
        `${by} resumed session ${session}, lifting ${kinds.join(" and ")}`,
        "cli",
        session,
      );
      const waiting = held.find((p) => p.session === session)?.held.length ?? 0;
      emit(ctx, args.json, { session, by, lifted }, () => [
        `${session} carries on: ${kinds.join(" and ")} lifted by ${by}`,
        ...(waiting > 0 ? [`${waiting} call(s) of it still wait for a person: memnox approvals lists them`] : []),
      ]);
      return 0;
    },
  });
