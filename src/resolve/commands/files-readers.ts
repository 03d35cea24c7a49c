// Programs that read the files they are given: which words are files, and which options name more of them.
import { has, type OptSpec, type Parsed } from "../argv.ts";

export interface ReadSpec extends OptSpec {
  /** The first operand is a pattern, program or filter, not a file (unless an option gave one). */
  readonly skipFirst?: boolean;
  /** Options that supply the pattern, so no operand is skipped. */
  readonly patternOpts?: readonly string[];
  /** With no file operands the program reads the working directory (ls, du, grep -r). */
  readonly cwdDefault?: boolean | ((p: Parsed) => boolean);
  /** Options whose value is a file the program writes. */
  readonly writes?: readonly string[];
  /** Options whose value is a file the program reads. */
  readonly reads?: readonly string[];
  /** It reads only names and metadata (`ls`, `stat`), never a file's content. */
  readonly lists?: boolean;
  /** Reads everything under the directories it is given (and hidden files too), not just the files named. */
  readonly recursive?: (p: Parsed) => boolean;
}

const count = (p: Parsed, name: string) => p.opts.filter((o) => o.name === name).length;

const grepRecursive = (p: Parsed) =>
  has(p, "-r", "-R", "--recursive", "--dereference-recursive") ||
  p.opts.some((o) => (o.name === "-d" || o.name === "--directories") && o.value?.text === "recurse");

const GREP: ReadSpec = {
  flags: "EFGPiyvwxcLloqsbHhnTZzrRUaI",
  values: "efmABCdD",
  longValues: [
    "regexp",
    "file",
    "max-count",
    "after-context",
    "before-context",
    "context",
    "include",
    "exclude",
    "directories",
  ],
  skipFirst: true,
  patternOpts: ["-e", "-f", "--regexp", "--file"],
  reads: ["-f", "--file"],
  cwdDefault: grepRecursive,
  recursive: grepRecursive,
};

const RG: ReadSpec = {
  flags: "iSsvwxcLlqHhnNuUaz0IFpP.",
  values: "egtTmABCMjrfE",
  longValues: ["regexp", "file", "glob", "type", "type-not", "max-count", "replace", "max-depth", "context"],
  skipFirst: true,
  patternOpts: ["-e", "-f", "--regexp", "--file"],
  reads: ["-f", "--file"],
  cwdDefault: true,
  // ripgrep skips hidden files (`.ssh`, `.env`) unless told otherwise: `--hidden`, `-.`, `-uu`.
  recursive: (p) => has(p, "--hidden", "-.") || count(p, "-u") + count(p, "--unrestricted") >= 2,
};

export const READERS: Readonly<Record<string, ReadSpec>> = {
  cat: { flags: "AbeEnstTuv" },
  tac: { values: "s" },
  nl: { values: "bdfhilnsvw" },
  head: { values: "nc", numeric: true },
  tail: { values: "ncs", numeric: true, flags: "fFqvz" },
  less: { values: "bhjkoOpPtTxyz#" },
  more: { values: "n" },
  most: {},
  bat: { values: "lrHm", longValues: ["language", "line-range", "highlight-line", "style", "theme", "map-syntax"] },
  batcat: { values: "lrHm", longValues: ["language", "line-range", "highlight-line", "style", "theme"] },
  view: {},
  od: { values: "AjNtSw" },
  hexdump: { values: "efns" },
  hd: { values: "efns" },
  strings: { values: "nt" },
  file: { values: "fmFP" },
  stat: { values: "c", longValues: ["format", "printf"], lists: true },
  wc: {},
  md5sum: {},
  sha1sum: {},
  sha224sum: {},
  sha256sum: {},
  sha384sum: {},
  sha512sum: {},
  b2sum: {},
  cksum: {},
  sum: {},
  shasum: { values: "a" },
  base32: { values: "w" },
  base64: { values: "w", flags: "diD" },
  column: { values: "sctoNOR" },
  fold: { values: "w" },
  fmt: { values: "wpg" },
  expand: { values: "t" },
  unexpand: { values: "t" },
  rev: {},
  cut: { values: "bcdf" },
  paste: { values: "d" },
  join: { values: "ajteo12" },
  comm: {},
  cmp: { values: "inl" },
  diff: {
    values: "CUFIDxXSL",
    longValues: ["unified", "context", "label", "exclude", "ignore-matching-lines"],
    recursive: (p) => has(p, "-r", "--recursive"),
  },
  diff3: { values: "L" },
  look: { values: "t", skipFirst: true },
  jq: {
    values: "fL",
    longValues: ["indent", "from-file"],
    skipFirst: true,
    patternOpts: ["-f", "--from-file"],
    reads: ["-f", "--from-file"],
  },
  yq: { values: "IpoP", longValues: ["indent", "input-format", "output-format", "from-file"], skipFirst: true },
  sort: {
    values: "ktSTo",
    longValues: ["key", "field-separator", "output", "buffer-size"],
    writes: ["-o", "--output"],
  },
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  zgrep: GREP,
  rg: RG,
  ag: {
    values: "ABCGgm",
    skipFirst: true,
    cwdDefault: true,
    long: ["hidden", "unrestricted"],
    recursive: (p) => has(p, "--hidden", "-u", "--unrestricted"),
  },
  ack: { values: "ABCgm", skipFirst: true, cwdDefault: true, recursive: () => true },
  ls: {
    values: "IwT",
    longValues: ["hide", "ignore", "width", "tabsize", "format", "sort", "time"],
    cwdDefault: true,
    lists: true,
  },
  dir: { values: "IwT", cwdDefault: true, lists: true },
  vdir: { values: "IwT", cwdDefault: true, lists: true },
  ll: { cwdDefault: true, lists: true },
  tree: { values: "LPIo", writes: ["-o"], cwdDefault: true, lists: true },
  du: { values: "dBtX", longValues: ["max-depth", "exclude", "threshold"], cwdDefault: true, lists: true },
  readlink: { lists: true },
  realpath: { longValues: ["relative-to", "relative-base"], lists: true },
  namei: { lists: true },
  lsattr: { lists: true },
  getfacl: { lists: true },
  zcat: {},
  bzcat: {},
  xzcat: {},
  zstdcat: {},
  lz4cat: {},
  zless: {},
  zmore: {},
  xxd: { values: "cglsoC" },
  iconv: { values: "fto", longValues: ["from-code", "to-code", "output"], writes: ["-o", "--output"] },
  sdiff: { values: "ow", writes: ["-o", "--output"] },
  uniq: { values: "fsw" },
  awk: { values: "fvF", skipFirst: true, patternOpts: ["-f"], reads: ["-f"] },
  gawk: { values: "fvFi", skipFirst: true, patternOpts: ["-f"], reads: ["-f"] },
  mawk: { values: "fvF", skipFirst: true, patternOpts: ["-f"], reads: ["-f"] },
  nawk: { values: "fvF", skipFirst: true, patternOpts: ["-f"], reads: ["-f"] },
  sed: {
    flags: "nrEsuz",
    values: "efl",
    longValues: ["expression", "file", "line-length"],
    longOptional: ["in-place"],
    optional: "i",
    skipFirst: true,
    patternOpts: ["-e", "-f", "--expression", "--file"],
    reads: ["-f", "--file"],
  },
};
