// The command line an agent runs for memnox's hook, and how to know one when it is in somebody's settings.
import { basename } from "node:path";

/** The words of a simple command line: quotes undone, nothing expanded. */
function commandWords(line: string): string[] {
  const words: string[] = [];
  const re = /'([^']*)'|"((?:\\.|[^"\\])*)"|((?:\\.|[^\s'"])+)/g;
  let word = "";
  let last = -1;
  for (const m of line.matchAll(re)) {
    const piece = m[1] ?? m[2]?.replace(/\\(.)/g, "$1") ?? m[3]?.replace(/\\(.)/g, "$1") ?? "";
    const at = m.index ?? 0;
    if (last === at) word += piece;
    else {
      if (last !== -1) words.push(word);
      word = piece;
    }
    last = at + m[0].length;
  }
  if (last !== -1) words.push(word);
  return words;
}

interface MemnoxHook {
  /** The launcher words before `hook`: the binary (or bun and the script). */
  readonly launcher: readonly string[];
  readonly agent: string;
  readonly event: string | undefined;
}

/** memnox's hook for `agent` (any agent when omitted) in a command line, or undefined when it is somebody else's. */
export function memnoxHookIn(line: string, agent?: string): MemnoxHook | undefined {
  const words = commandWords(line);
  const at = words.indexOf("hook");
  if (at < 1) return undefined;
  const program = words[at - 1] ?? "";
  if (!basename(program).startsWith("memnox")) return undefined;
  const named = words[at + 1];
  if (named === undefined || (agent !== undefined && named !== agent)) return undefined;
  return { launcher: words.slice(0, at), agent: named, event: words[at + 2] };
}
