// `memnox memory forget | approve | merge`: retiring and governing pages.

import { opt } from "../../../../memory/format/opt.ts";
import { forgetOp, selectorOf } from "../../../../memory/ops.ts";
import { approve, FORGET_MODES, merge } from "../../../../memory/pages/lifecycle.ts";
import { command } from "../../command.ts";
import { common, flag, type MemoryCli, oneOf, opsDeps, run, say, selectorArgs } from "./_cli.ts";

type Flags = Record<string, unknown>;

/** The page a slug means when it names more than one: --scope, and --project-id with it. */
function where(args: Flags) {
  return {
    ...opt("scope", oneOf(args, "scope", ["global", "project"] as const)),
    ...opt("project_id", flag(args, "project-id")),
  };
}

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
      "valid-until": { type: "string", description: "soft or decay: hide it from this UTC time instead" },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const mode = oneOf(args, "mode", FORGET_MODES) ?? "hard";
        const r = await forgetOp(opsDeps(cli, store), {
          slug: String(args.slug),
          mode,
          ...where(args),
          ...opt("valid_until", flag(args, "valid-until")),
        });
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
        const r = approve(store, String(args.slug), await selectorOf(opsDeps(cli, store), where(args)));
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
        const sel = await selectorOf(opsDeps(cli, store), where(args));
        const r = merge(store, String(args.target), String(args.source), sel);
        say(cli, args, r, () => [`${r.source} merged into ${r.target}; ${r.source} is superseded`]);
        return 0;
      }),
  });
