// Where a `git.push` lands, as a per-call state fact (`push:<where>`) the rules can name: `default` (the remote's
// default branch), `protected` (a shared branch by name), `tag`, `branch` (a branch of its own), or `unknown`. A push
// that is not forced cannot destroy anything (git refuses anything but a new ref or a fast-forward without --force,
// and a forced or deleting push is another action), so the baseline lets `push:branch` proceed and asks the rest.
// Read from .git's files, so the hook starts no git process; the fact is recorded on the row, so replay agrees.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../core/action.ts";
import type { StateFact } from "../core/request.ts";
import { readRegularFile } from "../io/files.ts";
import { currentBranch, gitDir, repoRoot } from "../io/repo.ts";

const PUSH = "push";
type PushWhere = "default" | "protected" | "tag" | "branch" | "unknown";

/** Branches that are shared by convention wherever the remote's default is something else. */
const PROTECTED = [
  /^(main|master|trunk|develop|development|dev|production|prod|staging|stable|live|gh-pages)$/,
  /^(release|releases|hotfix|hotfixes|prod|production|deploy)([/_-].*)?$/,
  /^v?\d+(\.\d+)*(\.x)?$/,
];

/** Order of concern: a line that pushes to several places is judged by the most shared one. */
const RANK: Readonly<Record<PushWhere, number>> = { branch: 0, unknown: 1, protected: 2, tag: 3, default: 4 };

function read(path: string): string | undefined {
  try {
    return readRegularFile(path, 1 << 20).toString("utf8");
  } catch {
    return undefined;
  }
}

/** The remote's default branch: refs/remotes/<remote>/HEAD, else init.defaultBranch, else undefined. */
function defaultBranch(dir: string, remote: string): string | undefined {
  const head = read(join(dir, "refs", "remotes", remote, "HEAD"));
  const m = head ? /^ref: refs\/remotes\/[^/]+\/(.+)$/m.exec(head) : null;
  if (m?.[1]) return m[1].trim();
  try {
    const config = readFileSync(join(dir, "config"), "utf8");
    const d = /\[init\][^[]*?defaultBranch\s*=\s*(\S+)/i.exec(config);
    if (d?.[1]) return d[1];
  } catch {
    // no config
  }
  return undefined;
}

function isLocalTag(dir: string, name: string): boolean {
  if (read(join(dir, "refs", "tags", name)) !== undefined) return true;
  const packed = read(join(dir, "packed-refs")) ?? "";
  return packed.split("\n").some((l) => l.endsWith(` refs/tags/${name}`));
}

function isLocalBranch(dir: string, name: string): boolean {
  if (read(join(dir, "refs", "heads", name)) !== undefined) return true;
  const packed = read(join(dir, "packed-refs")) ?? "";
  return packed.split("\n").some((l) => l.endsWith(` refs/heads/${name}`));
}

/** Where one destination lands. */
function classify(dst: string, dir: string, remote: string, current: string | undefined): PushWhere {
  let ref = dst === "HEAD" || dst === "@" ? (current ?? "") : dst;
  if (ref === "") return "unknown";
  if (ref.startsWith("refs/tags/")) return "tag";
  if (ref.startsWith("refs/heads/")) ref = ref.slice("refs/heads/".length);
  else if (ref.startsWith("refs/")) return "unknown";
  else if (isLocalTag(dir, ref) && !isLocalBranch(dir, ref)) return "tag";
  const def = defaultBranch(dir, remote);
  if (def !== undefined && ref === def) return "default";
  if (def === undefined && (ref === "main" || ref === "master")) return "default";
  return PROTECTED.some((re) => re.test(ref)) ? "protected" : "branch";
}

const TAG_FLAGS = new Set(["--tags", "--follow-tags"]);
const ALL_FLAGS = new Set(["--all", "--branches"]);

/** The flags of a push that say where it lands: what crosses the daemon's socket (flags only, no values). */
export function pushFlagsOf(action: Action): string[] {
  return (action.arguments.argv ?? []).filter((a) => TAG_FLAGS.has(a) || ALL_FLAGS.has(a));
}

/** Where a push action lands, read from its targets (`remote refspec…`) and flags. */
function pushWhere(action: Action, cwd: string): PushWhere {
  const root = repoRoot(action.cwd ?? cwd);
  const dir = root ? gitDir(root) : undefined;
  if (!dir) return "unknown";
  const argv = action.arguments.argv ?? [];
  if (argv.some((a) => TAG_FLAGS.has(a))) return "tag";
  if (argv.some((a) => ALL_FLAGS.has(a))) return "default";
  const [remote = "origin", ...refspecs] = action.targets;
  const current = currentBranch(root ?? cwd);
  // No refspec: what push.default pushes, the current branch to its namesake.
  const dsts = (refspecs.length > 0 ? refspecs : [current ?? ""]).map((r) => {
    const spec = r.startsWith("+") ? r.slice(1) : r;
    const i = spec.indexOf(":");
    return i >= 0 ? spec.slice(i + 1) || spec.slice(0, i) : spec;
  });
  return dsts.map((d) => classify(d, dir, remote, current)).reduce((a, b) => (RANK[b] > RANK[a] ? b : a), "branch");
}

/** A `push:<where>` fact for the call's pushes, good for this decision only. */
export function pushFacts(actions: readonly Action[], cwd: string, nowMs: number): StateFact[] {
  const pushes = actions.filter((a) => a.name === "git.push");
  if (pushes.length === 0) return [];
  const where = pushes.map((a) => pushWhere(a, cwd)).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
  return [{ kind: PUSH, subject: where, expiresAt: new Date(nowMs + 60_000).toISOString() }];
}
