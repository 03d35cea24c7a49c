// `memnox memory types list | add | enable | remove | suggest`: a project's types, declared by directory and log.md.
import type { CommandDef } from "citty";
import { MemnoxError } from "../../../../core/errors.ts";
import { BUILTIN_DESCRIPTIONS, isBuiltin } from "../../../../memory/format/kinds.ts";
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
import { command } from "../../command.ts";
import { common, flag, integer, type MemoryCli, oneOf, project, projectArgs, run, say } from "./_cli.ts";

function rows(types: readonly TypeRow[]): string[] {
  const about = (t: TypeRow) => t.description || (isBuiltin(t.name) ? BUILTIN_DESCRIPTIONS[t.name] : "");
  return types.map((t) => `${t.name.padEnd(16)} ${t.kind.padEnd(10)} ${String(t.pages).padStart(5)}  ${about(t)}`);
}

const name = { type: "positional", description: "the type's name", required: true } as const;
const scope = { type: "string", description: "project (the default): types are declared per project" } as const;

/** Types belong to a project: the global scope holds only the five built-ins, so declaring one there is refused. */
function projectScope(args: Record<string, unknown>, verb: string): void {
  const given = oneOf(args, "scope", ["global", "project"] as const);
  if (given === "global")
    throw new MemnoxError(
      "refused",
      "catalogue and custom types exist at project scope only; global scope keeps the built-in types",
      `types ${verb} needs project scope: pass --scope project (the default) and --project-id <id>, or run it inside the project`,
    );
}

export const typesCommand = (cli: MemoryCli): CommandDef =>
  command({
    meta: { name: "types", description: "the types a project has declared" },
    subCommands: {
      list: command({
        meta: { name: "list", description: "built-in, catalogue, custom, draft and withdrawn types, with page counts" },
        args: {
          ...common,
          ...projectArgs,
          global: { type: "boolean", description: "the global scope's built-ins" },
          scope: { type: "string", description: "project (default) or global (the built-ins)" },
        },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            const global = args.global === true || oneOf(args, "scope", ["global", "project"] as const) === "global";
            const types = listTypes(store, global ? undefined : await project(cli, args));
            say(cli, args, types, () => rows(types));
            return 0;
          }),
      }),
      add: command({
        meta: { name: "add", description: "declare a custom type (or accept a draft, or bring a withdrawn one back)" },
        args: {
          ...common,
          ...projectArgs,
          name,
          scope,
          description: { type: "string", description: "what the type holds (one line)" },
        },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            projectScope(args, "add");
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
        args: { ...common, ...projectArgs, name, scope },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            projectScope(args, "enable");
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
        args: {
          ...common,
          ...projectArgs,
          name,
          scope,
          force: { type: "boolean", description: "archive its pages first" },
        },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            projectScope(args, "remove");
            const t = removeType(store, await project(cli, args), String(args.name), {
              force: args.force === true,
              by: personName(cli.ctx.env),
            });
            say(cli, args, t, () => [`${t.removed} withdrawn${t.archived ? `; ${t.archived} pages archived` : ""}`]);
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
          scope,
        },
        run: ({ args }) =>
          run(cli, args, async (store) => {
            projectScope(args, "suggest");
            const p = await project(cli, args);
            const proposed = flag(args, "propose");
            if (proposed) {
              const t = proposeType(store, p, proposed, personName(cli.ctx.env), "proposed from types suggest");
              say(cli, args, t, () => rows([t]));
              return 0;
            }
            const min = integer(args, "min-pages") ?? 3;
            if (min < 1) throw new MemnoxError("refused", "--min-pages must be at least 1");
            const s = suggestTypes(store, p, min);
            say(cli, args, s, () =>
              s.length
                ? s.map((x) => `suggested type: ${x.tag} (tag on ${x.pages} pages); ${x.command}`)
                : [`no tag recurs on ${min} or more pages that is not a type already`],
            );
            return 0;
          }),
      }),
    },
  });
