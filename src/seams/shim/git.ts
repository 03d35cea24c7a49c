// The git interceptor decides on what git will run, not on the words typed: the configuration the real git reads
// (aliases, remote push refspecs and mirror, `-c`, GIT_CONFIG_* and every config file) is asked of the real git.
import { isAbsolute, resolve } from "node:path";
import { currentBranch } from "../../io/repo.ts";
import type { Env } from "../../ports/index.ts";
import { type Effective, effectiveGit, type GitSettings, gitWords, isGitCommand } from "../../resolve/index.ts";

/** What the gate rules on for one git call, and the words that say why it differs from the call. */
export interface GitPlan {
  readonly request: { readonly argv: readonly string[] } | { readonly command: string };
  readonly note?: string;
}

/** `key\nvalue\0` records of `git config -z --get-regexp`, keys lowercased as git compares them. */
function parseSettings(out: string): GitSettings {
  const settings = new Map<string, string[]>();
  for (const record of out.split("\0")) {
    if (record === "") continue;
    const nl = record.indexOf("\n");
    const key = (nl < 0 ? record : record.slice(0, nl)).toLowerCase();
    settings.set(key, [...(settings.get(key) ?? []), nl < 0 ? "true" : record.slice(nl + 1)]);
  }
  return settings;
}

function readSettings(realGit: string, head: readonly string[], cwd: string, env: Env): GitSettings {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const r = Bun.spawnSync([realGit, ...head.slice(1), "config", "-z", "--get-regexp", "^(alias|remote|branch)\\."], {
    cwd,
    env: clean,
    stdout: "pipe",
    stderr: "ignore",
  });
  return parseSettings(r.stdout.toString());
}

/** The directory git acts in: its `-C` options applied to `cwd`. */
function repoDir(head: readonly string[], cwd: string): string {
  let dir = cwd;
  for (let i = 1; i < head.length; i++) if (head[i] === "-C" && head[i + 1]) dir = resolve(dir, head[++i] ?? ".");
  return isAbsolute(dir) ? dir : resolve(cwd, dir);
}

export function gitPlan(argv: readonly string[], realGit: string, cwd: string, env: Env): GitPlan {
  const words = gitWords(argv);
  const sub = words.sub;
  // Only a push or a name git has no command for can mean something else: everything else is ruled as typed.
  if (sub === undefined || (sub !== "push" && isGitCommand(sub))) return { request: { argv } };
  const settings = readSettings(realGit, words.head, cwd, env);
  const eff: Effective = effectiveGit(argv, settings, currentBranch(repoDir(words.head, cwd)));
  // An alias whose words cannot be read stays `git <alias>`: a subcommand no table knows, which asks.
  if (eff.kind === "unreadable") return { request: { argv } };
  const note = eff.notes.length > 0 ? eff.notes.join("; ") : undefined;
  if (eff.kind === "line") return { request: { command: eff.line }, ...(note ? { note } : {}) };
  return { request: { argv: eff.argv }, ...(note ? { note } : {}) };
}
