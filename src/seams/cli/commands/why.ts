// `memnox why [id] [--verify]`: the recorded verdict explained; --verify replays it with its own time and rule set.

import { replayWith } from "../../../gate/replay.ts";
import { noLedgerLine, withLedgerAsync } from "../../../ledger/open.ts";
import { findEntry, nothingNotable, renderWhy, whyJson } from "../../../ledger/read/why.ts";
import type { Reevaluate } from "../../../ledger/reevaluate.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { agentWord } from "./_agent-word.ts";
import { emitVerified, VERIFY_ARGS } from "./_verified.ts";

/** The command with the engine port given, so tests can replay through a stand-in engine. */
export const whyWith =
  (evaluate: Reevaluate): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "why", description: "the rule, reason, alternative and evidence behind a verdict, as recorded" },
      args: {
        id: {
          type: "positional",
          required: false,
          description: "an event id or prefix (default: the last refusal or ask)",
        },
        agent: {
          type: "string",
          description: "the last refusal or ask of this agent (its id, or the name memnox agents name gave it)",
        },
        ...VERIFY_ARGS,
      },
      run: ({ args }) =>
        withLedgerAsync(
          ctx,
          async (ledger) => {
            const agent = args.agent ? agentWord(ctx, args.agent) : undefined;
            const entry = findEntry(ledger, args.id, undefined, "notable", agent);
            if (!entry) {
              emit(ctx, args.json, { event: null }, nothingNotable);
              return 0;
            }
            return emitVerified(ctx, args, { ledger, row: entry.row, evaluate }, whyJson(entry), () =>
              renderWhy(entry),
            );
          },
          () => {
            emit(ctx, args.json, { event: null }, () => [noLedgerLine(ctx)]);
            return 0;
          },
        ),
    });

export const why: CommandFactory = (ctx) => whyWith(replayWith(ctx.paths.home))(ctx);
