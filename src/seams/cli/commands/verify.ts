// `memnox verify [file]`: the ledger's hash chain (or an exported file, named or with -f) checked row by row.
import { MemnoxError } from "../../../core/errors.ts";
import { noLedgerLine, withLedger } from "../../../ledger/open.ts";
import { chainLines, fileLines } from "../../../ledger/read/chain-text.ts";
import { unwrittenCount } from "../../../ledger/recorder.ts";
import { machinePublicKey } from "../../../ledger/sign.ts";
import { verifyLedger } from "../../../ledger/verify.ts";
import { verifyFile } from "../../../ledger/verify-file.ts";
import { emit } from "../output.ts";
import { type CommandFactory, command } from "../registry.ts";

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
          emit(ctx, args.json, { ...r, unwritten }, () => [...chainLines(r), ...note]);
          return r.chain === "intact" ? 0 : 1;
        },
        () => {
          emit(
            ctx,
            args.json,
            { chain: "intact", rows: 0, anchoredOn: { kind: "empty" }, broken: null, unwritten },
            () => [noLedgerLine(ctx), ...note],
          );
          return 0;
        },
      );
    },
  });
