// `memnox trace [id-prefix]`: one action end to end (the last one when no id is given), with the transcript tail when the session kept one.
import { MemnoxError } from "../../../core/errors.ts";
import { replayWith } from "../../../gate/replay.ts";
import { noLedgerLine, withLedgerAsync } from "../../../ledger/open.ts";
import { renderTrace, traceJson, traceOf } from "../../../ledger/read/trace.ts";
import { findEntry } from "../../../ledger/read/why.ts";
import type { Reevaluate } from "../../../ledger/reevaluate.ts";
import { type CommandFactory, command } from "../command.ts";
import { emitVerified, VERIFY_ARGS } from "./_verified.ts";

/** The command with the engine port given, so tests can replay through a stand-in engine. */
export const traceWith =
  (evaluate: Reevaluate): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "trace", description: "one action end to end: decision, rule, exit code, duration, args digest" },
      args: {
        id: { type: "positional", required: false, description: "an event id; a prefix is enough (default: the last)" },
        ...VERIFY_ARGS,
      },
      run: ({ args }) =>
        withLedgerAsync(
          ctx,
          async (ledger) => {
            const entry = findEntry(ledger, args.id, undefined, "any");
            if (!entry) {
              throw new MemnoxError(
                "not_found",
                args.id ? `no event \`${args.id}\` in the ledger` : "nothing has been decided yet",
              );
            }
            const t = traceOf(entry, ctx.paths);
            return emitVerified(ctx, args, { ledger, row: entry.row, evaluate }, traceJson(t), () => renderTrace(t));
          },
          () => {
            throw new MemnoxError("not_found", noLedgerLine(ctx));
          },
        ),
    });

export const trace: CommandFactory = (ctx) => traceWith(replayWith(ctx.paths.home))(ctx);
