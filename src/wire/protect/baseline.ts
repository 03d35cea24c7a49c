// The baseline `protect --yes`, setup and `update --rewire` write: all of it in the machine file, so every checkout on
// this machine (and every directory outside one) is governed from the first command. A repository's own file adds
// to it and, since the strictest verdict wins whatever the file, can only tighten. A repository file from before
// this layout keeps whatever it holds: its copies of the baseline still apply there, and are said to be duplicates.
import { mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { readTextIfExists, writeFileAtomic } from "../../io/files.ts";
import { sha256Hex } from "../../io/hash.ts";
import { repoRoot } from "../../io/repo.ts";
import { baselineRules, type RuleSpec } from "../../policy/baseline.ts";
import { checkText, nearestRuleFiles } from "../../policy/load/index.ts";
import { teamFileHeader, teamRuleComment, teamRules } from "../../policy/team.ts";
import { type MergeResult, mergeRules, sameRule } from "../../policy/write.ts";
import type { Context } from "../../ports/context.ts";
import type { VerbTable } from "../../resolve/types.ts";
import { type Config, ensureConfig, sealCurrentMode } from "../../state/config.ts";

/** Where this repository's rules go: the file that already loads here, else the repository root (or here). */
function repositoryRuleFile(cwd: string): string {
  const found = nearestRuleFiles(cwd);
  const toml = found.find((p) => p.endsWith(".toml"));
  return toml ?? found[0] ?? join(repoRoot(cwd) ?? cwd, "memnox.policies.toml");
}

/** A copy of a rule file before it is rewritten, under ~/.memnox/backup/protect/. */
export function copyAside(ctx: Pick<Context, "paths" | "clock">): (path: string) => void {
  const stamp = new Date(ctx.clock.now()).toISOString().replace(/[:.]/g, "-");
  return (path) => {
    const dir = join(ctx.paths.backup, "protect");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(join(dir, `${stamp}-${basename(path)}`), readFileSync(path));
  };
}

/** A repository rule file written before the baseline moved to the machine: what it still holds of it. */
interface RepositoryLeftovers {
  readonly path: string;
  /** Baseline rules it holds as memnox wrote them: duplicates of the machine's now. */
  readonly copies: readonly string[];
  /** Baseline rules a person changed there: kept, but the machine's stricter version now applies too. */
  readonly edited: readonly string[];
}

export interface BaselineResult {
  readonly machine: MergeResult;
  readonly repository?: RepositoryLeftovers;
  /** The allow rules of the baseline with their reasons: what proceeds without a question, and why. */
  readonly proceeding: readonly { readonly name: string; readonly reason: string }[];
  readonly mode: Config["mode"];
  readonly configCreated: boolean;
}

export function today(ctx: Pick<Context, "clock">): string {
  return new Date(ctx.clock.now()).toISOString().slice(0, 10);
}

/**
 * Merges the baseline into the machine file (a rule already there under its name is kept as the person has it);
 * `keep` narrows it to the rules a person chose (`protect --interactive`).
 */
export function writeBaseline(
  ctx: Context,
  tables: readonly VerbTable[],
  keep: (rule: RuleSpec) => boolean = () => true,
): BaselineResult {
  const date = today(ctx);
  const all = baselineRules(tables, { date, keysDir: ctx.paths.keys });
  const base = { machine: all.machine.filter(keep), repository: all.repository.filter(keep) };
  const { config, created } = ensureConfig(ctx.paths.config);
  sealCurrentMode(ctx.paths.config, ctx.clock.now());
  const machine = mergeRules(ctx.paths.machinePolicies, [...base.machine, ...base.repository], {
    header: [
      `Rules about this machine, written by memnox protect --yes on ${date}: they apply in every repository and`,
      "outside any. deny beats ask beats allow, whatever the file or order; a repository's memnox.policies.toml adds",
      "rules of its own, and can only tighten these.",
    ],
    mode: 0o600,
    backup: copyAside(ctx),
  });
  const repository = leftovers(ctx.cwd, base.repository);
  const proceeding = [...base.machine, ...base.repository]
    .filter((rule) => rule.decision.effect === "allow")
    .map((rule) => ({ name: rule.name, reason: rule.decision.reason ?? "" }));
  return { machine, ...(repository ? { repository } : {}), proceeding, mode: config.mode, configCreated: created };
}

/** What a repository file written by an older protect --yes still holds of the baseline, changed or not. */
function leftovers(cwd: string, generated: readonly RuleSpec[]): RepositoryLeftovers | undefined {
  const path = nearestRuleFiles(cwd).find((p) => p.endsWith(".toml"));
  const text = path ? readTextIfExists(path) : undefined;
  if (!path || text === undefined) return undefined;
  const have = new Map(checkText(path, "repository", text).rules.map((r) => [r.name, r]));
  const copies: string[] = [];
  const edited: string[] = [];
  for (const g of generated) {
    const mine = have.get(g.name);
    if (!mine) continue;
    (sameRule(mine, g) ? copies : edited).push(g.name);
  }
  return copies.length + edited.length > 0 ? { path, copies, edited } : undefined;
}

/** Rules merged into this repository's rule file (created with a header naming who wrote it and when). */
export function writeRepositoryRules(ctx: Context, rules: readonly RuleSpec[], by: string): MergeResult {
  return mergeRules(repositoryRuleFile(ctx.cwd), rules, {
    header: [
      `Rules for this repository, ${by} on ${today(ctx)}.`,
      "deny beats ask beats allow, whatever the order. Add a rule beside these to tighten; edit one to loosen.",
    ],
    mode: 0o644,
    backup: copyAside(ctx),
  });
}

/** Rules a person said about this machine, beside the baseline in the machine file (backed up, 0600). */
export function writeMachineRules(ctx: Context, rules: readonly RuleSpec[], by: string): MergeResult {
  return mergeRules(ctx.paths.machinePolicies, rules, {
    header: [`Rules about this machine, ${by} on ${today(ctx)}.`],
    mode: 0o600,
    backup: copyAside(ctx),
  });
}

export type TeamRulesResult =
  | (MergeResult & { readonly written: { readonly path: string; readonly sha256: string } })
  | { readonly skipped: string };

/**
 * The team's own five rules, commented, in this repository's rule file (created, or the missing ones appended): the
 * file a team reviews in a diff. Outside a repository there is no team file to write.
 */
export function writeTeamRules(ctx: Context): TeamRulesResult {
  const root = repoRoot(ctx.cwd, ctx.env);
  if (!root) return { skipped: `${ctx.cwd} is not in a git repository, so there is no repository file to write` };
  let r: MergeResult;
  try {
    r = mergeRules(repositoryRuleFile(ctx.cwd), teamRules(), {
      header: teamFileHeader(today(ctx)),
      comments: teamRuleComment,
      mode: 0o644,
      backup: copyAside(ctx),
    });
  } catch (e) {
    // A rule file of the team's own that does not parse is theirs to fix; the machine is wired all the same.
    if (e instanceof MemnoxError) return { skipped: e.message };
    throw e;
  }
  return { ...r, written: { path: r.path, sha256: sha256Hex(readFileSync(r.path)) } };
}

/** What protect says about a repository file from before the baseline moved to the machine. */
export function describeLeftovers(r: RepositoryLeftovers | undefined): string[] {
  if (!r) return [];
  const lines = [`repository rules ${r.path}: left as they are; the baseline now lives in the machine file`];
  if (r.copies.length) lines.push(`  copies of the machine's baseline (safe to delete): ${r.copies.join(", ")}`);
  if (r.edited.length)
    lines.push(
      `  your edits of ${r.edited.join(", ")} stay, but the machine's version applies too (the stricter wins); change it in ~/.memnox/machine.policies.toml`,
    );
  return lines;
}

export function describeMerge(what: string, r: MergeResult): string[] {
  const lines = [
    `${what} ${r.path}: ${r.created ? "created with" : "added"} ${r.added.length} rule(s)${r.added.length ? ` (${r.added.join(", ")})` : ""}`,
  ];
  if (r.unchanged.length) lines.push(`  already there: ${r.unchanged.join(", ")}`);
  if (r.keptYours.length) lines.push(`  kept your version of: ${r.keptYours.join(", ")}`);
  return lines;
}
