// A repository with a real bare origin it has pushed main to: what a refused push is proven against (origin unchanged).

import { type Tree, tempDir } from "./fs.ts";
import { type GitRepo, gitRepo } from "./git.ts";

export interface WithOrigin extends Disposable {
  readonly repo: GitRepo;
  readonly originPath: string;
  /** main at the origin, as `git rev-parse` reads it there. */
  originHead(): string;
}

export function repoWithOrigin(tree: Tree = { "README.md": "one\n" }): WithOrigin {
  const origin = tempDir("memnox-origin");
  const repo = gitRepo(tree);
  Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", origin.path]);
  repo.git("remote", "add", "origin", origin.path);
  repo.git("push", "-q", "origin", "main");
  return {
    repo,
    originPath: origin.path,
    originHead: () => Bun.spawnSync(["git", "-C", origin.path, "rev-parse", "main"]).stdout.toString().trim(),
    [Symbol.dispose]: () => {
      repo[Symbol.dispose]();
      origin[Symbol.dispose]();
    },
  };
}
