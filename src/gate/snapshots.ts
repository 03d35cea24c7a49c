// Claude Code's own shell snapshots (`<claude dir>/shell-snapshots/snapshot-<shell>-<n>-<id>.sh`): it writes one from
// the person's shell start-up files and sources it before every Bash command. Writing one is the agent's own state,
// never a write outside the project; sourcing one is read and resolved like a script in the checkout, so what the
// file really holds is what is ruled on (a snapshot an agent filled with commands meets the rules as those commands).
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { claudeDir } from "../core/agent-paths.ts";

/** Snapshots hold the person's functions and aliases: larger than a project script may be. */
const MAX_SNAPSHOT_BYTES = 1 << 20;

const SNAPSHOT = /^snapshot-[a-z]+-\d+-[a-z0-9]+\.sh$/;

/** Where Claude Code keeps its snapshots: CLAUDE_CONFIG_DIR, else ~/.claude. */
export function snapshotDir(home: string, env?: Readonly<Record<string, string | undefined>>): string {
  return join(claudeDir(home, env ?? {}), "shell-snapshots");
}

function isAgentSnapshot(path: string, home: string, env?: Readonly<Record<string, string | undefined>>): boolean {
  const dir = `${snapshotDir(home, env)}/`;
  return path.startsWith(dir) && SNAPSHOT.test(path.slice(dir.length));
}

/** The text of a snapshot the line sources, for the resolver; undefined for anything else. */
export function snapshotText(
  path: string,
  home: string,
  env?: Readonly<Record<string, string | undefined>>,
): string | undefined {
  if (!isAgentSnapshot(path, home, env)) return undefined;
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_SNAPSHOT_BYTES) return undefined;
    const text = readFileSync(path, "utf8");
    return text.includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  }
}
