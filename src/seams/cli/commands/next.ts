// `memnox next`: what you could safely stop being asked about, from what you have already approved; `--hand-over`
// writes the allow rules for what is ready. `--agent`, `--role`, `--roles` read the rules forwards instead.
import { MemnoxError } from "../../../core/errors.ts";
import { withLedger } from "../../../ledger/open.ts";
import { buildNext, type NextReport, renderNext } from "../../../ledger/read/next.ts";
import { rowsIn, windowFrom } from "../../../ledger/read/window.ts";
import type { LedgerRow } from "../../../ledger/row.ts";
import type { Context } from "../../../ports/context.ts";
import { confirm } from "../../shared/terminal.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, printJson, printLines } from "../output.ts";
import { type HandOverPlan, planHandOver, writeHandOver } from "./_hand-over.ts";
import { everyRole, forwards, renderForwards, renderRoles } from "./_next-agent.ts";
import { recordState } from "./_state-record.ts";

function readNext(ctx: Context, since: string): { report: NextReport; rows: Map<string, LedgerRow> } {
  const w = windowFrom(ctx.clock.now(), since);
  const rows = withLedger(
    ctx,
    (l) => rowsIn(l, w),
    () => [],
  );
  return { report: buildNext(rows, w), rows: new Map(rows.map((r) => [r.id, r])) };
}

function planLines(plan: HandOverPlan): string[] {
  return [
    ...plan.files.flatMap((f) => [...f.diff, ""]),
    ...plan.skipped.map(
      (s) => `not handed over: ${s.action}${s.targets.length ? ` ${s.targets.join(" ")}` : ""}: ${s.why}`,
    ),
  ];
}

async function handOver(ctx: Context, since: string, yes: boolean, json: boolean): Promise<number> {
  const { report, rows } = readNext(ctx, since);
  const plan = planHandOver(ctx, report.ready, rows);
  const changes = plan.files.filter((f) => f.diff.length > 0);
  if (changes.length === 0) {
    emit(ctx, json, { handedOver: [], skipped: plan.skipped, written: [] }, () => [
      report.ready.length === 0
        ? "nothing is ready to hand over yet (memnox next shows what is close)"
        : "nothing to write: every ready action already proceeds, or no rule could let it through",
      ...planLines(plan),
    ]);
    return 0;
  }
  if (!json) printLines(ctx, ["memnox next --hand-over would write:", "", ...planLines(plan)]);
  const agreed = yes || (!json && ctx.io.stdinIsTTY ? confirm("Write these rules?") === true : false);
  if (!agreed) {
    const nothing = {
      handedOver: plan.rules,
      skipped: plan.skipped,
      written: [],
      diff: changes.flatMap((f) => f.diff),
    };
    if (json) printJson(ctx, nothing);
    else printLines(ctx, ["nothing written: say yes at a terminal, or pass --yes"]);
    return 1;
  }
  const done = writeHandOver(ctx, plan, report.ready, rows);
  recordState(
    ctx,
    "memnox.next-hand-over",
    `handed over ${plan.rules.map((r) => r.action).join(", ")} (rules ${plan.rules.map((r) => r.rule).join(", ")}) in ${done.written.join(", ")}`,
  );
  emit(
    ctx,
    json,
    {
      handedOver: plan.rules,
      skipped: plan.skipped,
      written: done.written,
      proceeds: done.proceeds,
      stillAsks: done.stillAsks,
      diff: changes.flatMap((f) => f.diff),
    },
    () => [
      `wrote ${plan.rules.length} rule(s) into ${done.written.join(", ")} (the file before is kept under ~/.memnox/backup/protect/)`,
      done.stillAsks.length === 0
        ? "read back: the next such call proceeds without a question"
        : `read back, but these still ask: ${done.stillAsks.join(", ")}`,
    ],
  );
  return done.stillAsks.length === 0 ? 0 : 1;
}

export const next: CommandFactory = (ctx) =>
  command({
    meta: { name: "next", description: "what you could safely stop being asked about, from what you have approved" },
    args: {
      since: { type: "string", description: "the window read back: 30d (default), 7d, an ISO date" },
      "hand-over": { type: "boolean", description: "write the allow rules for what is ready, after a diff and a yes" },
      yes: { type: "boolean", description: "with --hand-over: write without the question" },
      agent: { type: "string", description: "what this agent would do on its own, and what would still ask" },
      role: { type: "string", description: "the same for a job the rules name (match.roles)" },
      roles: { type: "boolean", description: "every role the rules name, with its counts" },
      json: { type: "boolean", description: "structured output" },
    },
    async run({ args }) {
      const since = args.since ?? "30d";
      const json = args.json === true;
      if (args.roles) {
        const r = await everyRole(ctx);
        emit(ctx, json, r, () => renderRoles(r));
        return 0;
      }
      if (args.agent !== undefined || args.role !== undefined) {
        if (args["hand-over"]) throw new MemnoxError("usage", "--hand-over reads the ledger, not --agent or --role");
        const f = await forwards(ctx, {
          ...(args.agent !== undefined ? { agent: args.agent } : {}),
          ...(args.role !== undefined ? { role: args.role } : {}),
        });
        emit(ctx, json, f, () => renderForwards(f));
        return 0;
      }
      if (args["hand-over"]) return handOver(ctx, since, args.yes === true, json);
      if (args.yes) throw new MemnoxError("usage", "--yes goes with --hand-over", "memnox next --hand-over --yes");
      const { report } = readNext(ctx, since);
      emit(ctx, json, report, () => renderNext(report));
      return 0;
    },
  });
