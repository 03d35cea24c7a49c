// The peers' shell corpora (../shared/corpora/shell): which cases apply, and how a resolution is scored.
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { minimatch } from "minimatch";
import type { Action } from "../../src/core/action.ts";
import type { Effect } from "../../src/core/effect.ts";
import { assess } from "../../src/gate/assess.ts";
import { gateDeps } from "../../src/gate/wiring.ts";
import { baselineRules } from "../../src/policy/baseline.ts";
import { renderRuleFile } from "../../src/policy/render.ts";
import { verbTables } from "../../src/resolve/index.ts";
import { type FakeHome, testContext } from "./home.ts";

const ROOT = resolve(import.meta.dir, "..", "..");
export const HOME = "/home/agent";
export const CORPUS_CTX = { cwd: "/work/project", home: HOME };

/** The corpora vendored in `fixtures/corpora/shell` (copied from the peers' projects, licences in its README). */
export function corporaDir(): string {
  return process.env.SHELL_CORPORA ?? join(ROOT, "fixtures", "corpora", "shell");
}

export const SECRET_GLOBS = [
  `${HOME}/.ssh`,
  `${HOME}/.ssh/**`,
  `${HOME}/.aws`,
  `${HOME}/.aws/**`,
  `${HOME}/.gnupg`,
  `${HOME}/.gnupg/**`,
  `${HOME}/.docker/config.json`,
  `${HOME}/.kube/config`,
  `${HOME}/.npmrc`,
  `${HOME}/.pypirc`,
  `${HOME}/.netrc`,
  `${HOME}/.config/gh/**`,
  `${HOME}/.memnox/**`,
  `${HOME}/Library/Keychains/**`,
  "/root/.ssh/**",
  "/proc/*/mem",
  "/proc/*/environ",
  "/proc/kcore",
  "/etc/shadow",
  "/etc/gshadow",
  "/etc/sudoers",
  "/etc/sudoers.d/**",
  "**/.env",
  "**/.env.!(example|sample|template)",
];

/** The gate's deps, dry, under the baseline protect --yes writes, in enforce, for a line run at CORPUS_CTX. */
export function baselineGateDeps(home: FakeHome, keysDir?: string) {
  const base = baselineRules(verbTables(), { date: "2026-11-30", ...(keysDir ? { keysDir } : {}) });
  writeFileSync(join(home.memnoxHome, "machine.policies.toml"), renderRuleFile([], base.machine));
  writeFileSync(join(home.memnoxHome, "repo.policies.toml"), renderRuleFile([], base.repository));
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  const { ctx } = testContext(home, {
    cwd: CORPUS_CTX.cwd,
    env: { HOME: CORPUS_CTX.home, MEMNOX_POLICIES: join(home.memnoxHome, "repo.policies.toml") },
  });
  return gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
}

export type Want = "stop" | "allow";

export interface Case {
  readonly corpus: string;
  readonly command: string;
  readonly want: Want;
  readonly label: string;
  readonly contested: boolean;
}

export function readJsonl(file: string): Record<string, unknown>[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

function want(expected: unknown): Want | undefined {
  if (expected === "block" || expected === "ask") return "stop";
  if (expected === "allow" || expected === "allow+log") return "allow";
  return undefined;
}

export function corpusCases(dir: string): Case[] {
  const out: Case[] = [];
  const add = (corpus: string, c: Record<string, unknown>, label: string) => {
    const w = want(c.expected);
    if (w && typeof c.command === "string") {
      out.push({ corpus, command: c.command, want: w, label, contested: c.contested === true });
    }
  };
  for (const c of readJsonl(join(dir, "rampart.jsonl"))) {
    if (c.policy === "rampart standard" && c.tool === "exec" && c.os !== "windows")
      add("rampart", c, String(c.id ?? c.category));
  }
  for (const c of readJsonl(join(dir, "dcg.jsonl"))) {
    if (String(c.config ?? "").startsWith("dcg-default")) add("dcg", c, String(c.category));
  }
  for (const c of readJsonl(join(dir, "claude-code-safety-net.jsonl"))) {
    if (c.default_mode === true) add("claude-code-safety-net", c, String(c.test));
  }
  return out;
}

export function isSecretRead(a: Action): boolean {
  if (a.name === "keychain.read") return true;
  return (
    a.name === "filesystem.read" && a.targets.some((t) => SECRET_GLOBS.some((g) => minimatch(t, g, { dot: true })))
  );
}

/** Something a rule can stop: destructive, outward, unknown, a delete, a write, or a secret read. */
export function stoppable(actions: readonly Action[]): boolean {
  return actions.some(
    (a) => a.class !== "read" || a.name === "filesystem.delete" || a.name === "filesystem.write" || isSecretRead(a),
  );
}

/** What the whole gate answers a corpus line with: the baseline protect --yes writes, in enforce, nothing recorded. */
export function baselineVerdicts(home: FakeHome): (c: Case) => Effect {
  const d = baselineGateDeps(home, join(CORPUS_CTX.home, ".ssh"));
  const at = d.now();
  return (c) =>
    assess({ surface: "shell", command: c.command, cwd: CORPUS_CTX.cwd, canAsk: true }, d, at).combined.effect;
}

/** A peer stops it and the gate does not allow it, or a peer allows it and so does the gate. */
export function agreesWith(verdict: (c: Case) => Effect): (c: Case) => boolean {
  return (c) => (c.want === "stop" ? verdict(c) !== "allow" : verdict(c) === "allow");
}
