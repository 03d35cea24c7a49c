// `memnox timeline`: what the agents did, in order, grouped by session; `--export` writes the rows for a range.
import { MemnoxError } from "../../../core/errors.ts";
import { writeFileAtomic } from "../../../io/files.ts";
import { noLedgerLine, withLedger } from "../../../ledger/open.ts";
import {
  collectExport,
  EXPORT_FORMATS,
  type ExportFormat,
  type ExportSet,
  renderExport,
} from "../../../ledger/read/export.ts";
import {
  buildTimeline,
  parseOnly,
  renderTimeline,
  type TimelineQuery,
  timelineJson,
} from "../../../ledger/read/timeline.ts";
import { windowFrom } from "../../../ledger/read/window.ts";
import { machineSigner } from "../../../ledger/sign.ts";
import type { Context } from "../../../ports/context.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { agentWord } from "./_agent-word.ts";

export const timeline: CommandFactory = (ctx) =>
  command({
    meta: { name: "timeline", description: "what the agents on this machine did, in order, grouped by session" },
    args: {
      since: { type: "string", description: "1h, 7d, an ISO date or instant, or all (default 1d; all for --export)" },
      until: { type: "string", description: "end of the range, the same forms as --since" },
      agent: { type: "string", description: "only this agent (its id, or the name memnox agents name gave it)" },
      session: { type: "string", description: "only this session" },
      only: { type: "string", valueHint: "allow|ask|deny|blocked", description: "only actions with this verdict" },
      export: { type: "string", valueHint: "jsonl|json|bundle", description: "write the rows instead of listing them" },
      out: { type: "string", valueHint: "file", description: "where --export writes (default stdout)" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const format = exportFormat(args.export);
      const query: TimelineQuery = {
        window: windowFrom(ctx.clock.now(), args.since ?? (format ? "all" : "1d"), args.until),
        ...(args.agent ? { agent: agentWord(ctx, args.agent) } : {}),
        ...(args.session ? { session: args.session } : {}),
        ...(args.only ? { only: parseOnly(args.only) } : {}),
      };
      if (format) return exportTo(ctx, format, query, args.out, Boolean(args.json));
      return withLedger(
        ctx,
        (ledger) => {
          const t = buildTimeline(ledger, query);
          emit(ctx, args.json, timelineJson(t), () => renderTimeline(t));
          return 0;
        },
        () => {
          emit(ctx, args.json, { range: query.window, count: 0, sessions: [], events: [] }, () => [noLedgerLine(ctx)]);
          return 0;
        },
      );
    },
  });

function exportFormat(v: string | undefined): ExportFormat | undefined {
  if (v === undefined) return undefined;
  if ((EXPORT_FORMATS as readonly string[]).includes(v)) return v as ExportFormat;
  throw new MemnoxError("usage", `\`--export ${v}\` is not one of ${EXPORT_FORMATS.join(", ")}`);
}

function exportTo(
  ctx: Context,
  format: ExportFormat,
  q: TimelineQuery,
  out: string | undefined,
  json: boolean,
): number {
  const set = withLedger(
    ctx,
    (ledger) => collectExport(ledger, q),
    () => {
      throw new MemnoxError("not_found", noLedgerLine(ctx));
    },
  );
  const text = renderExport(
    format,
    set,
    new Date(ctx.clock.now()).toISOString(),
    format === "bundle" ? machineSigner(ctx.paths) : undefined,
  );
  if (!out) {
    ctx.io.out(text);
    return 0;
  }
  writeFileAtomic(out, text);
  emit(ctx, json, { exported: exportSummary(format, out, set) }, () => [exportLine(format, out, set)]);
  return 0;
}

function exportSummary(format: ExportFormat, file: string, set: ExportSet) {
  return { format, file, count: set.rows.length, range: set.range, excluded: set.excluded, chain: set.chain.chain };
}

function exportLine(format: ExportFormat, file: string, set: ExportSet): string {
  const day = (iso: string | null) => (iso ? iso.slice(0, 10) : "the start");
  const signed = format === "bundle" ? ", signed" : "";
  return `${set.rows.length} event(s) from ${day(set.range.from)} to ${day(set.range.to)}${signed} -> ${file}`;
}
