// The generic word matcher: subcommand words and options of an argv against a verb table.
import { asciiDashes } from "../argv.ts";
import type { Arg } from "../call.ts";
import type { VerbEntry, VerbTable } from "../types.ts";

export interface Scanned {
  readonly positional: readonly Arg[];
  /** Option name (`-f`, `--force`, and the whole token `-destroy`) to the values given with it. */
  readonly flags: ReadonlyMap<string, readonly string[]>;
}

interface TableMatch {
  readonly entry: VerbEntry;
  readonly action: string;
  /** Positional words after the matched path: the command's own targets. */
  readonly rest: readonly Arg[];
}

export function scan(args: readonly Arg[], valueFlags: readonly string[] = []): Scanned {
  const positional: Arg[] = [];
  const flags = new Map<string, string[]>();
  const add = (name: string, value = "") => flags.set(name, [...(flags.get(name) ?? []), value]);
  let dashdash = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = asciiDashes(a.text);
    if (dashdash || !a.static || t === "-" || !t.startsWith("-")) {
      positional.push(a);
      continue;
    }
    if (t === "--") {
      dashdash = true;
      continue;
    }
    const eq = t.indexOf("=");
    const name = eq < 0 ? t : t.slice(0, eq);
    const takesValue = valueFlags.includes(name) || (!t.startsWith("--") && valueFlags.includes(t.slice(0, 2)));
    if (t.startsWith("--") || eq >= 0) {
      const value = eq >= 0 ? t.slice(eq + 1) : takesValue ? (args[++i]?.text ?? "") : "";
      add(name, value);
      if (!t.startsWith("--")) add(t.slice(0, 2), value);
      continue;
    }
    add(t);
    if (takesValue) {
      const short = t.slice(0, 2);
      add(short, t.length > 2 ? t.slice(2) : (args[++i]?.text ?? ""));
      continue;
    }
    for (const ch of t.slice(1)) add(`-${ch}`);
  }
  return { positional, flags };
}

/** `*` matches anything, case-insensitively for option values. */
export function wild(pattern: string, text: string): boolean {
  if (!pattern.includes("*")) return pattern === text;
  const parts = pattern.split("*");
  let pos = 0;
  for (let i = 0; i < parts.length; i++) {
    const part = parts[i] ?? "";
    if (i === 0) {
      if (!text.startsWith(part)) return false;
      pos = part.length;
    } else if (i === parts.length - 1) {
      return text.length - part.length >= pos && text.endsWith(part);
    } else {
      const at = text.indexOf(part, pos);
      if (at < 0) return false;
      pos = at + part.length;
    }
  }
  return true;
}

function flagMatches(spec: string, flags: ReadonlyMap<string, readonly string[]>): boolean {
  const eq = spec.indexOf("=", 1);
  const name = eq < 0 ? spec : spec.slice(0, eq);
  const values = flags.get(name);
  if (!values) return false;
  if (eq < 0) return true;
  const want = spec.slice(eq + 1).toLowerCase();
  return values.some((v) => wild(want, v.toLowerCase()));
}

interface PathMatch {
  readonly score: number;
  readonly end: number;
}

/** Lazy match of path patterns against words from index 0; `**` costs a point per word it absorbs. */
function matchPath(path: readonly string[], words: readonly string[], pi = 0, wi = 0): PathMatch | undefined {
  if (pi === path.length) return { score: 0, end: wi };
  const p = path[pi] ?? "";
  if (p === "**") {
    for (let k = wi; k <= words.length; k++) {
      const m = matchPath(path, words, pi + 1, k);
      if (m) return { score: m.score - (k - wi), end: m.end };
    }
    return undefined;
  }
  const w = words[wi];
  if (w === undefined || !wild(p, w)) return undefined;
  const m = matchPath(path, words, pi + 1, wi + 1);
  if (!m) return undefined;
  const weight = p === "*" ? 1 : p.includes("*") ? 10 : 100;
  return { score: m.score + weight, end: m.end };
}

const RANK = { read: 0, write: 1, communication: 2, unknown: 3, destructive: 4 } as const;

export function matchTable(
  table: VerbTable,
  args: readonly Arg[],
  scanned = scan(args, table.valueFlags),
): TableMatch | undefined {
  const words = scanned.positional.map((a) => a.text);
  let best: { entry: VerbEntry; m: PathMatch; flagged: boolean } | undefined;
  for (const entry of table.verbs) {
    if (entry.when !== undefined) continue;
    const m = entry.path.length === 0 ? { score: -1, end: 0 } : matchPath(entry.path, words);
    if (!m) continue;
    const flagged = entry.flags !== undefined;
    if (flagged && !entry.flags?.some((f) => flagMatches(f, scanned.flags))) continue;
    if (!best || better({ entry, m, flagged }, best)) best = { entry, m, flagged };
  }
  if (!best) return undefined;
  const matched = words.slice(0, best.m.end);
  const action = renderAction(best.entry.action, matched);
  if (!action) return undefined;
  return { entry: best.entry, action, rest: scanned.positional.slice(best.m.end) };
}

function better(
  a: { entry: VerbEntry; m: PathMatch; flagged: boolean },
  b: { entry: VerbEntry; m: PathMatch; flagged: boolean },
): boolean {
  if (a.m.score !== b.m.score) return a.m.score > b.m.score;
  if (a.flagged !== b.flagged) return a.flagged;
  return RANK[a.entry.class] > RANK[b.entry.class];
}

const SAFE_WORD = /^[A-Za-z0-9][A-Za-z0-9_.:-]*$/;

/** Fills `{1}`… and `{path}` with the matched words; a word unfit for an action name gives undefined. */
export function renderAction(template: string, matched: readonly string[]): string | undefined {
  let ok = true;
  const clean = (w: string | undefined) => {
    if (w === undefined || !SAFE_WORD.test(w)) {
      ok = false;
      return "";
    }
    return w.toLowerCase().replace(/[.:]/g, "-");
  };
  const out = template
    .replace(/\{path\}/g, () => matched.map(clean).join("-"))
    .replace(/\{(\d)\}/g, (_, n: string) => clean(matched[Number(n) - 1]));
  return ok ? out : undefined;
}

/** The pattern a rule can name for every action an entry yields: placeholders become the entry's own path words. */
export function actionPattern(entry: Pick<VerbEntry, "action" | "path">): string {
  const word = (w: string) => (w === "**" ? "*" : w.toLowerCase().replace(/[.:]/g, "-"));
  return entry.action
    .replace(/\{path\}/g, () => entry.path.map(word).join("-"))
    .replace(/\{(\d)\}/g, (_, n: string) => word(entry.path[Number(n) - 1] ?? "*"));
}
