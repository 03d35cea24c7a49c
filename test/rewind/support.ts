// What a rewind test compares: every file on disk (bytes, exec bit, symlink target) and git's own state beside it.
import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { COMMITTED } from "../../fixtures/rewind/worktree.ts";
import { bunGit, ownGit } from "../../src/adapters/proc.ts";
import type { Git, RunOptions } from "../../src/ports/index.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import type { AutoDeps } from "../../src/rewind/auto.ts";
import { milestoneId } from "../../src/rewind/id.ts";
import { type GitRepo, gitRepo } from "../support/git.ts";
import { hermeticEnv } from "../support/home.ts";

export type Entry = { kind: "file"; sha: string; exec: boolean } | { kind: "link"; to: string } | { kind: "dir" };

/** Everything under `root` except `.git`, sorted by path. */
export function snapshot(root: string): Record<string, Entry> {
  const out: Record<string, Entry> = {};
  const walk = (rel: string) => {
    for (const name of readdirSync(join(root, rel)).sort()) {
      const path = rel ? `${rel}/${name}` : name;
      if (path === ".git") continue;
      const st = lstatSync(join(root, path));
      if (st.isSymbolicLink()) out[path] = { kind: "link", to: readlinkSync(join(root, path)) };
      else if (st.isDirectory()) {
        out[path] = { kind: "dir" };
        walk(path);
      } else {
        const sha = createHash("sha256")
          .update(readFileSync(join(root, path)))
          .digest("hex");
        out[path] = { kind: "file", sha, exec: (st.mode & 0o100) !== 0 };
      }
    }
  };
  walk("");
  return out;
}

/** git's view, read without optional locks so reading it never rewrites the index. */
export function gitState(repo: GitRepo) {
  const g = (...args: string[]) => repo.git("--no-optional-locks", ...args);
  return {
    status: g("status", "--porcelain=v1", "--untracked-files=all"),
    stagedEntries: g("ls-files", "-s"),
    indexSha: createHash("sha256")
      .update(readFileSync(repo.join(".git", "index")))
      .digest("hex"),
    head: g("rev-parse", "HEAD"),
    branches: g("for-each-ref", "refs/heads", "refs/tags", "--format=%(refname) %(objectname)"),
    stash: g("stash", "list", "--format=%H %gs"),
    logAll: g("log", "--all", "--format=%H"),
    reflog: g("reflog", "--all", "--format=%H %gd %gs"),
    symbolicHead: g("rev-parse", "--symbolic-full-name", "HEAD"),
  };
}

/**
 * The fixture: committed files, then one stash entry and a second branch, then the uncommitted kinds: a modified
 * file, a staged one, an untracked one, an ignored file and directory, a deleted tracked file.
 */
export function fixtureRepo(): GitRepo {
  const repo = gitRepo(COMMITTED);
  repo.git("branch", "feature");
  writeFileSync(repo.join("docs/guide.md"), "stashed edit\n");
  repo.git("stash", "push", "-q", "-m", "kept by the person");
  writeFileSync(repo.join("src/app.ts"), "export const app = 2; // modified, not staged\n");
  writeFileSync(repo.join("docs/guide.md"), "guide, staged edit\n");
  repo.git("add", "docs/guide.md");
  writeFileSync(repo.join("notes.txt"), "untracked notes, no other copy anywhere\n");
  mkdirSync(repo.join("scratch"), { recursive: true });
  writeFileSync(repo.join("scratch/tmp.sh"), "#!/bin/sh\n");
  chmodSync(repo.join("scratch/tmp.sh"), 0o755);
  writeFileSync(repo.join("debug.log"), "ignored log\n");
  mkdirSync(repo.join("node_modules/pkg"), { recursive: true });
  writeFileSync(repo.join("node_modules/pkg/index.js"), "ignored dependency\n");
  rmSync(repo.join("src/doomed.ts"));
  return repo;
}

/** A Git port that records every call (args and scratch index) and can be told to fail one verb. */
export function recordingGit(env: Record<string, string>, fail?: string) {
  const real = bunGit(env, ownGit(memnoxPaths(env), process.execPath));
  const calls: { args: string[]; index: string | undefined }[] = [];
  const git: Git = {
    run: async (args, opts: RunOptions & { cwd: string }) => {
      calls.push({ args: [...args], index: opts.env?.GIT_INDEX_FILE });
      if (fail && args.includes(fail)) return { code: 128, stdout: new Uint8Array(), stderr: `fatal: ${fail} broke\n` };
      return real.run(args, opts);
    },
  };
  return { git, calls, verbs: () => calls.map((c) => c.args.find((a) => /^[a-z][a-z-]*$/.test(a)) ?? "") };
}

/** Rewind deps on a fake clock; every id is distinct and ordered. */
export function testDeps(
  opts: { checkpoints: string; git?: Git; nowMs?: number; fail?: string } = { checkpoints: "" },
) {
  const env = hermeticEnv({ HOME: "/nonexistent-home" });
  const rec = recordingGit(env, opts.fail);
  let now = opts.nowMs ?? Date.parse("2026-11-30T12:00:00.000Z");
  let n = 0;
  const logged: string[] = [];
  const deps: AutoDeps = {
    git: opts.git ?? rec.git,
    env,
    clock: { now: () => now },
    newId: () => milestoneId(now, new Uint8Array([0, n++])),
    checkpoints: opts.checkpoints,
    log: (l) => logged.push(l),
  };
  return {
    deps,
    calls: rec.calls,
    verbs: rec.verbs,
    logged,
    advance: (ms: number) => {
      now += ms;
    },
  };
}
