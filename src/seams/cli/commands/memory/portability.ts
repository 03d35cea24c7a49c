// `memnox memory backup | restore | export | import`: the store as one archive or one JSON document.
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { MemnoxError } from "../../../../core/errors.ts";
import { backup, restore } from "../../../../memory/portability/backup.ts";
import { exportDocument, exportNodes, importNodes } from "../../../../memory/portability/export.ts";
import { command } from "../../command.ts";
import { common, type MemoryCli, run, say } from "./_cli.ts";

const path = (cli: MemoryCli, p: unknown) => resolve(cli.ctx.cwd, String(p));

export const backupCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "backup", description: "pages, transcripts and an index snapshot in one tar.gz" },
    args: {
      ...common,
      output: { type: "string", description: "the archive to write", required: true },
      index: {
        type: "boolean",
        default: true,
        description: "include an index snapshot (--no-index leaves it out; restore rebuilds it)",
        negativeDescription: "leave the index snapshot out",
      },
      "mem-db": {
        type: "boolean",
        default: true,
        description: "memex's name for --index",
        negativeDescription: "memex's name for --no-index",
      },
    },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const r = backup(store, path(cli, args.output), {
          index: args.index !== false && args["mem-db"] !== false,
          version: cli.ctx.version,
        });
        say(cli, args, r, () => [`wrote ${r.archive_path} (${r.size_bytes} bytes, ${r.file_counts.pages} pages)`]);
        return 0;
      }),
  });

export const restoreCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "restore", description: "check every member, move current data aside, unpack, rebuild the index" },
    args: { ...common, input: { type: "string", description: "the archive to restore", required: true } },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const r = restore(store, path(cli, args.input));
        say(cli, args, r, () => [
          `restored ${r.file_counts.pages} pages`,
          ...(r.previous_backup_dir ? [`previous data kept in ${r.previous_backup_dir}`] : []),
          ...r.warnings.map((w) => `warning: ${w}`),
        ]);
        return 0;
      }),
  });

export const exportCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "export", description: "every page as one JSON node document (printed; --output also writes it)" },
    args: { ...common, output: { type: "string", description: "also write the document to this file" } },
    run: ({ args }) =>
      run(cli, args, (store) => {
        // memex prints the document either way; --output writes it as well.
        const d =
          typeof args.output === "string" && args.output
            ? exportNodes(store, path(cli, args.output))
            : exportDocument(store);
        cli.ctx.io.out(d.text);
        for (const s of d.skipped) cli.ctx.io.err(`memnox: skipped ${s.path}: ${s.message}\n`);
        return 0;
      }),
  });

export const importCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "import", description: "write the nodes of an export; invalid entries are skipped and reported" },
    args: { ...common, input: { type: "string", description: "the JSON file to read", required: true } },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const file = path(cli, args.input);
        let text: string;
        try {
          text = readFileSync(file, "utf8");
        } catch (e) {
          throw new MemnoxError(
            "refused",
            `cannot read import file: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`,
            `\`${String(args.input)}\``,
          );
        }
        const r = importNodes(store, text, String(args.input));
        say(cli, args, r, () => [
          `imported ${r.imported}`,
          ...r.skipped.map((s) => `skipped (no slug): ${s}`),
          ...r.errors.map((e) => `error: ${e}`),
        ]);
        return 0;
      }),
  });
