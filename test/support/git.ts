// Real git repositories in temporary directories.
import { join } from "node:path";
import { type TempDir, type Tree, tempDir } from "./fs.ts";
import { hermeticEnv } from "./home.ts";

export interface GitRepo extends TempDir {
  git(...args: string[]): string;
}

/** A repository with `tree` committed on `main` (unless `commit: false`). */
export function gitRepo(tree: Tree = {}, opts: { commit?: boolean; home?: string; base?: string } = {}): GitRepo {
  const dir = tempDir("memnox-repo", tree, opts.base);
  const env = hermeticEnv({ HOME: opts.home ?? join(dir.path, ".git", "no-home") });
  const git = (...args: string[]): string => {
    const r = Bun.spawnSync(["git", ...args], { cwd: dir.path, env, stdout: "pipe", stderr: "pipe" });
    if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")} failed: ${r.stderr.toString()}`);
    return r.stdout.toString();
  };
  git("init", "-q", "-b", "main");
  if (opts.commit !== false && Object.keys(tree).length > 0) {
    git("add", "-A");
    git("commit", "-q", "-m", "initial");
  }
  return { ...dir, git };
}
