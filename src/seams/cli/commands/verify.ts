// `memnox verify [file]`: the ledger's hash chain (or an exported file, named or with -f) checked row by row, and
// against the tip kept outside the database: rows truncated, every row deleted, the database removed, triggers dropped.
import { MemnoxError } from "../../../core/errors.ts";
import { checkOutside, findingLines, missingLedger, recordFindings, tamperLines } from "../../../ledger/integrity.ts";
import { noLedgerLine, withLedger } from "../../../ledger/open.ts";
import { chainLines, fileLines } from "../../../ledger/read/chain-text.ts";
import { unwrittenCount } from "../../../ledger/recorder.ts";
import { machinePublicKey } from "../../../ledger/sign.ts";
import { verifyLedger } from "../../../ledger/verify.ts";
import { verifyFile } from "../../../ledger/verify-file.ts";
import { readKept } from "../../../wire/kept.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

export const verify: CommandFactory = (ctx) =>
  command({
    meta: { name: "verify", description: "check the ledger's hash chain, or an exported file" },
    args: {
      path: { type: "positional", required: false, description: "an export (jsonl, json or bundle) to check" },
      file: {
        type: "string",
        alias: "f",
        valueHint: "file",
        description: "an export (jsonl, json or bundle) to check",
      },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const key = machinePublicKey(ctx.paths);
      if (args.path && args.file && args.path !== args.file) {
        throw new MemnoxError("usage", `two files to verify: \`${args.path}\` and \`${args.file}\``, "name one");
      }
      const file = args.path || args.file;
      if (file) {
        const r = verifyFile(file, key);
        emit(ctx, args.json, r, () => fileLines(r));
        return r.ok ? 0 : 1;
      }
      const unwritten = unwrittenCount(ctx.paths);
      const note = unwritten
        ? [`${unwritten} row(s) could not be written at the time (${ctx.paths.ledgerUnwritten})`]
        : [];
      return withLedger(
        ctx,
        (ledger) => {
          const r = verifyLedger(ledger, key);
          const { tampered, notes } = checkOutside(ledger);
          // Rows the chain holds intact that still say somebody tried to mislead the record: listed, not "broken".
          const findings = recordFindings(ledger);
          const chain = r.chain === "intact" && tampered.length === 0 ? "intact" : "broken";
          const head =
            r.chain === "intact" && tampered.length > 0
              ? [`broken: the rows that remain verify, but the ledger was tampered with (${r.rows} row(s) now)`]
              : chainLines(r);
          emit(ctx, args.json, { ...r, chain, tampered, findings, notes, unwritten }, () => [
            ...head,
            ...tamperLines(tampered),
            ...findingLines(findings),
            ...notes,
            ...note,
          ]);
          return chain === "intact" ? 0 : 1;
        },
        () => {
          const gone = missingLedger(ctx.paths, readKept(ctx.paths.kept)?.setupAt || undefined);
          const empty = { rows: 0, anchoredOn: { kind: "empty" }, broken: null, unwritten, notes: [] };
          if (gone) {
            emit(ctx, args.json, { ...empty, chain: "broken", tampered: [gone] }, () => [
              `broken: ${gone.reason}`,
              ...note,
            ]);
            return 1;
          }
          emit(ctx, args.json, { ...empty, chain: "intact", tampered: [] }, () => [noLedgerLine(ctx), ...note]);
          return 0;
        },
      );
    },
  });
