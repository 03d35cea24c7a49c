// `memnox purge [--dry-run]`: drop history past retentionDays, leaving a signed anchor so the chain still verifies.
import { withLedger } from "../../../ledger/open.ts";
import { type PurgePlan, planPurge, purge as purgeLedger } from "../../../ledger/purge.ts";
import { clock } from "../../../ledger/read/format.ts";
import { machineSigner } from "../../../ledger/sign.ts";
import { expiredTranscripts, removeTranscripts } from "../../../ledger/transcripts.ts";
import { readConfig } from "../../../state/config.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

const DAY_MS = 86_400_000;

export const purge: CommandFactory = (ctx) =>
  command({
    meta: { name: "purge", description: "drop history past the configured retention (retentionDays)" },
    args: {
      "dry-run": { type: "boolean", description: "say what would go, change nothing" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const now = ctx.clock.now();
      const { retentionDays } = readConfig(ctx.paths.config);
      const cutoff = new Date(now - retentionDays * DAY_MS).toISOString();
      const dryRun = Boolean(args["dry-run"]);
      const transcripts = expiredTranscripts(ctx.paths, Date.parse(cutoff));
      const result = withLedger(
        ctx,
        (ledger) => {
          if (dryRun) return { ...planPurge(ledger, cutoff), anchors: [] };
          return purgeLedger(ledger, machineSigner(ctx.paths), cutoff, {
            now: new Date(now).toISOString(),
            retentionDays,
          });
        },
        () => ({ cutoff, rows: 0, firstSeq: null, throughSeq: null, from: null, to: null, anchors: [] }),
      );
      if (!dryRun) removeTranscripts(transcripts);
      const value = { retentionDays, dryRun, ...result, transcripts: transcripts.map((t) => t.file) };
      emit(ctx, args.json, value, () => words(result, retentionDays, dryRun, transcripts.length));
      return 0;
    },
  });

function words(
  p: PurgePlan & { anchors: readonly { id: string; seq: number }[] },
  days: number,
  dry: boolean,
  t: number,
): string[] {
  const older = `older than ${days} day(s) (before ${clock(p.cutoff)})`;
  const files = t ? [`${dry ? "would remove" : "removed"} ${t} transcript(s) ${older}`] : [];
  if (p.rows === 0) return [`nothing in the ledger is ${older}`, ...files];
  const span = `${p.rows} row(s) from ${clock(p.from ?? "")} to ${clock(p.to ?? "")}, ${older}`;
  if (dry) return [`would drop ${span}`, ...files];
  const last = p.anchors.at(-1);
  return [
    `dropped ${span}`,
    `the chain is now anchored on row ${(p.throughSeq ?? 0) + 1}${last ? ` (anchor ${last.id}, row ${last.seq})` : ""}; memnox verify checks it`,
    ...files,
  ];
}
