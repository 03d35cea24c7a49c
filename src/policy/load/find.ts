// Which rule files apply at a working directory: -f > MEMNOX_POLICIES > the nearest walking up, plus machine and registered.
import { existsSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { repoRoot } from "../../io/repo.ts";
import type { Env } from "../../ports/index.ts";
import type { RuleOrigin } from "./types.ts";

export const RULE_FILE_NAMES = ["memnox.policies.toml", "memnox.policies.yaml"] as const;

export interface FindOptions {
  readonly cwd: string;
  readonly env: Env;
  readonly paths: {
    readonly home: string;
    readonly machinePolicies: string;
    readonly policiesRegistry: string;
    /** The workspace's rules as last pulled; they add to the machine's and, most restrictive winning, only tighten. */
    readonly orgPolicies?: string;
  };
  /** A rule file named on the command line (`-f`): it replaces MEMNOX_POLICIES and the walk-up. */
  readonly file?: string;
}

export interface Candidate {
  readonly path: string;
  readonly origin: RuleOrigin;
  readonly applies: boolean;
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

/** The rule files in the nearest directory that has any, from `cwd` up to the repository root. */
export function nearestRuleFiles(cwd: string): string[] {
  for (let d = resolve(cwd); ; d = dirname(d)) {
    const here = RULE_FILE_NAMES.map((n) => join(d, n)).filter((p) => existsSync(p) && !isDir(p));
    if (here.length > 0) return here;
    if (existsSync(join(d, ".git")) || dirname(d) === d) return [];
  }
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** A registered file inside a repository applies only inside that repository; one outside any applies everywhere. */
export function registeredApplies(file: string, cwd: string): boolean {
  const root = repoRoot(dirname(file));
  return root === undefined || within(resolve(cwd), root);
}

/** Every candidate, applicable or not, deduplicated by path with the stronger origin kept. */
export function findRuleFiles(opts: FindOptions, registered: readonly string[]): Candidate[] {
  const out: Candidate[] = [];
  const fromEnv = opts.env.MEMNOX_POLICIES;
  if (opts.file !== undefined) out.push({ path: resolve(opts.cwd, opts.file), origin: "flag", applies: true });
  else if (fromEnv) {
    // A comma-separated list names several files, each read in its own right.
    for (const p of fromEnv.split(",").map((s) => s.trim())) {
      if (p) out.push({ path: resolve(opts.cwd, p), origin: "env", applies: true });
    }
  } else for (const p of nearestRuleFiles(opts.cwd)) out.push({ path: p, origin: "repository", applies: true });
  if (existsSync(opts.paths.machinePolicies))
    out.push({ path: opts.paths.machinePolicies, origin: "machine", applies: true });
  const org = opts.paths.orgPolicies;
  if (org !== undefined && existsSync(org)) out.push({ path: org, origin: "workspace", applies: true });
  for (const p of registered) out.push({ path: p, origin: "registered", applies: registeredApplies(p, opts.cwd) });
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.path) && seen.add(c.path));
}
