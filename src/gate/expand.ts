// THE target expansion, at decision time against the filesystem: what a path the resolver read really names.
// Globs are matched against the directories they walk, symlinks (also a folder's, for a file not there yet) are
// followed, and a target the line leaves open (`$f`, `$(cmd)`, a glob nothing matched) is compared with every
// protected and secret pattern: each it could be is kept as a witness, which the rules then meet as if it matched.
// Every file rule (protected paths, secret reads) sees the same expanded targets; the resolver stays pure.
import { lstatSync, readdirSync, realpathSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import type { Action, PossibleTarget } from "../core/action.ts";
import { secretReadTargets } from "../policy/baseline.ts";
import type { Env } from "../ports/index.ts";
import { couldBe, isBare } from "./could-match.ts";
import { protectedPaths } from "./protected.ts";

/** A glob never names more files than this; the rest of a huge directory is not read. */
const MAX_MATCHES = 256;
/** Directories a glob may walk before it gives up (an open target is still compared with every pattern). */
const MAX_DIRS = 64;

const GLOB = /[*?[]/;
const OPEN = /\$[A-Za-z_({0-9@*#?$!-]/;

interface ExpandContext {
  readonly home: string;
  /** MEMNOX_HOME as this process has it. */
  readonly root: string;
  readonly env: Env;
}

export interface TargetExpander {
  (action: Action, cwd: string): Action;
  /** The patterns an open target is compared with (protected paths, then secrets), absolute. */
  readonly patterns: readonly string[];
}

/** Rule-style patterns (`~/x`, `.env`, `**\/.ssh/**`, `/etc/shadow`) as absolute globs, a folder covering what is in it. */
function absolutePatterns(patterns: readonly string[], home: string): string[] {
  const out = new Set<string>();
  for (const raw of patterns) {
    const p = raw === "~" || raw.startsWith("~/") ? home + raw.slice(1) : raw;
    const abs = p.startsWith("/") ? p : `/**/${p}`;
    out.add(abs);
    if (!abs.endsWith("/**")) out.add(`${abs}/**`);
  }
  return [...out];
}

export function targetExpander(at: ExpandContext): TargetExpander {
  let patterns: string[] | undefined;
  const all = () => {
    patterns ??= [
      ...protectedPaths(at).map((p) => p.pattern),
      ...absolutePatterns(secretReadTargets(join(at.root, "keys")), at.home),
    ];
    return patterns;
  };
  const expand = (action: Action, cwd: string): Action => {
    if (!action.name.startsWith("filesystem.") && action.name !== "shell.script" && action.name !== "shell.source")
      return action;
    const targets = new Set(action.targets);
    const possible: PossibleTarget[] = [];
    for (const whole of action.targets) {
      // `<path>/**` (or `<path>/**/<name>`) is the resolver's "everything under it" (a recursive reader): the rules
      // read it as such, reaching into it, so only the path is expanded, and the tail goes back on each place it leads.
      const tail = subtreeTail(whole);
      const t = tail ? whole.slice(0, -tail.length) : whole;
      const mark = (p: string) => (tail ? `${p}${tail}` : p);
      targets.add(whole);
      const open = OPEN.test(t);
      const glob = !open && GLOB.test(t);
      const matches = glob && t.startsWith("/") ? globMatches(t) : [];
      for (const m of [...(glob ? [] : [t]), ...matches]) {
        targets.add(mark(m));
        if (m.startsWith("/") && !open) for (const r of real(m)) targets.add(mark(r));
      }
      if (!open && !(glob && matches.length === 0)) continue;
      const abs = mark(t.startsWith("/") || t.startsWith("$") ? t : `${cwd}/${t}`);
      const could = couldBe(abs, all());
      if (could.length > 0) possible.push({ target: whole, bare: isBare(abs, cwd, at.home), could });
    }
    if (targets.size === action.targets.length && possible.length === 0) return action;
    return { ...action, targets: [...targets], ...(possible.length > 0 ? { possible } : {}) };
  };
  // A getter defined, not assigned: Object.assign would call it, building every pattern for each expander made.
  return Object.defineProperty(expand, "patterns", { get: all, enumerable: true }) as TargetExpander;
}

/** `/**` or `/**\/*.ts` of a subtree value the engine reaches into (`D/**`, `D/**\/*.ts`), or undefined. */
function subtreeTail(v: string): string | undefined {
  const i = v.indexOf("/**");
  if (i <= 0) return undefined;
  const after = v.slice(i + 3);
  return after === "" || after.startsWith("/") ? v.slice(i) : undefined;
}

/** A path's physical forms: itself resolved, or for one not there yet, its folder resolved with its name. */
function real(p: string): string[] {
  try {
    const whole = realpathSync(p);
    return whole === p ? [] : [whole];
  } catch {
    try {
      const dir = realpathSync(dirname(p));
      return dir === dirname(p) ? [] : [join(dir, basename(p))];
    } catch {
      return [];
    }
  }
}

/** One glob segment as a test: `*` any run and `?` one character within the name, `[…]` a class. */
function segmentTest(seg: string): (name: string) => boolean {
  let re = "";
  for (let i = 0; i < seg.length; i++) {
    const c = seg[i] ?? "";
    if (c === "*") re += "[^/]*";
    else if (c === "?") re += "[^/]";
    else if (c === "[") {
      const close = seg.indexOf("]", i + 2);
      if (close < 0) re += "\\[";
      else {
        const body = seg
          .slice(i + 1, close)
          .replace(/^!/, "^")
          .replace(/\\/g, "\\\\");
        re += `[${body}]`;
        i = close;
      }
    } else re += c.replace(/[.+^${}()|\\]/g, "\\$&");
  }
  const rx = new RegExp(`^${re}$`);
  return (name) => rx.test(name);
}

/** The paths an absolute glob names on this disk, walking only the folders it reaches (dotfiles included). */
export function globMatches(pattern: string): string[] {
  const segs = pattern.split("/").filter((s) => s !== "");
  let found: string[] = ["/"];
  let walked = 0;
  for (const seg of segs) {
    const next: string[] = [];
    for (const dir of found) {
      if (!GLOB.test(seg)) {
        next.push(join(dir, seg));
        continue;
      }
      if (++walked > MAX_DIRS) return [];
      let names: string[];
      try {
        names = readdirSync(dir);
      } catch {
        continue;
      }
      const test = segmentTest(seg);
      for (const n of names) if (test(n)) next.push(join(dir, n));
      if (next.length > MAX_MATCHES) return next.slice(0, MAX_MATCHES);
    }
    found = next;
    if (found.length === 0) return [];
  }
  return found.filter((p) => exists(p));
}

/** There, a dangling link included (the shell's glob lists it too). */
function exists(p: string): boolean {
  try {
    lstatSync(p);
    return true;
  } catch {
    return false;
  }
}
