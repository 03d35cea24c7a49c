// Which rule files apply at a working directory: -f > MEMNOX_POLICIES > the nearest walking up, plus machine and registered.
import { existsSync, lstatSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { repoRoot } from "../../io/repo.ts";
import type { Env } from "../../ports/index.ts";
import type { RuleOrigin } from "./types.ts";

export const RULE_FILE_NAMES = ["memnox.policies.toml", "memnox.policies.yaml"] as const;

export interface FindOptions {
  readonly cwd: string;
  /** Other places the call acts (`git -C X`, `cd X &&`, a path it writes): their nearest rule files load too. */
  readonly also?: readonly string[];
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
  /** Setup ran: the machine's rules must be there, and their absence is a problem rather than no rules. */
  readonly expectMachine?: boolean;
}

export interface Candidate {
  readonly path: string;
  readonly origin: RuleOrigin;
  readonly applies: boolean;
}

/** Anything at the path, a dangling link included: a rule file that is there but wrong must not be skipped. */
function present(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}

/**
 * The rule files in the nearest directory that has any, from `cwd` up to the repository root. Whatever stands
 * there under a rule file's name counts (a directory, a dangling link, a FIFO): reading it then says what is wrong,
 * and in enforce that refuses, rather than the file being silently left out.
 */
export function nearestRuleFiles(cwd: string): string[] {
  for (let d = resolve(cwd); ; d = dirname(d)) {
    const here = RULE_FILE_NAMES.map((n) => join(d, n)).filter(present);
    if (here.length > 0) return here;
    if (existsSync(join(d, ".git")) || dirname(d) === d) return [];
  }
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/** A registered file inside a repository applies only inside that repository; one outside any applies everywhere. */
function registeredApplies(file: string, cwd: string): boolean {
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
  } else
    for (const place of [opts.cwd, ...(opts.also ?? [])])
      for (const p of nearestRuleFiles(resolve(opts.cwd, place)))
        out.push({ path: p, origin: "repository", applies: true });
  if (opts.expectMachine || present(opts.paths.machinePolicies))
    out.push({ path: opts.paths.machinePolicies, origin: "machine", applies: true });
  const org = opts.paths.orgPolicies;
  if (org !== undefined && existsSync(org)) out.push({ path: org, origin: "workspace", applies: true });
  const places = [opts.cwd, ...(opts.also ?? [])];
  for (const p of registered)
    out.push({ path: p, origin: "registered", applies: places.some((at) => registeredApplies(p, at)) });
  const seen = new Set<string>();
  return out.filter((c) => !seen.has(c.path) && seen.add(c.path));
}
