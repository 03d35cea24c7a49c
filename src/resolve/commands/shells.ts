// Shells and their relatives: `sh -c`, heredocs fed to a shell, `eval`, `source`, `trap`.
import type { Arg, Call } from "../call.ts";
import { absolutePath } from "../paths.ts";
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

/** `export LD_PRELOAD=…`, `declare -x EDITOR=…`: a variable that loads or runs code asks; any is kept for later. */
const declare: Handler = (call) => {
  const pairs = call.args
    .slice(1)
    .map(assignmentOf)
    .filter((p) => p !== undefined);
  if (pairs.length > 0) assignmentEffects(call, pairs);
  for (const a of call.args.slice(1)) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)(\+?)=/.exec(a.text);
    if (!m?.[1]) continue;
    const arg = { ...a, text: a.text.slice(m[0].length) };
    if (m[2] === "+") setVar(call.scope, m[1], { ...arg, static: false, text: `$${m[1]}${arg.text}` });
    else setVar(call.scope, m[1], arg);
  }
};

/** `read x`, `mapfile x`, `unset x`: whatever x held before is no longer what it holds. */
const forget: Handler = (call) => {
  for (const a of call.args.slice(1)) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(a.text)) continue;
    if (call.args[0]?.text === "unset") unsetVar(call.scope, a.text);
    else setVar(call.scope, a.text, { text: `$${a.text}`, static: false, glob: false });
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
  read: forget,
  mapfile: forget,
  readarray: forget,
  unset: forget,
  popd,
  alias,
  unalias,
};
