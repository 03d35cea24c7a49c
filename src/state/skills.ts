// What a person accepted of the skills, subagents and instruction files agents run on (skills.json), by content
// hash, and what the daemon already noticed, so a new or changed one is flagged once and stays flagged until accepted.
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

interface Accepted {
  readonly hash: string;
  readonly at: string;
  readonly by: string;
}

interface SkillsFile {
  readonly version: 1;
  readonly accepted: Readonly<Record<string, Accepted>>;
  /** The hash the daemon last raised a notice for, per item. */
  readonly noticed: Readonly<Record<string, string>>;
}

const EMPTY: SkillsFile = { version: 1, accepted: {}, noticed: {} };

export function readSkills(file: string): SkillsFile {
  const raw = readJsonIfExists(file);
  if (typeof raw !== "object" || raw === null) return EMPTY;
  const r = raw as Partial<SkillsFile>;
  return {
    version: 1,
    accepted: typeof r.accepted === "object" && r.accepted !== null ? r.accepted : {},
    noticed: typeof r.noticed === "object" && r.noticed !== null ? r.noticed : {},
  };
}

export function updateSkills(file: string, change: (s: SkillsFile) => SkillsFile): SkillsFile {
  return withLock(file, () => {
    const next = change(readSkills(file));
    writeJsonAtomic(file, next);
    return next;
  });
}

/** `new` (never accepted), `changed` (accepted, then its content moved) or `accepted`. */
export function skillState(s: SkillsFile, id: string, hash: string): "new" | "changed" | "accepted" {
  const a = s.accepted[id];
  if (!a) return "new";
  return a.hash === hash ? "accepted" : "changed";
}
