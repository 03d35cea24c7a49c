// What bash evaluates a second time: arithmetic (`$((…))`, `((…))`, `let`, `[[ -eq ]]`), array subscripts, names
// handed to builtins (`printf -v`, `declare`, `read`, `unset`, `test -v`), `${!ref}` and `${x@P}`. There a value is
// read as code, so `a[$(cmd)]` runs cmd: what the line knows is resolved, data it computed at run time is unseen.
import type { Arg, Call, VarValue } from "./call.ts";
import type { Script } from "./shell/ast.ts";
import { parseLine } from "./shell/parse.ts";
import { literalText } from "./shell/words.ts";

/** In a word's seen text: a value the caller's environment gives (opaque to the line, and not its data). */
export const CALLER = "\uE000";
/** In a word's seen text: data the line produced at run time (a substitution's output, `read`): anything at all. */
export const DATA = "\uE001";

export interface Evaluated {
  /** Command lines the evaluation runs, known from the line. */
  readonly runs: string[];
  /** It evaluates data computed at run time, which nobody can read before it runs. */
  hidden: boolean;
}

interface EvalEnv {
  readonly vars?: ReadonlyMap<string, VarValue>;
  /** Attributes `declare` gave names earlier in the line: `A` (associative), `i` (integer). */
  readonly attributes?: ReadonlyMap<string, string>;
}

/** Values evaluated inside values: deeper than this is refused as unseen rather than followed. */
const MAX_DEPTH = 8;

export function nothingEvaluated(): Evaluated {
  return { runs: [], hidden: false };
}

type Mode = "output" | "run";

/**
 * One expansion of text as bash does it before evaluating: the seen text, with CALLER and DATA standing in for what
 * the line cannot know. In `output` mode a substitution was already resolved where the parser found it, and only its
 * output counts; in `run` mode (a literal evaluated later) the substitution itself runs then.
 */
function expandText(text: string, mode: Mode, env: EvalEnv, out: Evaluated, depth: number, quotes = true): string {
  let seen = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (ch === "\\") {
      seen += text[i + 1] ?? "";
      i++;
    } else if (!quotes && (ch === "'" || ch === '"')) seen += ch;
    else if (ch === "'") {
      const end = text.indexOf("'", i + 1);
      seen += end < 0 ? text.slice(i + 1) : text.slice(i + 1, end);
      i = end < 0 ? text.length : end;
    } else if (ch === '"') {
      // Double quotes keep expansions live: nothing to add.
    } else if (ch === "`") {
      const end = text.indexOf("`", i + 1);
      const inner = end < 0 ? text.slice(i + 1) : text.slice(i + 1, end);
      seen += substituted(inner, mode, out);
      i = end < 0 ? text.length : end;
    } else if (ch === "$") {
      const taken = dollar(text, i, mode, env, out, depth);
      seen += taken.seen;
      i = taken.end;
    } else seen += ch;
  }
  return seen;
}

/** A `$…` at `i`: what it expands to, and the index of its last character. */
function dollar(
  text: string,
  i: number,
  mode: Mode,
  env: EvalEnv,
  out: Evaluated,
  depth: number,
): { seen: string; end: number } {
  const n = text[i + 1] ?? "";
  if (n === "(") {
    const close = closing(text, i + 1, "(", ")");
    if (text[i + 2] === "(" && text[close - 1] === ")") {
      arithmetic(expandText(text.slice(i + 3, close - 1), mode, env, out, depth), env, out, depth + 1);
      return { seen: CALLER, end: close };
    }
    return { seen: substituted(text.slice(i + 2, close), mode, out), end: close };
  }
  if (n === "[") {
    const close = closing(text, i + 1, "[", "]");
    arithmetic(expandText(text.slice(i + 2, close), mode, env, out, depth), env, out, depth + 1);
    return { seen: CALLER, end: close };
  }
  if (n === "{") {
    const close = closing(text, i + 1, "{", "}");
    return { seen: parameter(text.slice(i + 2, close), mode, env, out, depth), end: close };
  }
  const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(text.slice(i + 1))?.[0];
  if (name) return { seen: valueSeen(name, env), end: i + name.length };
  if (/[0-9@*#?$!-]/.test(n)) return { seen: CALLER, end: i + 1 };
  return { seen: "$", end: i };
}

function substituted(inner: string, mode: Mode, out: Evaluated): string {
  if (mode === "run") out.runs.push(inner);
  return printsNumberText(inner) ? CALLER : DATA;
}

/** The value of `$name` as the line knows it. */
function valueSeen(name: string, env: EvalEnv): string {
  const v = env.vars?.get(name);
  if (!v) return CALLER;
  if (v.known) return v.values.join(" ");
  return v.data === false ? CALLER : DATA;
}

/** `${…}`: its subscript, offsets, indirection and prompt expansion are evaluated; what it stands for is returned. */
function parameter(body: string, mode: Mode, env: EvalEnv, out: Evaluated, depth: number): string {
  const counted = body.startsWith("#") && body.length > 1;
  const indirect = body.startsWith("!");
  const rest = counted || indirect ? body.slice(1) : body;
  const name = /^([A-Za-z_][A-Za-z0-9_]*|[0-9]+|[@*#?$!-])/.exec(rest)?.[0] ?? "";
  let op = rest.slice(name.length);
  if (op.startsWith("[")) {
    const close = closing(op, 0, "[", "]");
    subscript(name, op.slice(1, close), mode, env, out, depth);
    op = op.slice(close + 1);
  }
  if (counted) return CALLER;
  if (indirect) {
    // `${!ref}` reads the variable ref names, subscript and all; `${!prefix*}` and `${!a[@]}` only list names.
    if (/^[*@]/.test(op) || body.endsWith("[@]") || body.endsWith("[*]")) return CALLER;
    forEachValue(name, env, out, (v) => nameRef(v, env, out, depth + 1));
    return valueSeen(name, env) === DATA ? DATA : CALLER;
  }
  if (op === "@P") {
    forEachValue(name, env, out, (v) => {
      expandText(v, "run", env, out, depth + 1);
    });
    return valueSeen(name, env);
  }
  const offsets = /^:(?![-=+?])(.*)$/s.exec(op)?.[1];
  if (offsets !== undefined) {
    for (const part of offsets.split(":")) arithmetic(expandText(part, mode, env, out, depth), env, out, depth + 1);
    return valueSeen(name, env);
  }
  const word = /^:?[-=+?](.*)$/s.exec(op)?.[1] ?? /^(?:##?|%%?|\/\/?|\^\^?|,,?)(.*)$/s.exec(op)?.[1];
  const extra = word !== undefined ? expandText(word, mode, env, out, depth) : "";
  return /^:?[-=+]/.test(op) ? valueSeen(name, env) + extra : valueSeen(name, env);
}

/** Each value a variable may hold, or `hidden` when the line computed it from data. */
function forEachValue(name: string, env: EvalEnv, out: Evaluated, fn: (value: string) => void): void {
  const v = env.vars?.get(name);
  if (!v) return;
  if (!v.known) {
    if (v.data !== false) out.hidden = true;
    return;
  }
  for (const value of v.values) fn(value);
}

/** `name[sub]`: an indexed array's subscript is arithmetic; an associative one's is a string, expanded once. */
function subscript(name: string, sub: string, mode: Mode, env: EvalEnv, out: Evaluated, depth: number): void {
  if (sub === "@" || sub === "*") return;
  const seen = expandText(sub, mode, env, out, depth);
  if (!env.attributes?.get(name)?.includes("A")) arithmetic(seen, env, out, depth + 1);
}

/**
 * An arithmetic expression after its expansion: every name is a variable whose value is evaluated in turn, every
 * subscript is expanded and evaluated, and data computed at run time is hidden.
 */
function arithmetic(seen: string, env: EvalEnv, out: Evaluated, depth: number): void {
  if (depth > MAX_DEPTH) {
    out.hidden = true;
    return;
  }
  for (let i = 0; i < seen.length; i++) {
    const ch = seen[i] ?? "";
    if (ch === DATA) out.hidden = true;
    else if (ch === "$" || ch === "`") {
      // A value that holds an expansion: it meets one more.
      const end = ch === "`" ? seen.indexOf("`", i + 1) : dollar(seen, i, "run", env, out, depth).end;
      if (ch === "`") out.runs.push(seen.slice(i + 1, end < 0 ? seen.length : end));
      i = end < 0 ? seen.length : end;
    } else if (/[0-9]/.test(ch)) {
      // A number in any base (`0x1f`, `2#101`, `64#@_`): its letters are digits, not names.
      while (i + 1 < seen.length && /[0-9A-Za-z_#@]/.test(seen[i + 1] ?? "")) i++;
    } else if (/[A-Za-z_]/.test(ch)) {
      const name = /^[A-Za-z_][A-Za-z0-9_]*/.exec(seen.slice(i))?.[0] ?? ch;
      i += name.length - 1;
      const after = /^\s*\[/.exec(seen.slice(i + 1));
      if (after) {
        const open = i + after[0].length;
        const close = closing(seen, open, "[", "]");
        subscript(name, seen.slice(open + 1, close), "run", env, out, depth);
        i = close;
      }
      forEachValue(name, env, out, (v) => {
        if (!/^\s*[-+]?[0-9]+\s*$/.test(v)) arithmetic(expandText(v, "run", env, out, depth), env, out, depth + 1);
      });
    }
  }
}

/** Arithmetic written in the line (`$((…))`, `((…))`, a `for ((…))`): its substitutions ran where the parser found them. */
export function arithmeticCode(raw: string, env: EvalEnv, out: Evaluated = nothingEvaluated()): Evaluated {
  arithmetic(expandText(raw, "output", env, out, 0), env, out, 1);
  return out;
}

/** An operand evaluated as arithmetic after the shell's expansion (`let ARG`, `[[ ARG -eq … ]]`, `declare -i x=ARG`). */
export function evaluatedArithmetic(seen: string, env: EvalEnv, out: Evaluated = nothingEvaluated()): Evaluated {
  arithmetic(expandText(seen, "run", env, out, 0), env, out, 1);
  return out;
}

/**
 * A variable name a builtin is handed after the shell's expansion (`printf -v NAME`, `read NAME`, `declare NAME=…`,
 * `unset NAME`, `test -v NAME`, a nameref's target): a subscript in it is expanded and, for an indexed array,
 * evaluated.
 */
export function nameRef(seen: string, env: EvalEnv, out: Evaluated = nothingEvaluated(), depth = 0): Evaluated {
  const name = seen.slice(0, nameEnd(seen));
  if (name.includes(DATA)) out.hidden = true;
  const head = /^\s*([A-Za-z_][A-Za-z0-9_]*)\s*\[/.exec(name);
  if (!head?.[1]) return out;
  const open = head[0].length - 1;
  subscript(head[1], name.slice(open + 1, closing(name, open, "[", "]")), "run", env, out, depth);
  return out;
}

/** Where the name part of `name[sub]=value` ends (the `=` after a balanced subscript), or the text's end. */
function nameEnd(seen: string): number {
  const open = seen.indexOf("[");
  const eq = seen.indexOf("=");
  if (open < 0 || (eq >= 0 && eq < open)) return eq < 0 ? seen.length : eq;
  return closing(seen, open, "[", "]") + 1;
}

/** A prompt string (`${x@P}`, PS1, PS4): its substitutions run each time it is shown. */
export function promptCode(value: string, env: EvalEnv, out: Evaluated = nothingEvaluated()): Evaluated {
  expandText(value, "run", env, out, 0);
  return out;
}

/** Text expanded as in double quotes (an unquoted heredoc's body): what its arithmetic and `${…}` evaluate. */
export function expansionCode(text: string, env: EvalEnv, out: Evaluated = nothingEvaluated()): Evaluated {
  expandText(text, "output", env, out, 0, false);
  return out;
}

/** What `${…}` and `$((…))` in one word of the line evaluate; their substitutions ran where the parser found them. */
export function parameterCode(raw: string, env: EvalEnv, out: Evaluated): void {
  if (raw.startsWith("$((")) arithmeticCode(raw.slice(3, -2), env, out);
  else if (raw.startsWith("$[")) arithmeticCode(raw.slice(2, -1), env, out);
  else if (raw.startsWith("${")) parameter(raw.slice(2, -1), "output", env, out, 0);
}

/** The index of the bracket closing the one at `open` (quotes skipped), or the text's end. */
function closing(text: string, open: number, left: string, right: string): number {
  let depth = 0;
  for (let i = open; i < text.length; i++) {
    const ch = text[i];
    if (ch === "\\") i++;
    else if (ch === "'" && left !== "[") {
      const end = text.indexOf("'", i + 1);
      if (end >= 0) i = end;
    } else if (ch === left) depth++;
    else if (ch === right && --depth === 0) return i;
  }
  return text.length;
}

/** Programs whose output is a number: arithmetic over it evaluates nothing (`$(( $(wc -l < f) + 1 ))`). */
const NUMERIC = new Set(["wc", "nproc", "seq", "expr", "bc", "date", "id", "stat", "getconf", "tput", "ulimit"]);

/** Whether a substitution only ever prints numbers: its last command is a counter. */
export function printsNumber(script: Script): boolean {
  const last = script[script.length - 1];
  const pipeline = last?.pipelines[last.pipelines.length - 1];
  const cmd = pipeline?.commands[pipeline.commands.length - 1];
  if (cmd?.type !== "simple") return false;
  const words = cmd.words.map(literalText);
  const name = (words[0] ?? "").split("/").pop() ?? "";
  if (NUMERIC.has(name)) return true;
  if (name === "git") return words.includes("rev-list") && words.includes("--count");
  if (name === "grep" || name === "rg")
    return words.some((w) => w === "--count" || /^-[a-zA-Z]*c[a-zA-Z]*$/.test(w ?? ""));
  return false;
}

function printsNumberText(inner: string): boolean {
  try {
    return printsNumber(parseLine(inner, true).script);
  } catch {
    return false;
  }
}

/**
 * What an evaluation runs is resolved as a line of its own; what it cannot see is `shell.dynamic` (`shell.deferred`
 * in a script the project declares, whose data the interceptors meet when it runs).
 */
export function evaluatedIn(call: Call, ev: Evaluated, what: string): void {
  for (const text of ev.runs) if (text.trim() !== "") call.engine.shell(text, call);
  if (!ev.hidden) return;
  call.emit({ name: call.scope.declared ? "shell.deferred" : "shell.dynamic", class: "unknown", targets: [what] });
  call.unknown(`data evaluated as code: ${what}`);
}

/** An argument as bash sees it once expanded (its own text when static). */
export function seenOf(a: Arg): string {
  return a.seen ?? a.text;
}
