// The baseline `protect --yes` and setup write: secret reads in the machine file, the rest in this repository's.
import { mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { writeFileAtomic } from "../../io/files.ts";
import { repoRoot } from "../../io/repo.ts";
import { baselineRules, type RuleSpec } from "../../policy/baseline.ts";
import { nearestRuleFiles } from "../../policy/load/index.ts";
import { type MergeResult, mergeRules } from "../../policy/write.ts";
import type { Context } from "../../ports/context.ts";
import type { VerbTable } from "../../resolve/types.ts";
import { type Config, ensureConfig } from "../../state/config.ts";

/** Where this repository's rules go: the file that already loads here, else the repository root (or here). */
export function repositoryRuleFile(cwd: string): string {
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

export interface BaselineResult {
  readonly machine: MergeResult;
  readonly repository: MergeResult;
  /** The allow rules of the baseline with their reasons: what proceeds without a question, and why. */
  readonly proceeding: readonly { readonly name: string; readonly reason: string }[];
  readonly mode: Config["mode"];
  readonly configCreated: boolean;
}

export function today(ctx: Pick<Context, "clock">): string {
  return new Date(ctx.clock.now()).toISOString().slice(0, 10);
}

/** Merges the baseline into both files (a rule already there under its name is kept as the person has it). */
export function writeBaseline(ctx: Context, tables: readonly VerbTable[]): BaselineResult {
  const date = today(ctx);
  const base = baselineRules(tables, { date, keysDir: ctx.paths.keys });
  const { config, created } = ensureConfig(ctx.paths.config);
  const backup = copyAside(ctx);
  const machine = mergeRules(ctx.paths.machinePolicies, base.machine, {
    header: [
      `Rules about this machine rather than a repository, written by memnox protect --yes on ${date}.`,
      "Every repository loads them. deny beats ask beats allow, whatever the file or order.",
    ],
    mode: 0o600,
    backup,
  });
  const repository = writeRepositoryRules(
    ctx,
    base.repository,
    "generated from memnox's verb tables by memnox protect --yes",
  );
  const proceeding = [...base.machine, ...base.repository]
    .filter((rule) => rule.decision.effect === "allow")
    .map((rule) => ({ name: rule.name, reason: rule.decision.reason ?? "" }));
  return { machine, repository, proceeding, mode: config.mode, configCreated: created };
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

export function describeMerge(what: string, r: MergeResult): string[] {
  const lines = [
    `${what} ${r.path}: ${r.created ? "created with" : "added"} ${r.added.length} rule(s)${r.added.length ? ` (${r.added.join(", ")})` : ""}`,
  ];
  if (r.unchanged.length) lines.push(`  already there: ${r.unchanged.join(", ")}`);
  if (r.keptYours.length) lines.push(`  kept your version of: ${r.keptYours.join(", ")}`);
  return lines;
}
