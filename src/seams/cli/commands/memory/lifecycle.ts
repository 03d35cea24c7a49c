// `memnox memory forget | approve | merge`: retiring and governing pages.
import { approve, FORGET_MODES, forget, merge } from "../../../../memory/pages/lifecycle.ts";
import { command } from "../../registry.ts";
import { common, type MemoryCli, oneOf, run, say, selector, selectorArgs } from "./_cli.ts";

export const forgetCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "forget",
      description: "hard deletes; soft hides now; decay hides after a half-life; archive retires",
    },
    args: {
      ...common,
      ...selectorArgs,
      slug: { type: "positional", description: "the page", required: true },
      mode: { type: "string", description: "hard (default), soft, decay or archive" },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const mode = oneOf(args, "mode", FORGET_MODES) ?? "hard";
        const r = forget(store, String(args.slug), mode, await selector(cli, args));
        say(cli, args, r, () => [
          `${r.slug}: ${mode === "hard" ? "deleted" : mode === "archive" ? "archived" : `hidden from ${r.valid_until}`}`,
        ]);
        return 0;
      }),
  });

export const approveCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "approve", description: "make a pending page recallable" },
    args: { ...common, ...selectorArgs, slug: { type: "positional", description: "the page", required: true } },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const r = approve(store, String(args.slug), await selector(cli, args));
        say(cli, args, r, () => [`${r.slug}: ${r.status}`]);
        return 0;
      }),
  });

export const mergeCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "merge", description: "append the source's body to the target and mark the source superseded" },
    args: {
      ...common,
      ...selectorArgs,
      target: { type: "positional", description: "the page that stays", required: true },
      source: { type: "positional", description: "the page merged into it", required: true },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const r = merge(store, String(args.target), String(args.source), await selector(cli, args));
        say(cli, args, r, () => [`${r.source} merged into ${r.target}; ${r.source} is superseded`]);
        return 0;
      }),
  });
