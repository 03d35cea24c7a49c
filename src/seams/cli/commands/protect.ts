// `memnox protect --yes`: the baseline rules, secret reads in the machine file and the rest in this repository's file.
import { mkdirSync, readFileSync } from "node:fs";
import { basename, join } from "node:path";
import { MemnoxError } from "../../../core/errors.ts";
import { baselineRules } from "../../../policy/baseline.ts";
import { nearestRuleFiles } from "../../../policy/load/index.ts";
import { type MergeResult, mergeRules } from "../../../policy/write.ts";
import type { Context } from "../../../ports/context.ts";
import { verbTables } from "../../../resolve/index.ts";
import type { VerbTable } from "../../../resolve/types.ts";
import { ensureConfig } from "../../../state/config.ts";
import { writeFileAtomic } from "../../../state/files.ts";
import { repoRoot } from "../../../state/repo.ts";
import { emit } from "../output.ts";
import { type CommandFactory, command } from "../registry.ts";
import { protectFromUsage } from "./protect-usage.ts";

/** protect flags the spec has that later work builds; named so the error says "not yet" rather than "no such flag". */
const LATER = [
  "--apply",
  "--revert",
  "--interactive",
  "--for",
  "--interceptors",
  "--hooks",
  "--os-guard",
  "--observe",
  "--enforce",
  "--ask",
  "--deny",
  "--allow",
  "--revert-claude-hook",
  "--claude-hook",
  "--apply-native",
  "--revert-native",
];
const KNOWN = ["--yes", "-y", "--json"];

function checkFlags(raw: readonly string[]): void {
  for (const a of raw) {
    if (!a.startsWith("-")) throw new MemnoxError("usage", `memnox protect takes no argument \`${a}\``);
    const flag = a.split("=")[0] ?? a;
    if (KNOWN.includes(flag)) continue;
    if (LATER.includes(flag))
      throw new MemnoxError(
        "not_built",
        `memnox protect ${flag} is not built yet`,
        "memnox protect --yes writes the baseline rules",
      );
    throw new MemnoxError(
      "usage",
      `unknown flag \`${flag}\` for memnox protect`,
      "memnox help protect lists its flags",
    );
  }
}

/** Where this repository's rules go: the file that already loads here, else the repository root (or here). */
export function repositoryRuleFile(cwd: string): string {
  const found = nearestRuleFiles(cwd);
  const toml = found.find((p) => p.endsWith(".toml"));
  return toml ?? found[0] ?? join(repoRoot(cwd) ?? cwd, "memnox.policies.toml");
}

/** A copy of a file before it is rewritten, under ~/.memnox/backup/protect/. */
function copyAside(ctx: Context, stamp: string): (path: string) => void {
  return (path) => {
    const dir = join(ctx.paths.backup, "protect");
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    writeFileAtomic(join(dir, `${stamp}-${basename(path)}`), readFileSync(path));
  };
}

function describe(what: string, r: MergeResult): string[] {
  const lines = [
    `${what} ${r.path}: ${r.created ? "created with" : "added"} ${r.added.length} rule(s)${r.added.length ? ` (${r.added.join(", ")})` : ""}`,
  ];
  if (r.unchanged.length) lines.push(`  already there: ${r.unchanged.join(", ")}`);
  if (r.keptYours.length) lines.push(`  kept your version of: ${r.keptYours.join(", ")}`);
  return lines;
}

export const protectWith =
  (tables: () => readonly VerbTable[]): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "protect", description: "write the baseline rules (--yes); other protect steps arrive later" },
      args: {
        yes: { type: "boolean", alias: "y", description: "take the recommended answer and write the baseline" },
        json: { type: "boolean", description: "structured output" },
      },
      run({ args, rawArgs }) {
        if (rawArgs.some((a) => a.startsWith("--from-usage"))) return protectFromUsage(ctx, rawArgs);
        checkFlags(rawArgs);
        if (!args.yes)
          throw new MemnoxError(
            "usage",
            "memnox protect writes rules only with --yes for now",
            "memnox protect --yes writes the baseline; the proposal shown first arrives with setup",
          );
        const now = new Date(ctx.clock.now()).toISOString();
        const base = baselineRules(tables(), { date: now.slice(0, 10), keysDir: ctx.paths.keys });
        const { config, created } = ensureConfig(ctx.paths.config);
        const backup = copyAside(ctx, now.replace(/[:.]/g, "-"));
        const machine = mergeRules(ctx.paths.machinePolicies, base.machine, {
          header: [
            `Rules about this machine rather than a repository, written by memnox protect --yes on ${now.slice(0, 10)}.`,
            "Every repository loads them. deny beats ask beats allow, whatever the file or order.",
          ],
          mode: 0o600,
          backup,
        });
        const repository = mergeRules(repositoryRuleFile(ctx.cwd), base.repository, {
          header: [
            `Rules for this repository, generated from memnox's verb tables by memnox protect --yes on ${now.slice(0, 10)}.`,
            "deny beats ask beats allow, whatever the order. Add a rule beside these to tighten; edit one to loosen.",
          ],
          mode: 0o644,
          backup,
        });
        const shadowed = ctx.env.MEMNOX_POLICIES
          ? [`note: MEMNOX_POLICIES is set, so ${repository.path} does not load here`]
          : [];
        emit(ctx, args.json, { machine, repository, mode: config.mode, configCreated: created }, () => [
          ...describe("machine rules", machine),
          ...describe("repository rules", repository),
          config.mode === "observe"
            ? "mode is observe: verdicts are recorded and nothing is refused; memnox config set mode enforce makes them bite"
            : `mode is ${config.mode}`,
          ...shadowed,
        ]);
        return 0;
      },
    });

export const protect: CommandFactory = protectWith(verbTables);
