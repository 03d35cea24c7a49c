// `memnox report --since 1d`: counted by agent, verdict and class, and what was redone after a failure.
import { withLedger } from "../../../ledger/open.ts";
import { joinEntries } from "../../../ledger/read/entries.ts";
import { buildReport, renderReport } from "../../../ledger/read/report.ts";
import { matches } from "../../../ledger/read/timeline.ts";
import { childrenOf, rowsIn, windowFrom } from "../../../ledger/read/window.ts";
import { emit } from "../output.ts";
import { type CommandFactory, command } from "../registry.ts";

export const report: CommandFactory = (ctx) =>
  command({
    meta: { name: "report", description: "what the agents did in a window, and what of it was redone" },
    args: {
      since: { type: "string", description: "1h, 7d, an ISO date or instant, or all (default 1d)" },
      until: { type: "string", description: "end of the window, the same forms as --since" },
      agent: { type: "string", description: "only this agent" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const window = windowFrom(ctx.clock.now(), args.since ?? "1d", args.until);
      const r = withLedger(
        ctx,
        (ledger) => {
          const rows = rowsIn(ledger, window);
          const late = window.until
            ? childrenOf(
                ledger,
                rows.filter((x) => x.kind === "decision").map((x) => x.id),
              )
            : [];
          const entries = joinEntries(rows, late).filter((e) => matches(e, args.agent ? { agent: args.agent } : {}));
          return buildReport(entries, window);
        },
        () => buildReport([], window),
      );
      emit(ctx, args.json, r, () => renderReport(r));
      return 0;
    },
  });
