// File programs with their own argument grammar: dd, find, tar/zip/unzip, gzip and friends.
import { asksForHelp, has, optValue, optValues, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { emitDelete, emitList, emitRead, emitWrite, pathOf, paths, subtree } from "./fs-emit.ts";

type Handler = (call: Call) => void;

/** `dd if=a of=b`: the input is read, the output written (a disk device is destroyed). */
export const dd: Handler = (call) => {
  for (const a of call.args.slice(1)) {
    const m = /^(if|of)=(.*)$/.exec(a.text);
    if (!m) continue;
    const target = paths(call, [{ ...a, text: m[2] ?? "" }]);
    if (m[1] === "if") emitRead(call, target);
    else emitWrite(call, target);
  }
};

/** Primaries that take a value, so `-name -delete` names a file rather than deleting. */
const FIND_VALUES = new Set(
  (
    "-name -iname -path -ipath -wholename -iwholename -regex -iregex -type -xtype -user -group -uid -gid -perm " +
    "-size -mtime -atime -ctime -mmin -amin -cmin -newer -anewer -cnewer -maxdepth -mindepth -links -inum " +
    "-samefile -lname -ilname -fstype -context -printf -used -regextype -files0-from"
  ).split(" "),
);

const FIND_EXEC = new Set(["-exec", "-execdir", "-ok", "-okdir"]);
const FIND_WRITES = new Set(["-fprint", "-fprint0", "-fls"]);

/** What find hands on: every file under each root, named as `-name` says when it names one plainly. */
function found(roots: readonly string[], args: readonly Arg[]): string[] {
  const names = args.flatMap((a, i) => (/^-i?name$/.test(a.text) && args[i + 1]?.static ? [args[i + 1] as Arg] : []));
  const name = names.length === 1 && !/[/]/.test(names[0]?.text ?? "") ? names[0]?.text : undefined;
  return roots.map((r) => (name === undefined ? subtree(r) : `${subtree(r)}/${name}`));
}

export const find: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(args[i]?.text ?? "")) i += args[i]?.text === "-D" ? 2 : 1;
  const starts: Arg[] = [];
  while (i < args.length && !/^[-(!]/.test(args[i]?.text ?? "")) starts.push(args[i++] as Arg);
  const roots = starts.length > 0 ? paths(call, starts) : [call.scope.cwd];
  emitList(call, roots);
  const files = found(roots, args.slice(i));
  call.prints?.({ paths: files });
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (t.startsWith("-newer")) i++;
    else if (FIND_VALUES.has(t)) i++;
    else if (t === "-fprintf") {
      emitWrite(call, paths(call, args.slice(i + 1, i + 2)));
      i += 2;
    } else if (FIND_WRITES.has(t)) emitWrite(call, paths(call, args.slice(i + 1, ++i + 1)));
    else if (t === "-delete") emitDelete(call, files);
    else if (FIND_EXEC.has(t)) {
      const end = args.findIndex((a, j) => j > i && (a.text === ";" || a.text === "+"));
      const cmd = args.slice(i + 1, end < 0 ? args.length : end);
      for (const file of files)
        call.engine.run(
          cmd.map((a) => (a.text.includes("{}") ? { ...a, text: a.text.replace(/\{\}/g, file) } : a)),
          call,
          undefined,
        );
      i = end < 0 ? args.length : end;
    }
  }
};

/** tar options whose value is a program it runs. */
const TAR_PROGRAMS = ["to-command", "use-compress-program", "rsh-command", "info-script", "new-volume-script"];

/** tar (bundled `czf` too), zip and unzip: extraction writes the target directory, creation the archive. */
export const archive: Handler = (call) => {
  const name = call.args[0]?.text ?? "";
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  if (name.endsWith("unzip")) return unzip(call, args);
  if (name.endsWith("zip")) return zip(call, args);
  tar(call, args);
};

function tar(call: Call, input: readonly Arg[]): void {
  const first = input[0]?.text ?? "";
  const args =
    first && !first.startsWith("-") && /^[a-zA-Z]+$/.test(first)
      ? [{ ...(input[0] as Arg), text: `-${first}` }, ...input.slice(1)]
      : input;
  const p = parseOpts(args, {
    flags: "cxtruzjJaZvpPkmOSWhiBGlMno",
    values: "fCTXbIKLNVF",
    long: [
      "create",
      "extract",
      "get",
      "list",
      "append",
      "update",
      "gzip",
      "bzip2",
      "xz",
      "zstd",
      "verbose",
      "remove-files",
    ],
    longValues: ["file", "directory", "files-from", "exclude-from", "exclude", "transform", ...TAR_PROGRAMS],
  });
  for (const program of optValues(p, "-I", "-F", ...TAR_PROGRAMS.map((o) => `--${o}`))) {
    const cmd = program.text.replace(/^exec=/, "");
    if (program.static && cmd !== "") call.engine.shell(cmd, call);
  }
  for (const action of optValues(p, "--checkpoint-action")) {
    if (action.static && action.text.startsWith("exec=")) call.engine.shell(action.text.slice(5), call);
  }
  const file = optValue(p, "-f", "--file");
  const archivePath = file && file.text !== "-" ? [pathOf(call, file)] : [];
  const dir = optValue(p, "-C", "--directory");
  if (has(p, "-x", "--extract", "--get")) {
    emitRead(call, archivePath);
    // An archive's members land anywhere under where it is unpacked: `~/.bashrc` and `~/.ssh/` among them.
    const into = dir ? pathOf(call, dir) : call.scope.cwd;
    emitWrite(call, [subtree(into)]);
    unpackedFromOutside(call, archivePath, into);
  } else if (has(p, "-c", "--create", "-r", "--append", "-u", "--update")) {
    // Members are named from `-C DIR`, and each takes everything under it; --remove-files deletes them after.
    const base = dir?.static ? { ...call, scope: { ...call.scope, cwd: pathOf(call, dir) } } : call;
    const members = paths(base, p.operands).map(subtree);
    emitRead(call, members);
    emitWrite(call, archivePath);
    if (has(p, "--remove-files")) emitDelete(call, members);
  } else emitRead(call, archivePath);
}

function unzip(call: Call, args: readonly Arg[]): void {
  const p = parseOpts(args, { flags: "lvtzcpfunoqaXjCKLMVW", values: "dxP" });
  emitRead(call, paths(call, p.operands.slice(0, 1)));
  if (has(p, "-l", "-v", "-t", "-z", "-c", "-p")) return;
  const dir = optValue(p, "-d");
  const into = dir ? pathOf(call, dir) : call.scope.cwd;
  emitWrite(call, [subtree(into)]);
  unpackedFromOutside(call, paths(call, p.operands.slice(0, 1)), into);
}

/** An archive this line downloaded, unpacked: what lands where it is unpacked was fetched from outside too. */
function unpackedFromOutside(call: Call, archive: readonly string[], into: string): void {
  if (archive.some((a) => call.engine.fromOutside(a))) call.engine.fetched(into);
}

function zip(call: Call, args: readonly Arg[]): void {
  const p = parseOpts(args, {
    flags: "rjqvdmuTyXDFAgoJ0123456789",
    values: "bnPtxiIO",
    long: ["recurse-paths", "move", "test"],
    longValues: ["unzip-command"],
  });
  for (const cmd of optValues(p, "-TT", "--unzip-command")) if (cmd.static) call.engine.shell(cmd.text, call);
  emitWrite(call, paths(call, p.operands.slice(0, 1)));
  const given = paths(call, p.operands.slice(1));
  const members = has(p, "-r", "--recurse-paths") ? given.map(subtree) : given;
  emitRead(call, members);
  if (has(p, "-m", "--move")) emitDelete(call, members);
}

/** 7-Zip (`7z`, `7za`, `7zr`): `a`/`u` read what they add (directories whole), `-sdel` deletes it; `x`/`e` write. */
export const sevenZip: Handler = (call) => {
  const [verb, ...rest] = call.args.slice(1);
  if (!verb || asksForHelp(rest)) return;
  const switches = rest.filter((a) => a.text.startsWith("-"));
  const operands = rest.filter((a) => !a.text.startsWith("-"));
  const [archiveFile, ...members] = operands;
  const archivePath = archiveFile ? [pathOf(call, archiveFile)] : [];
  if (verb.text === "a" || verb.text === "u") {
    const added = paths(call, members).map(subtree);
    emitRead(call, added);
    emitWrite(call, archivePath);
    if (switches.some((a) => a.text === "-sdel")) emitDelete(call, added);
  } else if (verb.text === "x" || verb.text === "e") {
    emitRead(call, archivePath);
    const out = switches.find((a) => a.text.startsWith("-o"));
    emitWrite(call, [out ? pathOf(call, { ...out, text: out.text.slice(2) }) : call.scope.cwd]);
  } else if (verb.text === "d" || verb.text === "rn") emitWrite(call, archivePath);
  else emitRead(call, archivePath);
};

/** gzip and friends replace each file with its (de)compressed form, unless writing to stdout. */
export const compress: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const p = parseOpts(args, {
    flags: "cdfhklLnNqrtvV123456789",
    values: "S",
    long: ["stdout", "to-stdout", "keep", "test", "list"],
  });
  const files = paths(call, p.operands);
  if (has(p, "-c", "--stdout", "--to-stdout", "-t", "--test", "-l", "--list")) return emitRead(call, files);
  emitWrite(call, files);
};
