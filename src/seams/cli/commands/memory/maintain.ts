// `memnox memory status | info | rebuild-index | watch | verify`: keeping the disposable parts honest.
import { resolve } from "node:path";
import { MemnoxError } from "../../../../core/errors.ts";
import { isTimestamp, timestampProblem } from "../../../../memory/format/time.ts";
import { applyDecay } from "../../../../memory/pages/decay.ts";
import { rebuildIndex } from "../../../../memory/pages/rebuild.ts";
import { info, status } from "../../../../memory/pages/status.ts";
import { verify } from "../../../../memory/pages/verify.ts";
import { verifyArchive } from "../../../../memory/portability/backup.ts";
import { command } from "../../command.ts";
import { common, flag, integer, type MemoryCli, run, say } from "./_cli.ts";

export const statusCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "status", description: "index freshness, last capture per harness, pending and archived counts" },
    args: { ...common },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const s = status(store);
        say(cli, args, s, () => [
          `store: ${s.dir}`,
          `index: ${s.index.fresh ? "fresh" : "stale"} (${s.index.rows} rows, ${s.index.pages_on_disk} pages; ${s.index.missing} missing, ${s.index.changed} changed, ${s.index.orphaned} orphaned)`,
          `pages: ${Object.entries(s.statuses)
            .map(([k, n]) => `${n} ${k}`)
            .join(", ")}`,
          ...Object.entries(s.last_capture).map(([h, at]) => `last capture (${h}): ${at}`),
          ...(s.zero_yield_consolidations
            ? [`zero-yield consolidations in a row: ${s.zero_yield_consolidations}`]
            : []),
        ]);
        return 0;
      }),
  });

export const infoCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "info", description: "counts, index state, last rebuild" },
    args: { ...common },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const i = info(store, cli.ctx.version);
        say(cli, args, i, () => [
          `store: ${i.dir}`,
          `pages: ${i.pages} (${
            Object.entries(i.by_type)
              .map(([t, n]) => `${n} ${t}`)
              .join(", ") || "none"
          })`,
          `transcripts: ${i.transcripts}`,
          `index: ${i.index.exists ? `${i.index.rows} rows, ${i.index.size_bytes} bytes, rebuilt ${i.index.last_rebuild ?? "never"}` : "not built"}`,
        ]);
        return 0;
      }),
  });

export const rebuildCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "rebuild-index",
      description: "re-index changed pages and regenerate navigation; --force from scratch",
    },
    args: { ...common, force: { type: "boolean", description: "drop the index and rebuild every row" } },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const r = rebuildIndex(store, { force: args.force === true });
        const defects = Object.entries(r.navigation_repaired).map(([k, n]) => `${n} ${k}`);
        say(cli, args, r, () => [
          `indexed ${r.nodes_indexed}, unchanged ${r.nodes_skipped}, removed ${r.nodes_removed}, malformed ${r.nodes_errored} (${r.duration_ms} ms)`,
          ...(r.content_hashes_refreshed
            ? [`content hashes refreshed: ${r.content_hashes_refreshed} (${r.refreshed.join(", ")})`]
            : []),
          `navigation: ${defects.length ? `repaired ${defects.join(", ")}` : "current"}`,
          ...Object.entries(r.folders).map(([folder, n]) => `  ${folder}: ${n}`),
          ...r.navigation_defects.map((d) => `  ${d}`),
          ...r.errors.map((e) => `  ${e}`),
        ]);
        // memex reports malformed pages and exits 0: one bad hand edit never fails a rebuild.
        return 0;
      }),
  });

export const watchCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "watch", description: "poll for hand-edited pages and re-index them" },
    args: {
      ...common,
      interval: { type: "string", description: "seconds between passes (default 60)" },
      "poll-interval": { type: "string", description: "memex's name for --interval" },
      once: { type: "boolean", description: "one pass, then exit" },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const seconds = integer(args, "interval") ?? integer(args, "poll-interval") ?? 60;
        if (seconds < 1) throw new MemnoxError("refused", "--interval must be at least 1 second");
        const pass = () => {
          const r = rebuildIndex(store);
          if (r.nodes_indexed || r.nodes_removed || r.nodes_errored || args.once)
            say(cli, args, r, () => [
              `indexed ${r.nodes_indexed}, removed ${r.nodes_removed}, malformed ${r.nodes_errored}`,
            ]);
        };
        pass();
        if (args.once) return 0;
        await new Promise<void>((resolve) => {
          const timer = setInterval(pass, seconds * 1000);
          const stop = () => {
            clearInterval(timer);
            resolve();
          };
          process.once("SIGINT", stop);
          process.once("SIGTERM", stop);
        });
        return 0;
      }),
  });

export const decayCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "decay",
      description:
        "lower the importance of pages recall has not returned for a while ([recency_decay]; knowledge never ages)",
    },
    args: { ...common, "dry-run": { type: "boolean", description: "say what would change, change nothing" } },
    run: ({ args }) =>
      run(cli, args, (store) => {
        const changes = applyDecay(store, { dryRun: args["dry-run"] === true });
        say(cli, args, changes, () =>
          changes.length
            ? changes.map((c) => `${c.slug}: importance ${c.old} -> ${c.new}`)
            : ["no page's importance moves"],
        );
        return 0;
      }),
  });

export const verifyCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "verify", description: "deterministic checks for CI; exit 1 when one fails" },
    args: {
      ...common,
      archive: { type: "positional", required: false, description: "check a backup archive instead of the store" },
      since: { type: "string", description: "also report recall and write activity since this UTC time" },
      "require-recall": { type: "boolean", description: "fail without recall activity since --since" },
      "require-write": { type: "boolean", description: "fail without a write since --since" },
    },
    run: ({ args }) =>
      run(cli, args, (store) => {
        if (typeof args.archive === "string" && args.archive) {
          const a = verifyArchive(resolve(cli.ctx.cwd, args.archive));
          say(cli, args, a, () => [
            ...a.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.check}: ${c.detail}`),
            a.ok ? `archive: ok (${a.file_counts.pages} pages)` : "archive: failed",
          ]);
          return a.ok ? 0 : 1;
        }
        const since = flag(args, "since");
        if (since !== undefined && !isTimestamp(since, true))
          throw new MemnoxError("usage", timestampProblem("--since", since, true));
        const r = verify(store, {
          ...(since ? { since } : {}),
          requireRecall: args["require-recall"] === true,
          requireWrite: args["require-write"] === true,
        });
        say(cli, args, r, () => [
          ...r.checks.map((c) => `${c.ok ? "ok  " : "FAIL"} ${c.check}: ${c.detail}`),
          ...r.warnings.map((w) => `warning: ${w}`),
          r.ok ? "verify: ok" : "verify: failed",
        ]);
        return r.ok ? 0 : 1;
      }),
  });
