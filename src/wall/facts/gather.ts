// What a wall is built from on this machine: the credential places the scan knows, the agent's own state, the files
// memnox keeps, the rules that deny reading. Read here once, handed to the pure builders in description.ts.
import { existsSync, mkdirSync, readdirSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { AGENTS } from "../../../hooks/types.ts";
import { gitDir } from "../../io/repo.ts";
import { globMatcher } from "../../policy/engine/pattern.ts";
import { MATCH_FIELDS } from "../../policy/engine/types.ts";
import { loadRuleSet } from "../../policy/load/index.ts";
import type { Context } from "../../ports/context.ts";
import { credentialPlaces } from "../../scan/credentials.ts";
import { agentOfProgram } from "../../wire/agents.ts";
import { candidateFiles } from "../../wire/clients.ts";
import { hookTarget } from "../../wire/hooks/targets.ts";
import {
  beneath,
  HISTORIES,
  HOME_SECRETS,
  type OsGuardInput,
  SHELL_STARTUP,
  TEMPS,
  type UntrustedInput,
  type WallPath,
} from "../description.ts";
import { physical } from "../disk.ts";
import { providerHosts } from "../hosts.ts";

type Ctx = Pick<Context, "paths" | "env" | "cwd">;

/** Every credential place and secret dotfile, physical: the scan's list, the fixed home list, start-up files. */
export function secretPaths(ctx: Ctx, withDotfiles: boolean): WallPath[] {
  const home = ctx.paths.home;
  const loc = { home, cwd: ctx.cwd, env: ctx.env };
  const at = (names: readonly (readonly [string, string?])[], why: string): WallPath[] =>
    names.map(([n, cli]) => ({ path: physical(join(home, n)), why, ...(cli ? { cli } : {}) }));
  const out = at(HOME_SECRETS, "credentials");
  if (withDotfiles) {
    out.push(
      ...at(
        SHELL_STARTUP.map((n) => [n]),
        "a shell start-up file",
      ),
    );
    out.push(
      ...at(
        HISTORIES.map((n) => [n]),
        "a shell history",
      ),
    );
  }
  for (const c of credentialPlaces(loc)) {
    out.push({ path: physical(c.path), why: c.label, ...(c.cli ? { cli: c.cli } : {}) });
  }
  return out;
}

/** The files memnox keeps in the agents' folders: their hooks and their MCP servers. */
export function keptFiles(ctx: Ctx): WallPath[] {
  const at = { home: ctx.paths.home, env: ctx.env };
  const hooks = AGENTS.map((a) => ({ path: physical(hookTarget(a).file(at)), why: "the agent's memnox hook" }));
  const servers = candidateFiles({ home: ctx.paths.home, cwd: ctx.paths.home, env: ctx.env })
    .filter((f) => f.scope === "user")
    .map((f) => ({ path: physical(f.path), why: "the MCP servers memnox wraps" }));
  return [...hooks, ...servers];
}

/** A linked worktree writes to its own git directory and the common one, both outside the checkout. */
function gitDirsOf(root: string): string[] {
  const dir = gitDir(root);
  if (!dir || beneath(dir, root)) return [];
  const out = [physical(dir)];
  try {
    const common = readFileSync(join(dir, "commondir"), "utf8").trim();
    if (common) out.push(physical(resolve(dir, common)));
  } catch {
    // not a linked worktree: its git directory is all there is
  }
  return out;
}

interface UntrustedFacts {
  readonly root: string;
  /** The agent's program name, which says whose state and whose model provider. */
  readonly program: string;
  readonly proxy?: { readonly url: string; readonly port: number };
}

/** The state folders of the agent, made now if missing (from inside, nothing new can be made in home). */
function agentState(ctx: Ctx, program: string): string[] {
  const found = agentOfProgram(program, ctx.paths.home, ctx.env);
  if (!found) return [];
  return found.state.map((p) => {
    if (!existsSync(p) && !p.endsWith(".json")) mkdirSync(p, { recursive: true, mode: 0o700 });
    return physical(p);
  });
}

export function untrustedInput(ctx: Ctx, f: UntrustedFacts): UntrustedInput {
  const temps = [...TEMPS, ...(ctx.env.TMPDIR ? [ctx.env.TMPDIR] : [])].filter((t) => existsSync(t)).map(physical);
  return {
    home: physical(ctx.paths.home),
    memnoxRoot: physical(ctx.paths.root),
    memnoxKeys: [physical(join(ctx.paths.keys, "ledger-ed25519.key"))],
    repo: physical(f.root),
    gitDirs: gitDirsOf(f.root),
    temps: [...new Set(temps)],
    agentState: agentState(ctx, f.program),
    secrets: secretPaths(ctx, true),
    kept: keptFiles(ctx),
    socket: physical(ctx.paths.sock),
    ...(f.proxy ? { proxy: { ...f.proxy, through: providerHosts(f.program, ctx.env) } } : {}),
  };
}

/** Match fields a machine-wide guard cannot honour: it holds for every program, whoever and wherever. */
const CONDITIONS = MATCH_FIELDS.filter((m) => m !== "actions" && m !== "targets");
const GLOB = /[*?[\]{}]/;

/** One rule target as literal paths: exact, a folder (`dir/**`), or a last segment expanded against the disk now. */
function literalPaths(target: string, home: string): string[] | undefined {
  const t = target.startsWith("~/") ? join(home, target.slice(2)) : target.replace(/^\$HOME(?=\/)/, home);
  if (!t.startsWith("/")) return undefined;
  const folder = t.replace(/\/\*\*$/, "");
  if (!GLOB.test(folder)) return [folder];
  const slash = folder.lastIndexOf("/");
  const dir = folder.slice(0, slash) || "/";
  if (GLOB.test(dir)) return undefined;
  const matches = globMatcher(folder.slice(slash + 1));
  try {
    return readdirSync(dir)
      .filter((n) => matches(n))
      .map((n) => join(dir, n));
  } catch {
    return [];
  }
}

// A target that names a file by its name wherever it is (`.env`, `*.env`, a `**/` before a name): the name's glob.
function nameGlob(target: string): string | undefined {
  const name = target.startsWith("**/") ? target.slice(3) : target;
  return name !== "" && !name.includes("/") && !name.startsWith("~") && !name.startsWith("$") ? name : undefined;
}

/**
 * Literal paths the rules in force deny outright for `action`, the names they deny wherever a file is so named, and
 * the patterns no literal path can stand for.
 */
export function deniedPaths(
  ctx: Ctx,
  action: string,
): { denied: WallPath[]; names: { glob: string; why: string }[]; unexpressed: string[] } {
  const home = ctx.paths.home;
  const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const denied: WallPath[] = [];
  const names: { glob: string; why: string }[] = [];
  const unexpressed: string[] = [];
  for (const rule of set.checked.filter((c) => c.applies).flatMap((c) => c.rules)) {
    if (rule.decision.effect !== "deny" || rule.decision.mode === "observe") continue;
    const hits = (rule.match.actions ?? ["*"]).some((a) => globMatcher(a)(action));
    if (!hits) continue;
    const condition = CONDITIONS.find((c) => rule.match[c] !== undefined);
    const targets = rule.match.targets ?? [];
    if (condition || targets.length === 0) {
      unexpressed.push(`${rule.name} (${condition ? `only under \`${condition}\`` : "every file"})`);
      continue;
    }
    for (const t of targets) {
      const name = nameGlob(t);
      if (name) names.push({ glob: name, why: `rule ${rule.name}` });
      const paths = literalPaths(t, home);
      if (paths === undefined) unexpressed.push(`${t} (${rule.name})`);
      else for (const p of paths) denied.push({ path: physical(p), why: `rule ${rule.name}` });
    }
  }
  return { denied, names, unexpressed };
}

/** The guard's input: credentials, and every rule that denies reading, as literal paths where it can be one. */
export function osGuardInput(ctx: Ctx): OsGuardInput {
  const { denied, unexpressed } = deniedPaths(ctx, "filesystem.read");
  return { home: physical(ctx.paths.home), secrets: secretPaths(ctx, false), denied, unexpressed };
}
