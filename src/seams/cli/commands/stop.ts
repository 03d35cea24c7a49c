// `memnox stop --for 30m --reason …` and `memnox start`: protection off on purpose, on the record, and back on.
import { parseDuration } from "../../../core/duration.ts";
import type { Mode } from "../../../core/effect.ts";
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { personName } from "../../../state/identity.ts";
import { clearStop, readStop, writeStop } from "../../../state/stop.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { currentMode, recordState } from "./_state-record.ts";

export const stop: CommandFactory = (ctx) =>
  command({
    meta: { name: "stop", description: "turn protection off on this machine, on purpose and on the record" },
    args: {
      for: { type: "string", description: "how long until it comes back on by itself: 30m, 2h (required)" },
      reason: { type: "string", description: "why, in the words your team will read" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      if (!args.for) {
        throw new MemnoxError(
          "usage",
          "memnox stop needs --for",
          "protection that never comes back on is how a machine ends up unprotected: --for 30m",
        );
      }
      const now = ctx.clock.now();
      const until = new Date(now + parseDuration(args.for)).toISOString();
      const mode: Mode = currentMode(ctx);
      const record = {
        stoppedAt: new Date(now).toISOString(),
        until,
        by: personName(ctx.env),
        mode,
        ...(args.reason ? { reason: args.reason } : {}),
      };
      writeStop(ctx.paths.stop, record);
      recordState(
        ctx,
        "memnox.stop",
        `protection stopped until ${until} by ${record.by}${args.reason ? ` (${args.reason})` : ""}`,
      );
      emit(ctx, args.json, { stopped: record }, () => [
        `protection is stopped until ${until}: every seam lets everything through without ruling`,
        `"memnox start" turns it back on in ${mode} mode`,
      ]);
      return 0;
    },
  });

export const start: CommandFactory = (ctx) =>
  command({
    meta: { name: "start", description: "turn protection back on, in exactly the mode it was stopped in" },
    args: { json: { type: "boolean", description: "structured output" } },
    run({ args }) {
      return startProtection(ctx, args.json === true);
    },
  });

function startProtection(ctx: Context, json: boolean): number {
  const now = ctx.clock.now();
  const s = readStop(ctx.paths.stop);
  if (!s) {
    emit(ctx, json, { started: false, reason: "not stopped" }, () => ["protection was not stopped"]);
    return 0;
  }
  clearStop(ctx.paths.stop);
  if (Date.parse(s.until) <= now) {
    emit(ctx, json, { started: false, reason: "expired", until: s.until }, () => [
      `the stop by ${s.by} already ran out at ${s.until}; protection was already back on in ${s.mode} mode`,
    ]);
    return 0;
  }
  recordState(ctx, "memnox.start", `protection started again by ${personName(ctx.env)} in ${s.mode} mode`);
  emit(ctx, json, { started: true, mode: s.mode }, () => [`protection is back on in ${s.mode} mode`]);
  return 0;
}
