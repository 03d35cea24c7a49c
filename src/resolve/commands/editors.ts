// Editors and pagers that take commands: vim's `-c '!cmd'` and ex scripts, ed's `!`, less's `+!cmd`, man's pager,
// emacs's `--eval`. The shell commands they would run are resolved; an editor command that cannot be read asks.
import { has, optValue, optValues, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { emitRead, emitWrite, pathOf, paths } from "./fs-emit.ts";
import { runLine } from "./launchers.ts";

type Handler = (call: Call) => void;

/** What a list of ex commands does: the shell lines it runs, whether it writes the file, and what is unread. */
interface ExEffects {
  readonly shell: string[];
  writes: boolean;
  unreadable: string[];
}

/** A line range before an ex command: `%`, `1,$`, `.`, `'a,'b`, `/pat/`, `?pat?`. */
const RANGE = /^(?:[%.$\d,;+\-\s]|'[a-z<>[\]]|\/(?:[^/\\]|\\.)*\/?|\?(?:[^?\\]|\\.)*\??)*/;

/** Ex commands that only edit the buffer, move around, set options or quit. */
const PLAIN_EX = new Set(
  (
    "q quit qa qall quita quitall q! wq x xit exit wqa wqall xa xall w write up update wa wall sav saveas " +
    "e edit s substitute d delete m move t co copy j join y yank pu put > < se set setl setlocal syn syntax " +
    "filet filetype sor sort ret retab noh nohlsearch u undo red redo k mark ma norm? g global v vglobal " +
    "le left ri right ce center a append i insert c change nu number p print l list z"
  ).split(" "),
);

const WRITES = new Set("w write wq x xit exit wqa wqall xa xall up update wa wall sav saveas".split(" "));

function exCommand(text: string, out: ExEffects, depth: number): void {
  const t = text.replace(/^[\s:]+/, "");
  if (t === "" || t.startsWith('"')) return;
  const afterRange = t.slice(RANGE.exec(t)?.[0].length ?? 0);
  if (afterRange.startsWith("!")) {
    out.shell.push(afterRange.slice(1));
    return;
  }
  const m = /^([a-zA-Z]+|[<>&~#=@*])(!?)\s*(.*)$/s.exec(afterRange);
  if (!m) {
    out.unreadable.push(t);
    return;
  }
  const [, name = "", , args = ""] = m;
  if (/^sil(e(n(t)?)?)?$/.test(name)) {
    exCommand(args, out, depth);
    return;
  }
  if (/^ter(m(i(n(a(l)?)?)?)?)?$/.test(name) && args.trim() !== "") {
    out.shell.push(args.replace(/^(\+\+\w+\s*)+/, ""));
    return;
  }
  if ((WRITES.has(name) || /^r(e(a(d)?)?)?$/.test(name)) && args.trim().startsWith("!")) {
    out.shell.push(args.trim().slice(1));
    return;
  }
  if (/^(g|global|v|vglobal)$/.test(name)) {
    const body = /^(.)(?:(?!\1)[^\\]|\\.)*\1(.*)$/s.exec(args);
    if (body && depth < 4) exCommand(body[2] ?? "", out, depth + 1);
    return;
  }
  if (/^(s|substitute)$/.test(name) && args.includes("\\=")) {
    out.unreadable.push(t);
    return;
  }
  if (WRITES.has(name)) out.writes = true;
  if (!PLAIN_EX.has(name) && !PLAIN_EX.has(`${name}?`)) out.unreadable.push(t);
  else if (name.startsWith("norm")) out.unreadable.push(t);
}

/** Ex command lines separated by `|`, except that a `!` command takes the rest of its line. */
function exEffects(lines: readonly string[]): ExEffects {
  const out: ExEffects = { shell: [], writes: false, unreadable: [] };
  for (const line of lines) {
    let rest = line;
    while (rest !== "") {
      const bang = /^[\s:]*(?:[%.$\d,;+-]|'[a-z])*\s*(?:sil(?:ent)?!?\s+)?(?:(?:w|write|r|read)\s+)?!/.exec(rest);
      const bar = rest.indexOf("|");
      if (bang || bar < 0) {
        exCommand(rest, out, 0);
        break;
      }
      exCommand(rest.slice(0, bar), out, 0);
      rest = rest.slice(bar + 1);
    }
  }
  return out;
}

function applyEx(call: Call, name: string, fx: ExEffects, files: readonly string[]): void {
  for (const line of fx.shell) runLine(call, { text: line, static: true, glob: false }, name);
  if (fx.unreadable.length > 0) {
    call.emit({ name: `${name}.eval`, class: "unknown", targets: fx.unreadable.slice(0, 3) });
    call.unknown(`${name} commands: ${fx.unreadable.slice(0, 3).join(" | ")}`);
  }
  if (fx.writes) emitWrite(call, files);
}

/** vim, vi, nvim, ex, view: `-c`/`+`/`--cmd` commands, ex mode reading its script from stdin, `-S` sourcing. */
const vim: Handler = (call) => {
  const args = call.args.slice(1);
  const commands: Arg[] = [];
  const rest: Arg[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    if (a.text.startsWith("+") && a.text.length > 1 && !/^\+\d+$/.test(a.text) && !a.text.startsWith("+/")) {
      commands.push({ ...a, text: a.text.slice(1) });
    } else if (a.text === "+" || /^\+\d+$/.test(a.text) || a.text.startsWith("+/")) continue;
    else rest.push(a);
  }
  const name = (call.args[0]?.text ?? "vim").replace(/.*\//, "");
  // After -e/-E (or as ex), -s is silent mode; otherwise it names a file of keystrokes.
  const silent = name === "ex" || rest.some((a) => /^-[a-zA-Z]*[eE]/.test(a.text) && !a.text.startsWith("--"));
  const p = parseOpts(rest, {
    flags: `AbCdDeEFhHlLmMnNRrVxXyZ${silent ? "s" : ""}`,
    values: `cSio${silent ? "" : "s"}TuUwWqtr`,
    long: ["clean", "noplugin", "headless", "nofork", "version", "help", "literal", "not-a-term"],
    longValues: ["cmd", "startuptime", "listen", "remote", "servername"],
  });
  commands.push(...optValues(p, "-c", "--cmd"));
  const files = paths(
    call,
    p.operands.filter((a) => a.text !== "-"),
  );
  emitRead(call, files);
  const sourced = [
    ...optValues(p, "-S", "-s"),
    ...optValues(p, "-u").filter((u) => !/^(NONE|NORC|DEFAULTS)$/.test(u.text)),
  ];
  if (sourced.length > 0) {
    call.emit({ name: "vim.eval", class: "unknown", targets: sourced.map((a) => pathOf(call, a)) });
    call.unknown(`${name} sourcing ${sourced.map((a) => a.text).join(", ")}`);
  }
  const exMode = has(p, "-e", "-E") || name === "ex";
  const stdinScript = exMode && call.stdin?.kind === "data" ? call.stdin.text : undefined;
  if (exMode && call.stdin?.kind === "data" && stdinScript === undefined) {
    call.emit({ name: "vim.eval", class: "unknown", targets: ["an ex script computed at run time"] });
  }
  if (!commands.every((c) => c.static)) {
    call.emit({ name: "vim.eval", class: "unknown", targets: ["a command computed at run time"] });
  }
  const lines = [...commands.filter((c) => c.static).map((c) => c.text), ...(stdinScript?.split("\n") ?? [])];
  const fx = exEffects(lines);
  // Opened to be edited, with nobody's commands: it may be written.
  if (lines.length === 0 && !has(p, "-R", "-M") && name !== "view") fx.writes = true;
  applyEx(call, "vim", fx, files);
};

/** ed: its commands come from stdin; `!cmd`, `r !cmd` and `w !cmd` run a shell command, `w` writes. */
const ed: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "sGrlEv", values: "p" });
  const files = paths(call, p.operands);
  emitRead(call, files);
  const stdin = call.stdin;
  if (stdin?.kind !== "data" || stdin.text === undefined) {
    if (stdin) call.emit({ name: "ed.eval", class: "unknown", targets: ["commands that cannot be read"] });
    return;
  }
  const out: ExEffects = { shell: [], writes: false, unreadable: [] };
  for (const line of stdin.text.split("\n")) {
    const t = line.slice(RANGE.exec(line)?.[0].length ?? 0);
    const bang = /^(?:[rwe]\s*)?!(.*)$/.exec(t);
    if (bang) out.shell.push(bang[1] ?? "");
    else if (/^w/.test(t)) out.writes = true;
  }
  applyEx(call, "ed", out, files);
};

/** less: `+cmd` runs less commands at start: `!cmd` and `|m cmd` run a shell command, `s file` saves, `-o` logs. */
const less: Handler = (call) => {
  const args = call.args.slice(1);
  const commands = args
    .filter((a) => /^\+\+?./.test(a.text))
    .map((a) => ({ ...a, text: a.text.replace(/^\+\+?/, "") }));
  const p = parseOpts(
    args.filter((a) => !/^\+/.test(a.text)),
    { values: "bhjkoOpPtTxyz#", flags: "aAcCeEfFgGiIJKLmMnNqQrRsSuUVwWXX~", longValues: ["lesskey-src", "log-file"] },
  );
  emitRead(call, paths(call, p.operands));
  const logs = optValues(p, "-o", "-O", "--log-file");
  if (logs.length > 0) emitWrite(call, paths(call, logs));
  if (optValues(p, "-k", "--lesskey-src").length > 0) call.emit({ name: "less.eval", class: "unknown", targets: [] });
  for (const c of commands) {
    if (!c.static) {
      call.emit({ name: "less.eval", class: "unknown", targets: [c.text] });
      continue;
    }
    const bang = c.text.indexOf("!");
    const pipe = /\|.(.*)$/s.exec(c.text);
    if (bang >= 0) runLine(call, { ...c, text: c.text.slice(bang + 1).replace(/\^M|\r|\n/g, "") }, "less");
    else if (pipe) runLine(call, { ...c, text: pipe[1] ?? "" }, "less");
    else if (/^s/.test(c.text)) emitWrite(call, [pathOf(call, { ...c, text: c.text.slice(1).trim() })]);
  }
};

/** man: `-P pager` and `--html=browser` are commands it runs; otherwise it only shows a page. */
const man: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    values: "CMPSeEIlmprLRT",
    optional: "H",
    flags: "aDfFhikKtuwWZ",
    longValues: [
      "pager",
      "config-file",
      "manpath",
      "sections",
      "extension",
      "locale",
      "systems",
      "preprocessor",
      "encoding",
    ],
    longOptional: ["html", "troff-device"],
  });
  for (const pager of optValues(p, "-P", "--pager")) runLine(call, pager, "man");
  const html = optValue(p, "-H", "--html");
  if (html?.text) runLine(call, html, "man");
};

/** emacs: `--eval`, `-l`, `-f`, `--script` run Lisp nothing here reads; files named are edited. */
const emacs: Handler = (call) => {
  const args = call.args.slice(1);
  const code = args.some((a) => /^--?(eval|execute|load|funcall|script|batch|l|f|x)(=|$)/.test(a.text));
  const files = args.filter(
    (a, i) => !a.text.startsWith("-") && !/^--?(eval|load|l|f|funcall|script)$/.test(args[i - 1]?.text ?? ""),
  );
  if (code) {
    call.emit({ name: "emacs.eval", class: "unknown", targets: [] });
    call.unknown("emacs lisp");
  }
  const targets = paths(
    call,
    files.filter((a) => !a.text.startsWith("+")),
  );
  emitRead(call, targets);
  emitWrite(call, targets);
};

export const EDITOR_HANDLERS: Readonly<Record<string, Handler>> = {
  vim,
  vi: vim,
  nvim: vim,
  gvim: vim,
  ex: vim,
  view: vim,
  rvim: vim,
  "vim.tiny": vim,
  "vim.basic": vim,
  ed,
  red: ed,
  less,
  man,
  emacs,
};
