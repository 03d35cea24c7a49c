// `decisions`: the rules in force and the remembered decisions that cover an action, a path or a command line. The
// gate's own stages run dry (nothing recorded, held or claimed) and nothing is executed.

import { existsSync } from "node:fs";
import { isAbsolute, resolve as resolvePath } from "node:path";
import type { Action, ActionClass } from "../../core/action.ts";
import { MemnoxError } from "../../core/errors.ts";
import { secretValues } from "../../core/secrets.ts";
import { type ActionAssessment, assess } from "../../gate/assess.ts";
import type { GateRequest } from "../../gate/types.ts";
import { gateDeps } from "../../gate/wiring.ts";
import { withLedger } from "../../ledger/open.ts";
import { MACHINE_IDS, projectFromCwd } from "../../memory/format/project.ts";
import { memoryDir } from "../../memory/pages/dir.ts";
import { openStore } from "../../memory/pages/store.ts";
import { recall } from "../../memory/recall/recall.ts";
import { BUILTIN_ACTIONS } from "../../resolve/builtins.ts";
import { actionPattern, verbTable } from "../../resolve/index.ts";
import { classFromName } from "../../resolve/mcp-tools.ts";
import { loadManifest } from "../../state/mcp-manifest.ts";
import { said, type ToolAnswer } from "./answer.ts";
import type { SessionDeps } from "./deps.ts";
import { whichSession } from "./which.ts";

interface DecisionsArgs {
  readonly action?: string | undefined;
  readonly path?: string | undefined;
  readonly command?: string | undefined;
}

const PATH_ACTIONS = ["filesystem.read", "filesystem.write", "filesystem.delete"] as const;
const REMEMBERED = 3;

export async function decisions(deps: SessionDeps, args: DecisionsArgs): Promise<ToolAnswer> {
  const { ctx } = deps;
  if (!args.action && !args.path && !args.command) {
    throw new MemnoxError("usage", "name an action, a path or a command line", "for example: action git.push-force");
  }
  const ref = withLedger(
    ctx,
    (l) => whichSession(ctx.env, l),
    () => whichSession(ctx.env, undefined),
  );
  const dry = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
  const at = dry.now();
  const base = {
    surface: "mcp" as const,
    cwd: ctx.cwd,
    canAsk: true,
    ...(ref.id ? { session: ref.id } : {}),
    ...(ref.agent ? { agent: ref.agent } : {}),
  };
  const path = args.path ? absolute(ctx.cwd, args.path, ctx.paths.home) : undefined;
  const requests: GateRequest[] = [];
  if (args.command) requests.push({ ...base, command: args.command });
  if (args.action) requests.push({ ...base, action: namedAction(ctx.paths.mcp, args.action, path) });
  else if (path) for (const name of PATH_ACTIONS) requests.push({ ...base, action: pathAction(name, path) });
  const problems = new Set<string>();
  const assessed = requests.flatMap((r) => {
    const a = assess(r, dry, at);
    for (const p of a.rules.problems) problems.add(`${p.file}${p.line ? `:${p.line}` : ""}: ${p.message}`);
    // The line itself is named only when a rule speaks about it; its actions say the rest.
    const quiet = (p: ActionAssessment) => p.action.name === "shell.execute" && !p.combined.governed;
    return a.perAction.length > 1 ? a.perAction.filter((p) => !quiet(p)) : a.perAction;
  });
  const mode = dry.settings().mode;
  const remembered = await rememberedDecisions(deps, [args.action, args.path, args.command]);
  return said(
    [
      `nothing was run. Under the rules in force at ${ctx.cwd} (mode ${mode}):`,
      ...[...problems].map((p) => `a rule file cannot be read, and in enforce that refuses everything: ${p}`),
      ...assessed.map(line),
      ...(remembered.length > 0 ? ["remembered decisions:", ...remembered] : ["no remembered decision mentions it"]),
    ],
    { known: secretValues(args.command ?? "") },
  );
}

function line({ action, combined: c }: ActionAssessment): string {
  const on = action.targets.length > 0 ? ` ${action.targets.join(" ")}` : "";
  const head = `${c.effect.padEnd(5)} ${action.name}${on}`;
  if (!c.governed) return `${head}: no rule covers it (ungoverned)`;
  const rule = c.rule ? `rule ${c.rule.name} (${c.rule.file}:${c.rule.line})` : "memnox's own check";
  const others = (c.deciding.verdict?.matched ?? []).slice(1).map((r) => r.name);
  const also = others.length > 0 ? `; also matched: ${others.join(", ")}` : "";
  const instead = c.alternative ? `; instead: ${c.alternative.action} (${c.alternative.note})` : "";
  return `${head}: ${rule}: ${c.reason}${instead}${also}`;
}

function absolute(cwd: string, path: string, home: string): string {
  const expanded = path === "~" || path.startsWith("~/") ? `${home}${path.slice(1)}` : path;
  return isAbsolute(expanded) ? expanded : resolvePath(cwd, expanded);
}

function pathAction(name: (typeof PATH_ACTIONS)[number], path: string): Action {
  const cls: ActionClass = name === "filesystem.read" ? "read" : name === "filesystem.write" ? "write" : "destructive";
  return { name, class: cls, targets: [path], arguments: {} };
}

/** An action named by the agent, with the class the resolver or the proxy's manifest gives it. */
function namedAction(manifestDir: string, name: string, path?: string): Action {
  return { name, class: classOfName(manifestDir, name), targets: path ? [path] : [], arguments: {} };
}

function classOfName(manifestDir: string, name: string): ActionClass {
  const [ns, rest = ""] = splitOnce(name);
  if (ns === "mcp") {
    const [server, tool = ""] = splitOnce(rest);
    return (
      loadManifest(manifestDir, server).find((t) => t.name === tool)?.class ?? classFromName(tool)?.class ?? "unknown"
    );
  }
  const builtin = BUILTIN_ACTIONS.find((b) => b.action === name);
  if (builtin) return builtin.class;
  const table = verbTable(ns);
  return table?.verbs.find((v) => actionPattern(v) === name)?.class ?? "unknown";
}

function splitOnce(s: string): [string, string | undefined] {
  const i = s.indexOf(".");
  return i < 0 ? [s, undefined] : [s.slice(0, i), s.slice(i + 1)];
}

/** Decision pages in memory whose words the query shares; an absent or unreadable store is silence. */
async function rememberedDecisions(deps: SessionDeps, parts: readonly (string | undefined)[]): Promise<string[]> {
  const { ctx } = deps;
  const query = parts
    .filter((p): p is string => Boolean(p))
    .join(" ")
    .replace(/[^\p{L}\p{N}]+/gu, " ")
    .trim();
  if (!query) return [];
  const dir = memoryDir(ctx.env, ctx.paths, ctx.cwd);
  if (!existsSync(dir)) return [];
  let store: ReturnType<typeof openStore> | undefined;
  try {
    store = openStore({ dir, now: () => ctx.clock.now(), env: ctx.env, readonly: true });
    const project = await projectFromCwd(ctx.git, ctx.cwd);
    const r = recall(store, {
      query,
      type: "decision",
      topK: REMEMBERED,
      scope: { kind: "projects+global", projectIds: [project.id, ...MACHINE_IDS] },
      recordAccess: false,
    });
    return r.hits.map((h) => `- ${h.title}: ${h.description || h.snippet} (${h.file_path})`);
  } catch {
    return [];
  } finally {
    store?.close();
  }
}
