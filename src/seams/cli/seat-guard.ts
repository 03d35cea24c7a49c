// The CLI's own check that nothing run from an agent's seat loosens governance in enforce. The gate already refuses
// such a command where an agent typed it (hook, governed shell); this holds for the ones no seam saw (a script, a
// wrapper the resolver could not read), by asking who is calling: the variables agents and memnox's seams set, and the
// process ancestry, which an agent cannot unset.
import { MemnoxError } from "../../core/errors.ts";
import { type Seat, seatOf, selfBinary } from "../../gate/seat.ts";
import { createRecorder } from "../../ledger/index.ts";
import type { Context } from "../../ports/context.ts";
import { type Loosening, memnoxCommand, memnoxLoosens } from "../../resolve/commands/memnox.ts";
import { type Config, readConfig } from "../../state/config.ts";
import { personName } from "../../state/identity.ts";

/** The caller's seat, read once: the ancestry is walked only when a loosening command needs the answer. */
export function callerSeat(ctx: Context): Seat {
  return seatOf(ctx.env, ctx.processes?.ancestry(), selfBinary(ctx));
}

function settingsInForce(ctx: Context): Config | undefined {
  try {
    return readConfig(ctx.paths.config);
  } catch {
    return undefined;
  }
}

/** Refuses, with a reason the person reads, a loosening command started from an agent's seat in enforce. */
export function guardSeat(ctx: Context, words: readonly string[]): void {
  const c = memnoxCommand(words);
  const config = settingsInForce(ctx);
  // A config that cannot be read leaves the mode unknown: held to enforce, as the gate holds it.
  const now = config ?? { mode: "enforce" as const, failOpen: false };
  const loosens = memnoxLoosens(
    { name: c.action, class: c.class, targets: c.setting ? [c.setting.name, c.setting.value] : [] },
    now,
  );
  // A refusal's code is for a person in any mode: a seam of its own can refuse while the machine only observes.
  if (!loosens || (now.mode !== "enforce" && c.action !== "memnox.allow-once")) return;
  const seat = callerSeat(ctx);
  if (seat.kind === "person") return;
  record(ctx, c.action, loosens, seat);
  throw new MemnoxError(
    "refused",
    `\`${loosens.command}\` was not run: it ${loosens.does}, and it was started from an agent's seat (${seat.why}). In enforce, nothing an agent runs may loosen the governance it runs under`,
    "if you are the person this machine belongs to and you mean it, run it yourself, in your own terminal",
  );
}

function record(ctx: Context, operation: string, l: Loosening, seat: Seat): void {
  using recorder = createRecorder(ctx.paths, (t) => ctx.io.err(t));
  recorder.record({
    kind: "decision",
    occurredAt: new Date(ctx.clock.now()).toISOString(),
    surface: "cli",
    operation,
    classes: ["destructive"],
    effect: "deny",
    enforceEffect: "deny",
    mode: "enforce",
    governed: true,
    reason: `${l.command} refused from an agent's seat: ${seat.why}`,
    cwd: ctx.cwd,
    ...(ctx.env.MEMNOX_SESSION ? { session: ctx.env.MEMNOX_SESSION } : {}),
    ...(ctx.env.MEMNOX_AGENT_NAME ? { agent: ctx.env.MEMNOX_AGENT_NAME } : {}),
    detail: { source: "seat", by: personName(ctx.env) },
  });
}
