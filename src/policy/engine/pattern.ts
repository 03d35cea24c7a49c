// Wildcard patterns compiled once into matchers; the semantics are documented in src/policy/PATTERNS.md.
import { Minimatch } from "minimatch";

export type Matcher = (value: string) => boolean;

const ANY: Matcher = () => true;

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/** `*` matches any run of characters, `/` included; nothing else is special. */
export function globMatcher(pattern: string, nocase = false): Matcher {
  if (pattern === "*") return ANY;
  const p = nocase ? pattern.toLowerCase() : pattern;
  const fold = nocase ? (v: string) => v.toLowerCase() : (v: string) => v;
  if (!p.includes("*")) return (v) => fold(v) === p;
  const parts = p.split("*");
  const [head = "", tail = ""] = [parts[0], parts[parts.length - 1]];
  if (parts.length === 2) {
    return (v) => {
      const f = fold(v);
      return f.length >= head.length + tail.length && f.startsWith(head) && f.endsWith(tail);
    };
  }
  const middle = parts[1] ?? "";
  if (parts.length === 3 && head === "" && tail === "") return (v) => fold(v).includes(middle);
  const re = new RegExp(`^${parts.map(escapeRegExp).join("[\\s\\S]*")}$`);
  return (v) => re.test(fold(v));
}

/** Collapses `//`, `/./` and `/../` so a spelled-differently path meets the same rule. */
export function normalizePath(path: string): string {
  if (!/\/\.{0,2}(\/|$)/.test(path) && !path.includes("//")) return path;
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") out.pop();
    else out.push(seg);
  }
  return `/${out.join("/")}`;
}

function expandHome(pattern: string, home: string | undefined): string {
  if (home === undefined) return pattern;
  const h = home.endsWith("/") ? home.slice(0, -1) : home;
  if (pattern === "~") return h;
  return pattern.startsWith("~/") ? `${h}${pattern.slice(1)}` : pattern;
}

/** Each directory above `path` (not `/` itself), nearest first: a rule on a directory covers what is inside. */
function ancestors(path: string): string[] {
  const out: string[] = [];
  for (let i = path.lastIndexOf("/"); i > 0; i = path.lastIndexOf("/", i - 1)) out.push(path.slice(0, i));
  return out;
}

const isPath = (v: string) => v.startsWith("/");

let lastPath = "";
let lastSegments: readonly string[] = [];

/** A path's segments, remembered for the last path: every slash-free pattern of a rule set asks about the same one. */
function segmentsOf(path: string): readonly string[] {
  if (path !== lastPath) {
    lastSegments = normalizePath(path)
      .split("/")
      .filter((s) => s !== "");
    lastPath = path;
  }
  return lastSegments;
}

/** Literal runs every match must contain, when the pattern has no alternatives that could skip one. */
function requiredChunks(pattern: string): string[] {
  if (/[[\]{}()!@+]/.test(pattern)) return [];
  return pattern
    .toLowerCase()
    .split(/[*?]+/)
    .map((c) => c.replace(/^\/+|\/+$/g, ""))
    .filter((c) => c !== "");
}

function pathGlob(pattern: string): Matcher {
  if (pattern.includes("**") || /[?[\]{}]|[!@+*?]\(/.test(pattern)) {
    const mm = new Minimatch(pattern, { dot: true, nocase: true, platform: "linux" });
    return (v) => mm.match(v);
  }
  return globMatcher(pattern, true);
}

/**
 * How a rule meets a subtree value (`/home/sam/**`: a recursive read, copy, chmod or delete of everything under a
 * directory): an allow must `cover` all of it, a deny or an ask applies when it can `reach` any part of it.
 */
type SubtreeMode = "cover" | "reach";

/** `D` of a subtree value `D/**` (or `D/**\/<name>`), or undefined for an ordinary value. */
function subtreeRoot(v: string): string | undefined {
  if (!isPath(v)) return undefined;
  const i = v.indexOf("/**");
  if (i < 0) return undefined;
  const after = v.slice(i + 3);
  if (after !== "" && !after.startsWith("/")) return undefined;
  return normalizePath(v.slice(0, i) || "/");
}

const GLOB_CHAR = /[*?[\]{}]|[!@+]\(/;

/** The directory every match of a path pattern lies in (`/home/sam/.ssh` for `/home/sam/.ssh/id_*`); "" when any. */
function literalBase(pattern: string): string {
  const at = pattern.search(GLOB_CHAR);
  if (at === 0) return "";
  if (at < 0) return normalizePath(pattern).toLowerCase();
  const head = pattern.slice(0, at);
  return normalizePath(head.slice(0, head.lastIndexOf("/")) || "/").toLowerCase();
}

function isWithin(path: string, dir: string): boolean {
  return dir === "/" || path === dir || path.startsWith(`${dir}/`);
}

/**
 * Whether a pattern can match something under `root`: its literal base lies inside the subtree, or the pattern
 * can match anywhere (`**\/.ssh`, `.env`) and the subtree holds the home directory, where such files live.
 */
function reaches(base: string | undefined, root: string, home: string | undefined): boolean {
  const r = root.toLowerCase();
  if (base === undefined || base === "") return r === "/" || (home !== undefined && isWithin(home.toLowerCase(), r));
  return isWithin(base, r);
}

/**
 * A target or working-directory pattern. Slash-free patterns match the whole value or any one
 * segment of a path (gitignore-style); patterns with `/` are paths (`~/` expanded, relative ones
 * anchored at any depth) matched case-insensitively against the path and every directory above it.
 * A subtree value (`D/**`) is matched as `D` when the rule must cover it, and also wherever the
 * pattern reaches into it when the rule only has to touch it.
 */
export function pathMatcher(raw: string, home?: string, subtrees: SubtreeMode = "cover"): Matcher {
  if (raw === "*") return ANY;
  const plain = plainPathMatcher(expandHome(raw, home));
  if (subtrees === "cover") return (v) => plain.match(subtreeRoot(v) ?? v);
  return (v) => {
    const root = subtreeRoot(v);
    if (root === undefined) return plain.match(v);
    return plain.match(v) || plain.match(root) || reaches(plain.base, root, home);
  };
}

interface PlainMatcher {
  readonly match: Matcher;
  /** The literal directory every match lies in; "" when a match can be anywhere. */
  readonly base: string;
}

function plainPathMatcher(expanded: string): PlainMatcher {
  let pattern = expanded;
  if (!pattern.includes("/")) {
    const whole = globMatcher(pattern);
    const segment = globMatcher(pattern, true);
    return { match: (v) => whole(v) || (isPath(v) && segmentsOf(v).some(segment)), base: "" };
  }
  if (pattern.length > 1 && pattern.endsWith("/")) pattern = pattern.slice(0, -1);
  if (!pattern.startsWith("/")) pattern = `**/${pattern}`;
  const glob = pathGlob(pattern);
  const chunks = requiredChunks(pattern);
  // A path (or a directory above it) can only match if it holds every literal run: a cheap no before the glob.
  const match = (v: string) => {
    if (!isPath(v)) return glob(v);
    const p = normalizePath(v);
    const lower = p.toLowerCase();
    if (!chunks.every((c) => lower.includes(c))) return false;
    return glob(p) || ancestors(p).some(glob);
  };
  return { match, base: literalBase(pattern) };
}

/** Characters of a pattern that are not wildcards: the tie-break for "most specific". */
export function literalLength(pattern: string): number {
  return pattern.replace(/[*?[\]{}!]/g, "").length;
}

export function isWildcardOnly(patterns: readonly string[]): boolean {
  return patterns.every((p) => p === "*");
}
