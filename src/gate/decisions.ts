// Decisions bind: a decision the team recorded in memory tightens a verdict on an action that shares its terms, and
// never loosens one. The gate holds them as state handed in (memory's snapshot file), read by one stat per call.
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import type { Action } from "../core/action.ts";
import { DECISIONS_FILE, type Decision, overlap, parseDecisions } from "../core/decisions.ts";
import type { RuleRef } from "../core/verdict.ts";
import { MACHINE_PROJECT_ID, projectIdAt } from "../io/project-id.ts";
import type { Env } from "../ports/index.ts";
import type { Paths } from "../ports/paths.ts";
import type { Finding } from "./combine.ts";

/** Machine-wide decisions bind in every directory: memory's opaque machine id, and the name stores kept before it. */
const MACHINE: ReadonlySet<string> = new Set([MACHINE_PROJECT_ID, "machine"]);

/** The page a decision is recorded on, as the rule reference rows and `why` name. */
function decisionRef(d: Pick<Decision, "slug" | "file">): RuleRef {
  return { name: `decision:${d.slug}`, file: d.file, line: 1 };
}

/** One finding per decision the action contradicts: an ask, the decision quoted, the matching words named. */
export function decisionFindings(
  action: Action,
  decisions: readonly Decision[],
  cwd: string,
  nowIso: string,
): Finding[] {
  const out: Finding[] = [];
  for (const d of decisions) {
    if ((d.valid_from && d.valid_from > nowIso) || (d.valid_until && d.valid_until <= nowIso)) continue;
    const shared = overlap(d, action, cwd);
    if (shared.length > 0) out.push(decisionFinding(action, d, shared));
  }
  return out;
}

/** The ask a decision adds, quoting it and naming the words the action shares with it. */
export function decisionFinding(action: Action, d: Decision, shared: readonly string[]): Finding {
  return {
    action,
    effect: "ask",
    source: "decision",
    reason: `a recorded decision applies: "${d.statement}" (memory page ${d.slug}), and ${action.name} touches ${shared.map((t) => `"${t}"`).join(", ")}; a person decides whether this contradicts it`,
    ref: decisionRef(d),
    decision: { ...d, terms: [...shared] },
  };
}

/** The store whose decisions bind: MEMNOX_MEMORY_DIR, else memex's MEMEX_DATA_DIR, else ~/.memnox/memory. */
export function decisionsFileOf(env: Env, paths: Paths): string {
  const chosen = env.MEMNOX_MEMORY_DIR || env.MEMEX_DATA_DIR;
  const dir =
    chosen && (isAbsolute(chosen) || chosen.startsWith("~/"))
      ? chosen.startsWith("~/")
        ? join(paths.home, chosen.slice(2))
        : chosen
      : paths.memory;
  return join(dir, DECISIONS_FILE);
}

function stampOf(path: string): string | undefined {
  const s = statSync(path, { throwIfNoEntry: false });
  return s ? `${s.ino}:${s.size}:${s.mtimeMs}` : undefined;
}

/**
 * The decisions binding at a directory: its project's and the machine's. The snapshot is read again only when its
 * stamp moves, and a directory's project id is worked out once; with no snapshot the cost is one stat.
 */
export function decisionsReader(file: string): (cwd: string) => readonly Decision[] {
  let seen: string | undefined;
  let all: Decision[] = [];
  const projects = new Map<string, string>();
  return (cwd) => {
    const stamp = stampOf(file);
    if (stamp === undefined) return [];
    if (stamp !== seen) {
      try {
        all = parseDecisions(readFileSync(file, "utf8"));
      } catch {
        all = [];
      }
      seen = stamp;
    }
    if (all.length === 0) return [];
    let project = projects.get(cwd);
    if (project === undefined) {
      project = projectIdAt(cwd);
      projects.set(cwd, project);
    }
    return all.filter((d) => MACHINE.has(d.project_id) || d.project_id === project);
  };
}
