// `memnox report --since 1d`: counted by agent, verdict and class, and what was redone after a failure.
import { withLedger } from "../../../ledger/open.ts";
import { joinEntries } from "../../../ledger/read/entries.ts";
import { buildReport, renderReport } from "../../../ledger/read/report.ts";
import { matches } from "../../../ledger/read/timeline.ts";
import { grantedUnused, renderUnused } from "../../../ledger/read/unused.ts";
import { childrenOf, rowsIn, windowFrom } from "../../../ledger/read/window.ts";
import { loadRuleSet } from "../../../policy/load/index.ts";
import { readOverlays } from "../../../state/overlays.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

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
      // The allow rules in force here (enforcing ones: an observe-only allow lets nothing through) and every grant given.
      const allows = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths })
        .checked.filter((c) => c.applies)
        .flatMap((c) => c.rules)
        .filter((x) => x.decision.effect === "allow" && x.decision.mode !== "observe")
        .map((x) => ({ name: x.name, file: x.file }));
      const grants = readOverlays(ctx.paths.overlays);
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
          return { ...buildReport(entries, window), grantedUnused: grantedUnused(entries, allows, grants, window) };
        },
        () => ({ ...buildReport([], window), grantedUnused: grantedUnused([], allows, grants, window) }),
      );
      emit(ctx, args.json, r, () => [...renderReport(r), ...renderUnused(r.grantedUnused)]);
      return 0;
    },
  });
