// Programs that read, write or delete files: every path they name, made absolute.
import { asksForHelp, has, type OptSpec, optValue, optValues, type Parsed, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { recordAlias } from "../vars.ts";
import { READERS, type ReadSpec } from "./files-readers.ts";
import { archive, compress, dd, find, sevenZip } from "./files-special.ts";
import { emitDelete, emitList, emitRead, emitWrite, pathOf, paths, subtree } from "./fs-emit.ts";
import { sedEffects } from "./sed.ts";

/** Programs that print a subset of the lines they read: what they pass on of a list of files is files of that list. */
const NAME_FILTERS = /(^|\/)(head|tail|sort|uniq|grep|egrep|fgrep|shuf)$/;

type Handler = (call: Call) => void;

const RECURSIVE = ["-R", "--recursive"];

function reader(spec: ReadSpec): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (asksForHelp(args)) return;
    const p = parseOpts(args, spec);
    const name = call.args[0]?.text ?? "";
    const skip = spec.skipFirst && !spec.patternOpts?.some((o) => has(p, o)) ? 1 : 0;
    let files = p.operands.slice(skip);
    if (name.endsWith("uniq") && files.length > 1) {
      emitWrite(call, paths(call, files.slice(1, 2)));
      files = files.slice(0, 1);
    }
    if (name.endsWith("xxd") && has(p, "-r") && files.length > 1) {
      emitWrite(call, paths(call, files.slice(1, 2)));
      files = files.slice(0, 1);
    }
    if (/(^|\/)cat$/.test(name) && files.length === 0 && call.stdin?.kind === "data" && call.stdin.text !== undefined)
      call.prints?.({ text: call.stdin.text });
    // A filter of file names (`git ls-files | head -1`) prints some of the names it was handed, never others.
    if (files.length === 0 && call.stdin?.kind === "pipe" && call.stdin.paths && NAME_FILTERS.test(name))
      call.prints?.({ paths: call.stdin.paths });
    const cwdDefault = typeof spec.cwdDefault === "function" ? spec.cwdDefault(p) : spec.cwdDefault;
    const found = files.length === 0 && cwdDefault ? [call.scope.cwd] : paths(call, files);
    const targets = spec.recursive?.(p) ? found.map(subtree) : found;
    const read = paths(call, optValues(p, ...(spec.reads ?? [])));
    if (spec.lists) {
      emitList(call, targets);
      emitRead(call, read);
    } else emitRead(call, [...targets, ...read]);
    emitWrite(call, paths(call, optValues(p, ...(spec.writes ?? []))));
    if (isInPlace(name, p)) emitWrite(call, paths(call, files));
    if (/awk$/.test(name) && scriptOf(p, skip) !== undefined) awkEffects(call, scriptOf(p, skip) ?? "");
    if (name === "sed")
      for (const script of [scriptOf(p, skip), ...optValues(p, "-e", "--expression").map((a) => a.text)])
        sedEffects(call, script);
  };
}

function isInPlace(name: string, p: Parsed): boolean {
  if (name === "sed") return has(p, "-i", "--in-place");
  if (name === "gawk") return optValues(p, "-i").some((v) => v.text === "inplace");
  return false;
}

function scriptOf(p: Parsed, skip: number): string | undefined {
  return skip === 1 ? p.operands[0]?.text : undefined;
}

/** An awk program that runs commands or writes files is not a read. */
function awkEffects(call: Call, program: string): void {
  if (/\bsystem\s*\(|\|\s*getline|print[^;}]*\|\s*"/.test(program)) {
    call.emit({ name: "awk.eval", class: "unknown", targets: [] });
    call.unknown("awk running commands");
  } else if (/print[f]?[^;}]*>\s*"/.test(program)) {
    call.emit({ name: "filesystem.write", class: "write", targets: [] });
  }
}

interface WriterSpec extends OptSpec {
  readonly skipFirst?: boolean;
  /** A mode given as an option (`chmod -x f`): then there is no mode operand to skip. */
  readonly modeOption?: RegExp;
  /** Options that make it change everything under a directory (`chmod -R`). */
  readonly recursive?: readonly string[];
}

/** Writers whose operands are all written: `touch a b`, `mkdir -p d`, `tee f`; `chmod -R` all under them. */
function writer(spec: WriterSpec): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (asksForHelp(args)) return;
    const moded = spec.modeOption ? args.filter((a) => a.static && spec.modeOption?.test(a.text)) : [];
    const p = parseOpts(
      args.filter((a) => !moded.includes(a)),
      spec,
    );
    const skip = spec.skipFirst && !has(p, "--reference") && moded.length === 0;
    const operands = skip ? p.operands.slice(1) : p.operands;
    const targets = paths(call, operands);
    emitWrite(call, spec.recursive && has(p, ...spec.recursive) ? targets.map(subtree) : targets);
  };
}

/**
 * cp, install, ln: sources are read (all under them with `cp -r`), the destination (last operand or `-t DIR`) written.
 * A hard link (`ln`, `cp -l`) is the source's own content under a second name: a read of it that also lets a later
 * write through the new name change the source, so the source is written too.
 */
function copier(spec: OptSpec, readsSources: boolean, recursive: readonly string[] = []): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (asksForHelp(args)) return;
    const p = parseOpts(args, spec);
    const ln = call.args[0]?.text.split("/").pop() === "ln";
    const hard = ln ? !has(p, "-s", "--symbolic") : has(p, "-l", "--link");
    const dir = optValue(p, "-t", "--target-directory");
    if (has(p, "-d", "--directory") && call.args[0]?.text.endsWith("install"))
      return emitWrite(call, paths(call, p.operands));
    const sources = dir ? p.operands : p.operands.slice(0, -1);
    const dest = dir ?? (p.operands.length > 1 ? p.operands[p.operands.length - 1] : undefined);
    const read = paths(call, sources);
    const all = recursive.length > 0 && has(p, ...recursive);
    if (readsSources || hard) emitRead(call, all ? read.map(subtree) : read);
    if (hard && read.length > 0) emitWrite(call, all ? read.map(subtree) : read);
    emitWrite(call, dest ? [pathOf(call, dest)] : paths(call, sources.length === 1 ? [] : sources));
    if (dest) aliasAfter(call, dest, sources, dir !== undefined);
  };
}

/** What a later command reads at `dest` is what was at each source: `ln -s ~/.ssh /tmp/s`, `cp -r ~/.aws /tmp/x`. */
function aliasAfter(call: Call, dest: Arg, sources: readonly Arg[], intoDir: boolean): void {
  // A name with a variable in it (`/tmp/s-$$`) is the same text later in the line, so the text is what is recorded.
  const from = sources.map((a) => pathOf(call, a));
  recordAlias(call.scope, pathOf(call, dest), from, intoDir || sources.length > 1 || dest.text.endsWith("/"));
}

const mv: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const p = parseOpts(args, { flags: "bfinuvTZ", values: "St", longValues: ["target-directory", "suffix"] });
  const dir = optValue(p, "-t", "--target-directory");
  const sources = dir ? p.operands : p.operands.slice(0, -1);
  const dest = dir ?? p.operands[p.operands.length - 1];
  if (dest && sources.length > 0) emitWrite(call, [pathOf(call, dest)]);
  emitDelete(call, paths(call, sources));
  if (dest) aliasAfter(call, dest, sources, dir !== undefined);
};

/** rm, rmdir, unlink, shred: every operand is gone afterwards; with `-r`, everything under it. */
function deleter(spec: OptSpec, recursive: readonly string[] | "always" = []): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (asksForHelp(args)) return;
    const p = parseOpts(args, spec);
    const targets = paths(call, p.operands);
    const all = recursive === "always" || (recursive.length > 0 && has(p, ...recursive));
    emitDelete(call, all ? targets.map(subtree) : targets);
  };
}

/** mkfs and partitioners: the whole device is rewritten. */
const formatter: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const targets = args.filter((a) => !a.text.startsWith("-")).map((a) => pathOf(call, a));
  call.emit({ name: "disk.write", class: "destructive", targets });
};

const GIO: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  if (sub && ["trash", "remove", "rm"].includes(sub.text))
    return emitDelete(
      call,
      paths(
        call,
        rest.filter((a) => !a.text.startsWith("-")),
      ),
    );
  if (sub && ["copy", "move", "save", "mkdir", "rename", "set"].includes(sub.text))
    return emitWrite(call, paths(call, rest.slice(-1)));
  emitRead(
    call,
    paths(
      call,
      rest.filter((a) => !a.text.startsWith("-")),
    ),
  );
};

/** The name mktemp prints: a fresh file in temp (its directory and template as given; the X's stand for anything). */
function mktempName(call: Call, p: Parsed): string {
  const tmpdir = call.scope.vars.get("TMPDIR");
  const temp = tmpdir?.known && tmpdir.values.length === 1 ? (tmpdir.values[0] ?? "/tmp") : "/tmp";
  const given = optValue(p, "-p", "--tmpdir");
  const dir = given?.static ? pathOf(call, given) : temp;
  const template = p.operands[0];
  if (!template?.static) return `${dir.replace(/\/+$/, "")}/tmp.*`;
  const name = template.text.replace(/X{3,}/g, "*");
  return name.includes("/") ? pathOf(call, { ...template, text: name }) : `${dir.replace(/\/+$/, "")}/${name}`;
}

export const FILE_HANDLERS: Readonly<Record<string, Handler>> = {
  ...Object.fromEntries(Object.entries(READERS).map(([name, spec]) => [name, reader(spec)])),
  touch: writer({ flags: "acfhm", values: "rdt", longValues: ["reference", "date", "time"] }),
  mkdir: writer({ flags: "pvZ", values: "m", longValues: ["mode", "context"] }),
  mkfifo: writer({ values: "m" }),
  mknod: writer({ values: "m" }),
  mktemp: (call) => {
    const p = parseOpts(call.args.slice(1), { flags: "dqutT", values: "p", longValues: ["suffix", "tmpdir"] });
    emitWrite(call, p.operands.length > 0 ? paths(call, p.operands) : ["/tmp"]);
    call.prints?.({ paths: [mktempName(call, p)] });
  },
  tee: writer({ flags: "aip", longOptional: ["output-error"] }),
  truncate: writer({ flags: "co", values: "sr", longValues: ["size", "reference"] }),
  chmod: writer({
    flags: "cfvR",
    longValues: ["reference"],
    long: ["recursive"],
    skipFirst: true,
    recursive: RECURSIVE,
    modeOption: /^-[rwxXst]+$/,
  }),
  chown: writer({
    flags: "cfvRhHLP",
    longValues: ["reference", "from"],
    long: ["recursive"],
    skipFirst: true,
    recursive: RECURSIVE,
  }),
  chgrp: writer({
    flags: "cfvRhHLP",
    longValues: ["reference"],
    long: ["recursive"],
    skipFirst: true,
    recursive: RECURSIVE,
  }),
  chattr: writer({ flags: "RVf", values: "pv", skipFirst: true, recursive: ["-R"] }),
  setfacl: writer({
    flags: "bkndRLP",
    values: "mMxX",
    longValues: ["modify", "remove", "set", "set-file"],
    long: ["recursive"],
    recursive: RECURSIVE,
  }),
  setfattr: writer({ values: "nvx" }),
  rename: writer({ flags: "vnfs", skipFirst: true }),
  patch: writer({ flags: "REfNstuv", values: "pdiorDFVzBYxg", longValues: ["input", "output", "directory"] }),
  split: (call) => {
    const p = parseOpts(call.args.slice(1), {
      values: "abCdlnt",
      flags: "de",
      longValues: ["bytes", "lines", "number"],
    });
    emitRead(call, paths(call, p.operands.slice(0, 1)));
    emitWrite(call, p.operands.length > 1 ? paths(call, p.operands.slice(1, 2)) : [call.scope.cwd]);
  },
  cp: copier(
    {
      flags: "aAbdfHiLlnPpRrsTuvxZ",
      values: "St",
      longValues: ["target-directory", "suffix", "backup"],
      long: ["recursive", "archive", "link"],
    },
    true,
    ["-r", "-R", "-a", "--recursive", "--archive"],
  ),
  install: copier(
    { flags: "bcCdDpsTv", values: "gmoStZ", longValues: ["target-directory", "mode", "owner", "group"] },
    true,
  ),
  ln: copier(
    {
      flags: "bdfFinLPrsTv",
      values: "St",
      longValues: ["target-directory", "suffix"],
      long: ["symbolic", "force", "relative", "logical", "physical", "no-dereference", "interactive", "verbose"],
    },
    false,
  ),
  mv,
  rm: deleter({ flags: "fiIrRdv", longOptional: ["interactive"], long: ["force", "recursive", "dir", "verbose"] }, [
    "-r",
    "-R",
    "--recursive",
  ]),
  rmdir: deleter({ flags: "pv", long: ["parents", "verbose", "ignore-fail-on-non-empty"] }),
  unlink: deleter({}),
  rimraf: deleter(
    { flags: "vgG", long: ["preserve-root", "no-preserve-root", "glob", "verbose", "interactive"] },
    "always",
  ),
  shred: deleter({
    flags: "fuvxz",
    values: "ns",
    longValues: ["iterations", "size", "random-source"],
    longOptional: ["remove"],
  }),
  srm: deleter({ flags: "dfilrRsvxz" }, ["-r", "-R"]),
  trash: deleter({ flags: "dfirRv" }),
  "trash-put": deleter({ flags: "dfirRv" }),
  gio: GIO,
  mkfs: formatter,
  mke2fs: formatter,
  mkswap: formatter,
  wipefs: formatter,
  fdisk: formatter,
  sfdisk: formatter,
  gdisk: formatter,
  sgdisk: formatter,
  parted: formatter,
  dd,
  find,
  tar: archive,
  "7z": sevenZip,
  "7za": sevenZip,
  "7zr": sevenZip,
  unzip: archive,
  zip: archive,
  gzip: compress,
  gunzip: compress,
  bzip2: compress,
  bunzip2: compress,
  xz: compress,
  unxz: compress,
  zstd: compress,
  unzstd: compress,
  lz4: compress,
  compress: compress,
};

/** `mkfs.ext4`, `mkfs.vfat`…: every mkfs variant formats a disk. */
export function isFormatter(name: string): boolean {
  return /^mkfs\.[a-z0-9]+$/.test(name);
}
