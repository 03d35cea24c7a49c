// ~/.memnox/milestone-repos.json: every repository a milestone was kept in, so `uninstall --purge` can take its
// refs/memnox (copies of untracked files such as .env) back out of each. Written once per repository.
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

export function milestoneRepos(file: string): string[] {
  try {
    const raw = readJsonIfExists(file);
    return Array.isArray(raw) ? raw.filter((r): r is string => typeof r === "string") : [];
  } catch {
    return [];
  }
}

/** Adds `root` to the list unless it is there; a list that cannot be written costs the milestone nothing. */
export function noteMilestoneRepo(file: string, root: string): void {
  if (milestoneRepos(file).includes(root)) return;
  try {
    withLock(file, () => {
      const now = milestoneRepos(file);
      if (!now.includes(root)) writeJsonAtomic(file, [...now, root]);
    });
  } catch {
    // The ledger's rows still name the repository; purge reads both.
  }
}
