// Shells and their relatives: `sh -c`, heredocs fed to a shell, `eval`, `source`, `trap`.
import { parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { DATA, evaluatedArithmetic, evaluatedIn, nameRef, nothingEvaluated, seenOf } from "../evaluate.ts";
import { absolutePath } from "../paths.ts";
import { renderArg } from "../shell/render.ts";
import { setVar, unsetVar } from "../vars.ts";
import { assignmentEffects, assignmentOf } from "./assignments.ts";

type Handler = (call: Call) => void;

const SHELLS = ["sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "posh", "yash", "fish", "rbash", "tcsh", "csh"];

interface ShellArgs {
  readonly command: boolean;
  /** `-s`: commands come from stdin and the operands are only arguments. */
  readonly stdin: boolean;
  readonly help: boolean;
  readonly operands: readonly Arg[];
}

/** bash-style options: clusters like `-lc`, `-o opt`, `--rcfile f`; `-c` makes the first operand the script. */
function shellArgs(args: readonly Arg[]): ShellArgs {
  let command = false;
  let stdin = false;
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (t === "--" || t === "-") {
      i++;
      break;
    }
    if (t.startsWith("--")) {
      if (t === "--help" || t === "--version") return { command, stdin, help: true, operands: [] };
      if (t === "--rcfile" || t === "--init-file") i++;
      continue;
    }
    if (!(t.startsWith("-") || t.startsWith("+")) || t.length < 2) break;
    for (const ch of t.slice(1)) {
      if (ch === "c") command = true;
      if (ch === "s") stdin = true;
      if (ch === "o" || ch === "O") i++;
    }
  }
  return { command, stdin, help: false, operands: args.slice(i) };
}

const shell: Handler = (call) => {
  const s = shellArgs(call.args.slice(1));
  if (s.help) return;
  if (s.command) return runScript(call, s.operands);
  const file = s.stdin ? undefined : s.operands[0];
  if (file) return scriptFile(call, file);
  const stdin = call.stdin;
  if (stdin?.kind === "data") {
    if (stdin.text !== undefined) return call.engine.shell(stdin.text, call);
    return dynamic(call, "a here-string computed at run time");
  }
  if (stdin?.kind === "pipe") {
    call.emit({ name: "shell.stdin", class: "unknown", targets: [] });
    return call.unknown("a shell reading commands from a pipe");
  }
  if (stdin?.kind === "file") return scriptFile(call, { text: stdin.path, static: true, glob: false });
  call.emit({ name: "shell.interactive", class: "unknown", targets: [] });
  call.unknown("an interactive shell");
};

/** `sh -c SCRIPT a b`: the script, and (read as if mis-quoted) the script with its arguments appended. */
function runScript(call: Call, operands: readonly Arg[]): void {
  const [script, ...rest] = operands;
  if (!script) return;
  if (!script.static) {
    dynamic(call, script.text);
    return;
  }
  call.engine.shell(script.text, call);
  if (rest.length > 0 && rest.every((a) => a.static)) {
    call.engine.shell([script.text, ...rest.map((a) => a.text)].join(" "), call);
  }
}

function scriptFile(call: Call, file: Arg): void {
  const path = file.static ? absolutePath(file.text, call.scope.cwd, call.scope.home) : file.text;
  if (file.static && call.engine.file(path, call)) return;
  call.emit({ name: "shell.script", class: "unknown", targets: [path] });
  call.unknown(`a shell script: ${file.text}`);
}

function dynamic(call: Call, what: string): void {
  call.emit({ name: "shell.dynamic", class: "unknown", targets: [what] });
  call.unknown(`a command computed at run time: ${what}`);
}

const evalCmd: Handler = (call) => {
  const args = call.args.slice(1);
  if (args.length === 0) return;
  if (args.some((a) => !a.static)) return dynamic(call, args.map((a) => a.text).join(" "));
  call.engine.shell(args.map((a) => a.text).join(" "), call);
};

const source: Handler = (call) => {
  const file = call.args[1];
  if (!file) return;
  if (!file.static) return dynamic(call, file.text);
  const path = absolutePath(file.text, call.scope.cwd, call.scope.home);
  if (call.engine.file(path, call)) return;
  call.emit({ name: "shell.source", class: "unknown", targets: [path] });
  call.unknown(`a sourced file: ${file.text}`);
};

/** `trap 'cmd' EXIT` runs cmd later in this shell: resolve it now. */
const trap: Handler = (call) => {
  const args = call.args.slice(1).filter((a) => a.text !== "--");
  const action = args[0];
  if (!action || action.text.startsWith("-") || args.length < 2) return;
  if (!action.static) return dynamic(call, action.text);
  if (action.text !== "") call.engine.shell(action.text, call);
};

/**
 * `export LD_PRELOAD=…`, `declare -x EDITOR=…`: a variable that loads or runs code asks; any is kept for later. A name's
 * subscript is evaluated (`declare 'a[$(cmd)]=1'` runs cmd), so is a nameref's target, and an integer's value.
 */
const declare: Handler = (call) => {
  const own = call.args[0]?.text ?? "";
  const typed = own === "declare" || own === "typeset" || own === "local";
  let flags = "";
  const operands: Arg[] = [];
  for (const a of call.args.slice(1)) {
    if (operands.length === 0 && a.static && /^[-+][A-Za-z]+$/.test(a.text)) {
      if (a.text.startsWith("-")) flags += a.text.slice(1);
      continue;
    }
    if (a.text !== "--") operands.push(a);
  }
  const pairs = operands.map(assignmentOf).filter((p) => p !== undefined);
  if (pairs.length > 0) assignmentEffects(call, pairs);
  const ev = nothingEvaluated();
  for (const a of operands) {
    const seen = seenOf(a);
    nameRef(seen, call.scope, ev);
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(a.text);
    const named = /^[A-Za-z_][A-Za-z0-9_]*/.exec(a.text)?.[0];
    const valueSeen = /^[A-Za-z_][A-Za-z0-9_]*\+?=([\s\S]*)$/.exec(seen)?.[1];
    if (typed && named) {
      const attrs = [...(call.scope.attributes.get(named) ?? ""), ...flags.replace(/[^Ain]/g, "")].join("");
      if (attrs !== "") call.scope.attributes.set(named, attrs);
      if (valueSeen !== undefined && attrs.includes("n")) nameRef(valueSeen, call.scope, ev);
      if (valueSeen !== undefined && attrs.includes("i")) evaluatedArithmetic(valueSeen, call.scope, ev);
    }
    if (!m?.[1]) continue;
    const arg = { ...a, text: a.text.slice(m[0].length), ...(valueSeen !== undefined ? { seen: valueSeen } : {}) };
    if (m[2] === "+") setVar(call.scope, m[1], { ...arg, static: false, text: `$${m[1]}${arg.text}` });
    else setVar(call.scope, m[1], arg);
  }
  evaluatedIn(call, ev, call.args.map((a) => a.text).join(" "));
};

/** The names a builtin is handed to set or test: each one's subscript is evaluated; what it held is forgotten. */
function names(call: Call, given: readonly Arg[], unset = false): void {
  const ev = nothingEvaluated();
  for (const a of given) {
    nameRef(seenOf(a), call.scope, ev);
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.text)) continue;
    if (unset) unsetVar(call.scope, a.text);
    // What `read` or `mapfile` puts there comes from input: data, anything at all.
    else setVar(call.scope, a.text, { text: `$${a.text}`, static: false, glob: false, seen: DATA });
  }
  evaluatedIn(call, ev, call.args.map((a) => a.text).join(" "));
}

/** `read x`, `read -a arr`: whatever x held before is now what the input says. */
const read: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "ers", values: "adinNptu" });
  const arrays = p.opts.filter((o) => o.name === "-a" && o.value).map((o) => o.value as Arg);
  names(call, [...arrays, ...p.operands]);
};

/** `mapfile -C cmd arr`: cmd runs for every few lines it reads. */
const mapfile: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "t", values: "dnOsucC" });
  for (const o of p.opts) {
    if (o.name !== "-C" || !o.value) continue;
    if (!o.value.static) dynamic(call, o.value.text);
    else call.engine.shell(o.value.text, call);
  }
  names(call, p.operands);
};

const unset: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "fvn" });
  if (p.opts.some((o) => o.name === "-f")) return;
  names(call, p.operands, true);
};

/** `let EXPR…`: each argument is arithmetic, evaluated. */
const letCmd: Handler = (call) => {
  const ev = nothingEvaluated();
  for (const a of call.args.slice(1)) evaluatedArithmetic(seenOf(a), call.scope, ev);
  evaluatedIn(call, ev, call.args.map((a) => a.text).join(" "));
};

/** `test -v NAME`, `[ -v NAME ]`: the name's subscript is evaluated. */
const test: Handler = (call) => {
  const args = call.args.slice(1);
  const ev = nothingEvaluated();
  args.forEach((a, i) => {
    const next = args[i + 1];
    if (a.text === "-v" && next) nameRef(seenOf(next), call.scope, ev);
  });
  evaluatedIn(call, ev, call.args.map((a) => a.text).join(" "));
};

/** `getopts OPTS NAME`, `wait -p NAME`: NAME is set, so its subscript is evaluated. */
const getopts: Handler = (call) => names(call, call.args.slice(2, 3));
const wait: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "nf", values: "p" });
  names(
    call,
    p.opts.flatMap((o) => (o.name === "-p" && o.value ? [o.value] : [])),
  );
};

/** `enable -f lib.so name` loads a builtin from a shared object: code nobody here can read. */
const enable: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "adnps", values: "f" });
  for (const o of p.opts) {
    if (o.name !== "-f" || !o.value) continue;
    const path = o.value.static ? absolutePath(o.value.text, call.scope.cwd, call.scope.home) : o.value.text;
    call.emit({ name: "shell.script", class: "unknown", targets: [path] });
    call.unknown(`a builtin loaded from ${o.value.text}`);
  }
};

/** `hash -p /tmp/x git`: a later `git` runs /tmp/x, as an alias would. */
const hash: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "rdlt", values: "p" });
  const path = p.opts.find((o) => o.name === "-p")?.value;
  if (!path) return;
  for (const name of p.operands) {
    call.scope.aliases.set(name.text, path.static && name.static ? renderArg(path.text) : null);
  }
};

const cd: Handler = (call) => {
  const args = call.args.slice(1).filter((a) => !/^-[LPe@]+$/.test(a.text) && a.text !== "--");
  const dir = args[0];
  if (!dir) call.scope.cwd = call.scope.home;
  else if (dir.text === "-") call.scope.cwd = "$OLDPWD";
  else if (!dir.static) call.scope.cwd = dir.text;
  else call.scope.cwd = absolutePath(dir.text, call.scope.cwd, call.scope.home);
};

/** `alias name=value …`: later commands of the line whose first word is `name` run `value` instead. */
const alias: Handler = (call) => {
  for (const a of call.args.slice(1)) {
    const eq = a.text.indexOf("=");
    if (eq <= 0 || a.text.startsWith("-")) continue;
    const name = a.text.slice(0, eq);
    // One computed at run time cannot be read, and whatever later calls it runs unseen.
    call.scope.aliases.set(name, a.static ? a.text.slice(eq + 1) : null);
  }
};

const unalias: Handler = (call) => {
  for (const a of call.args.slice(1)) {
    if (a.text === "-a") call.scope.aliases.clear();
    else call.scope.aliases.delete(a.text);
  }
};

const popd: Handler = (call) => {
  call.scope.cwd = "$OLDPWD";
};

/**
 * memnox's agent-wall applier (an agent's shell prefix): its one operand is the agent's own shell line, or what
 * follows `--` an argv, run inside the wall; what it runs is what the line does.
 */
const wallApplier: Handler = (call) => {
  const args = call.args.slice(1);
  if (args[0]?.text === "--") return call.engine.run(args.slice(1), call);
  runScript(call, args.slice(0, 1));
};

export const SHELL_HANDLERS: Readonly<Record<string, Handler>> = {
  ...Object.fromEntries(SHELLS.map((s) => [s, shell])),
  "memnox-wall": wallApplier,
  eval: evalCmd,
  source,
  ".": source,
  trap,
  export: declare,
  declare: declare,
  typeset: declare,
  local: declare,
  readonly: declare,
  cd,
  pushd: cd,
  read,
  mapfile,
  readarray: mapfile,
  unset,
  let: letCmd,
  test,
  "[": test,
  getopts,
  wait,
  enable,
  hash,
  popd,
  alias,
  unalias,
};
