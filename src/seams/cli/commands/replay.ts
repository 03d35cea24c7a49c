// `memnox replay [session]`: the session step by step, the five actions before each failure or refusal marked, with
// its held calls still waiting, its pauses and its milestones in the same column.

import { MemnoxError } from "../../../core/errors.ts";
import { noLedgerLine, withLedger } from "../../../ledger/open.ts";
import { buildReplay, pickSession, renderReplay, replayJson } from "../../../ledger/read/replay.ts";
import { withAsides } from "../../shared/replay-asides.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

export const replay: CommandFactory = (ctx) =>
  command({
    meta: { name: "replay", description: "one session step by step, and what came right before it failed" },
    args: {
      session: { type: "positional", required: false, description: "a session id or prefix (default: the latest)" },
      last: { type: "boolean", description: "the most recent session" },
      json: { type: "boolean", description: "structured output" },
    },
    async run({ args }) {
      if (args.last && args.session) throw new MemnoxError("usage", "give a session or --last, not both");
      const fromLedger = withLedger(
        ctx,
        (ledger) => buildReplay(ledger, pickSession(ledger, args.last ? undefined : args.session)),
        () => {
          throw new MemnoxError("not_found", noLedgerLine(ctx));
        },
      );
      const r = await withAsides(ctx, fromLedger);
      emit(ctx, args.json, replayJson(r), () => renderReplay(r));
      return 0;
    },
  });
