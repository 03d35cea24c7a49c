// `memnox collisions [--days 7]`: two agents in one file, and two agents building one thing, from the ledger.

import { MemnoxError } from "../../../core/errors.ts";
import { withLedger } from "../../../ledger/open.ts";
import { buildCollisions, renderCollisions } from "../../../ledger/read/collisions.ts";
import { childrenOf, rowsIn, windowFrom } from "../../../ledger/read/window.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

export const collisions: CommandFactory = (ctx) =>
  command({
    meta: { name: "collisions", description: "two agents in one file, and two agents building one thing" },
    args: {
      days: { type: "string", description: "the window in days (default 7)" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const days = Number(args.days ?? "7");
      if (!Number.isInteger(days) || days < 1)
        throw new MemnoxError("usage", `--days must be a whole number of 1 or more, not \`${args.days}\``);
      const w = windowFrom(ctx.clock.now(), `${days}d`);
      const c = withLedger(
        ctx,
        (l) => {
          const rows = rowsIn(l, w);
          return buildCollisions(
            rows,
            childrenOf(
              l,
              rows.filter((r) => r.kind === "decision").map((r) => r.id),
            ),
            w,
          );
        },
        () => buildCollisions([], [], w),
      );
      emit(ctx, args.json, c, () => renderCollisions(c));
      return 0;
    },
  });
