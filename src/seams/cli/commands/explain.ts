// `memnox explain <cli>`: the verb table enforcement reads, and the rule in force that governs each verb.
import type { Action } from "../../../core/action.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { assess } from "../../../gate/assess.ts";
import { gateDeps } from "../../../gate/create.ts";
import { actionPattern, verbTable, verbTables } from "../../../resolve/index.ts";
import { emit, pad } from "../output.ts";
import { type CommandFactory, command } from "../registry.ts";

export const explain: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "explain",
      description: "where one capability came from and what governs it; for a CLI, its verb table",
    },
    args: {
      thing: { type: "positional", description: "a CLI (gh, git, aws…), a tool, a path, a server or an agent" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const name = args.thing ?? "";
      const table = verbTable(name);
      if (!table) {
        throw new MemnoxError(
          "not_built",
          `explaining \`${name}\` needs the scan, which is not built yet`,
          `verb tables exist for: ${verbTables()
            .map((t) => t.cli)
            .join(", ")}`,
        );
      }
      const deps = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
      const at = deps.now();
      const verbs = table.verbs.map((v) => {
        const action: Action = { name: actionPattern(v), class: v.class, targets: [], arguments: {}, cli: table.cli };
        const c = assess({ surface: "cli", action, cwd: ctx.cwd, canAsk: true }, deps, at).combined;
        return {
          words: [table.cli, ...v.path].join(" "),
          action: action.name,
          class: v.class,
          effect: c.effect,
          rule: c.rule?.name ?? null,
          governed: c.governed,
        };
      });
      emit(
        ctx,
        args.json,
        { cli: table.cli, description: table.description, verbs, unknownVerb: `${table.cli}.unknown` },
        () => [
          `${table.cli}: ${table.description}`,
          "",
          ...verbs.map(
            (v) =>
              `  ${pad(v.words, 34)}${pad(v.action, 34)}${pad(v.class, 15)}${v.effect}${v.rule ? ` (${v.rule})` : " (ungoverned)"}`,
          ),
          "",
          `a subcommand not in this table is ${table.cli}.unknown, class unknown: never treated as safe`,
        ],
      );
      return 0;
    },
  });
