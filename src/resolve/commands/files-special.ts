// File programs with their own argument grammar: dd, find, tar/zip/unzip, gzip and friends.
import { asksForHelp, has, optValue, optValues, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { emitDelete, emitList, emitRead, emitWrite, pathOf, paths, trees } from "./fs-emit.ts";

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

export const find: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  let i = 0;
  while (i < args.length && /^-[HLP]$|^-O\d$|^-D$/.test(args[i]?.text ?? "")) i += args[i]?.text === "-D" ? 2 : 1;
  const starts: Arg[] = [];
  while (i < args.length && !/^[-(!]/.test(args[i]?.text ?? "")) starts.push(args[i++] as Arg);
  const roots = starts.length > 0 ? paths(call, starts) : [call.scope.cwd];
  emitList(call, roots);
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (t.startsWith("-newer")) i++;
    else if (FIND_VALUES.has(t)) i++;
    else if (t === "-fprintf") {
      emitWrite(call, paths(call, args.slice(i + 1, i + 2)));
      i += 2;
    } else if (FIND_WRITES.has(t)) emitWrite(call, paths(call, args.slice(i + 1, ++i + 1)));
    else if (t === "-delete") emitDelete(call, roots);
    else if (FIND_EXEC.has(t)) {
      const end = args.findIndex((a, j) => j > i && (a.text === ";" || a.text === "+"));
      const cmd = args.slice(i + 1, end < 0 ? args.length : end);
      for (const root of roots)
        call.engine.run(
          // `{}` is every path found under the root.
          cmd.map((a) => (a.text.includes("{}") ? { ...a, text: a.text.replace(/\{\}/g, `${root}/**`) } : a)),
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
    long: ["create", "extract", "get", "list", "append", "update", "gzip", "bzip2", "xz", "zstd", "verbose"],
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
    emitWrite(call, [dir ? pathOf(call, dir) : call.scope.cwd]);
  } else if (has(p, "-c", "--create", "-r", "--append", "-u", "--update")) {
    emitRead(call, trees(paths(call, p.operands)));
    emitWrite(call, archivePath);
  } else emitRead(call, archivePath);
}

function unzip(call: Call, args: readonly Arg[]): void {
  const p = parseOpts(args, { flags: "lvtzcpfunoqaXjCKLMVW", values: "dxP" });
  emitRead(call, paths(call, p.operands.slice(0, 1)));
  if (has(p, "-l", "-v", "-t", "-z", "-c", "-p")) return;
  const dir = optValue(p, "-d");
  emitWrite(call, [dir ? pathOf(call, dir) : call.scope.cwd]);
}

function zip(call: Call, args: readonly Arg[]): void {
  const p = parseOpts(args, { flags: "rjqvdmuTyXDFAgoJ0123456789", values: "bnPtxiIO" });
  emitWrite(call, paths(call, p.operands.slice(0, 1)));
  if (has(p, "-m")) emitDelete(call, paths(call, p.operands.slice(1)));
  else emitRead(call, has(p, "-r") ? trees(paths(call, p.operands.slice(1))) : paths(call, p.operands.slice(1)));
}

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
