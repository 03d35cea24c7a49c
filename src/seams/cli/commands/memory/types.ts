// `memnox memory types list | add | enable | remove | suggest`: a project's types, declared by directory and log.md.
import type { CommandDef } from "citty";
import {
  addType,
  enableType,
  listTypes,
  proposeType,
  removeType,
  suggestTypes,
  type TypeRow,
} from "../../../../memory/types/manage.ts";
import { personName } from "../../../../state/identity.ts";
import { command } from "../../registry.ts";
import { common, flag, integer, type MemoryCli, project, projectArgs, run, say } from "./_cli.ts";

function rows(types: readonly TypeRow[]): string[] {
  return types.map((t) => `${t.name.padEnd(16)} ${t.kind.padEnd(10)} ${String(t.pages).padStart(5)}  ${t.description}`);
}

const name = { type: "positional", description: "the type's name", required: true } as const;

export const typesCommand = (cli: MemoryCli): CommandDef =>
  command({
    meta: { name: "types", description: "the types a project has declared" },
    subCommands: {
      list: command({
        meta: { name: "list", description: "built-in, catalogue, custom, draft and withdrawn types, with page counts" },
        args: { ...common, ...projectArgs, global: { type: "boolean", description: "the global scope's built-ins" } },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            const types = listTypes(store, args.global ? undefined : await project(cli, args));
            say(cli, args, types, () => rows(types));
            return 0;
          }),
      }),
      add: command({
        meta: { name: "add", description: "declare a custom type (or accept a draft, or bring a withdrawn one back)" },
        args: { ...common, ...projectArgs, name, description: { type: "string", description: "what the type holds" } },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            const t = addType(
              store,
              await project(cli, args),
              String(args.name),
              flag(args, "description") ?? "",
              personName(cli.ctx.env),
            );
            say(cli, args, t, () => rows([t]));
            return 0;
          }),
      }),
      enable: command({
        meta: { name: "enable", description: "turn on a catalogue type: domain, architecture, rule, policy, decision" },
        args: { ...common, ...projectArgs, name },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            const t = enableType(store, await project(cli, args), String(args.name), personName(cli.ctx.env));
            say(cli, args, t, () => rows([t]));
            return 0;
          }),
      }),
      remove: command({
        meta: {
          name: "remove",
          description: "withdraw a type; refuses while it holds pages unless --force archives them",
        },
        args: { ...common, ...projectArgs, name, force: { type: "boolean", description: "archive its pages first" } },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            const t = removeType(store, await project(cli, args), String(args.name), {
              force: args.force === true,
              by: personName(cli.ctx.env),
            });
            say(cli, args, t, () => [`${t.name} withdrawn${t.archived ? `; ${t.archived} pages archived` : ""}`]);
            return 0;
          }),
      }),
      suggest: command({
        meta: { name: "suggest", description: "tags recurring on enough pages to be a type (no model)" },
        args: {
          ...common,
          ...projectArgs,
          "min-pages": { type: "string", description: "how many pages a tag needs (default 3)" },
          propose: { type: "string", description: "nominate this name as a draft type" },
        },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            const p = await project(cli, args);
            const proposed = flag(args, "propose");
            if (proposed) {
              const t = proposeType(store, p, proposed, personName(cli.ctx.env), "proposed from types suggest");
              say(cli, args, t, () => rows([t]));
              return 0;
            }
            const s = suggestTypes(store, p, integer(args, "min-pages") ?? 3);
            say(cli, args, s, () =>
              s.length ? s.map((x) => `${x.name} (${x.pages} pages)`) : ["no tag recurs enough"],
            );
            return 0;
          }),
      }),
    },
  });
