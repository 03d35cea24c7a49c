// `memnox explain <cli>`: the credential behind it, the projects it is linked to, the verb table enforcement reads,
// and the rule in force that governs each verb. Anything else (a tool, path, server, agent) is explain-things.ts.
import type { Action } from "../../../core/action.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { assess } from "../../../gate/assess.ts";
import { gateDeps } from "../../../gate/wiring.ts";
import { repoRoot } from "../../../io/repo.ts";
import type { Context } from "../../../ports/context.ts";
import { actionPattern, verbTable } from "../../../resolve/index.ts";
import { cliOf } from "../../../scan/clis.ts";
import { findCredentials } from "../../../scan/credentials.ts";
import { linkedProjects } from "../../../scan/projects.ts";
import { tilde } from "../../../scan/render.ts";
import { Trail } from "../../../scan/trail.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, pad } from "../output.ts";
import { explainThing } from "./_explain-things.ts";

/** The credential files that authenticate `cli` here, and what its own files say it is linked to. */
function linkage(ctx: Context, cli: string) {
  const trail = new Trail();
  const loc = { home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env };
  const repo = repoRoot(ctx.cwd, ctx.env);
  const credentials = findCredentials(trail, loc, repo)
    .filter((c) => cliOf(c) === cli)
    .map((c) => ({ path: c.path, kind: c.kind, label: c.label, fingerprint: c.fingerprint ?? null, facts: c.facts }));
  return { credentials, projects: linkedProjects(cli, trail, loc, repo) };
}

export const explain: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "explain",
      description: "where one capability came from and what governs it; for a CLI, its verb table",
    },
    args: {
      thing: { type: "positional", description: "a CLI (gh, git, aws…), a tool, a path, a server or an agent" },
      probe: {
        type: "boolean",
        default: true,
        description: "accepted for scan's sake: explain starts no MCP server either way",
        negativeDescription: "start no MCP server (explain never does: tools come from the cache)",
      },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const name = args.thing ?? "";
      if (!name.trim())
        throw new MemnoxError("usage", "explain what?", "a CLI (gh), a tool, a path, a server or an agent");
      const table = verbTable(name);
      if (!table) return explainThing(ctx, name, args.json);
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
      const { credentials, projects } = linkage(ctx, table.cli);
      emit(
        ctx,
        args.json,
        {
          cli: table.cli,
          description: table.description,
          credentials,
          projects,
          verbs,
          unknownVerb: `${table.cli}.unknown`,
        },
        () => [
          `${table.cli}: ${table.description}`,
          credentials.length
            ? `credential  ${credentials.map((c) => `${tilde(c.path, ctx.paths.home)} (${c.kind})`).join(", ")}`
            : "credential  none found here: it is not authenticated on this machine",
          `linked to   ${projects.length ? projects.join(", ") : "nothing its files name"}`,
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
