// `memnox memory consolidate`: the one operation that calls a model, and only the one configured.
import { MemnoxError } from "../../../../core/errors.ts";
import { consolidate } from "../../../../memory/consolidate.ts";
import { command } from "../../command.ts";
import { common, integer, type MemoryCli, oneOf, run, say } from "./_cli.ts";

export const consolidateCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "consolidate", description: "distil recent episodes into pages through the configured model" },
    args: {
      ...common,
      mode: { type: "string", description: "full (default: write, pending approval) or dry-run (propose only)" },
      "max-episodes": { type: "string", description: "at most this many recent episodes (default 10)" },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const max = integer(args, "max-episodes") ?? 10;
        if (max < 1) throw new MemnoxError("refused", "max_episodes must be >= 1");
        const r = await consolidate(store, {
          mode: oneOf(args, "mode", ["full", "dry-run"] as const) ?? "full",
          maxEpisodes: max,
        });
        say(cli, args, r, () => [
          `${r.episodes_processed} episodes read, ${r.nodes_created.length} pages ${r.dry_run ? "proposed" : "written"}`,
          ...r.nodes_created.map((n) => `  ${n.title} (${n.type}${n.status ? `, ${n.status}` : ""})`),
        ]);
        return 0;
      }),
  });
