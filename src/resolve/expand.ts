// Words to arguments: quotes removed, `~`, $HOME and $PWD known, everything else kept as written and marked dynamic.
import { expandBraces, type Marked } from "./braces.ts";
import type { Arg, VarValue } from "./call.ts";
import { CALLER, DATA, type Evaluated, nothingEvaluated, parameterCode, printsNumber } from "./evaluate.ts";
import type { Script, Word } from "./shell/ast.ts";
import { literalText, scriptsOf } from "./shell/words.ts";

export interface Expanded {
  readonly arg: Arg;
  /** The words brace expansion makes of it (`/{a,b}` is `/a` and `/b`); just `arg` when none. */
  readonly args: readonly Arg[];
  /** Substitutions inside the word, which run before the command does. */
  readonly subs: readonly Script[];
  /** What its arithmetic, subscripts, indirection and prompt expansions evaluate as code. */
  readonly evaluated: Evaluated;
}

interface ExpandEnv {
  readonly cwd: string;
  readonly home: string;
  /** Variables the line set earlier, and the caller's place variables. */
  readonly vars?: ReadonlyMap<string, VarValue>;
  /** Attributes `declare` gave names earlier in the line (an associative array's subscript is not arithmetic). */
  readonly attributes?: ReadonlyMap<string, string>;
}

/** `*`, `?` and a closed `[…]` make a word a pattern; a lone `[` is the test command. */
const GLOB = /[*?]|\[[^\]]*\]/;
/** `$HOME`, `${HOME}`, `$PWD`, `${PWD}`: the two variables whose value the resolver always knows. */
const KNOWN_VAR = /^\$\{?(HOME|PWD)\}?$/;
/** `$name` or `${name}`, nothing more: the spellings whose value is the variable's own. */
const PLAIN_VAR = /^\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?$/;
/** A variable with several possible values makes several words; more than this and it is left unknown. */
const MAX_WORDS = 64;

export function expandWord(w: Word, env: ExpandEnv): Expanded {
  // Each alternative is one way the word can come out: more than one only when a loop variable is in it.
  let alts: { text: string; seen: string; marked: Marked[] }[] = [{ text: "", seen: "", marked: [] }];
  let isStatic = true;
  let glob = false;
  const subs: Script[] = [];
  const evaluated = nothingEvaluated();
  const append = (value: string, active: boolean, seen = value) => {
    for (const a of alts) {
      a.text += value;
      a.seen += seen;
      for (const ch of value) a.marked.push({ ch, active });
    }
  };
  w.parts.forEach((p, i) => {
    subs.push(...scriptsOf(p));
    if (p.kind === "lit") {
      let t = p.text;
      if (i === 0 && !p.quoted && (t === "~" || t.startsWith("~/"))) t = env.home + t.slice(1);
      if (!p.quoted && GLOB.test(t)) glob = true;
      append(t, !p.quoted);
      return;
    }
    if (p.kind === "var" || p.kind === "arith") parameterCode(p.raw, env, evaluated);
    const known = p.kind === "var" ? KNOWN_VAR.exec(p.raw)?.[1] : undefined;
    if (known !== undefined) {
      append(known === "HOME" ? env.home : env.cwd, false);
      return;
    }
    const name = p.kind === "var" ? PLAIN_VAR.exec(p.raw)?.[1] : undefined;
    const value = name !== undefined ? env.vars?.get(name) : undefined;
    if (value?.known) {
      if (value.values.some((v) => GLOB.test(v))) glob = true;
      if (value.values.length === 1 || alts.length * value.values.length > MAX_WORDS) {
        if (value.values.length === 1) append(value.values[0] ?? "", false);
        else {
          isStatic = false;
          append(p.raw, false, value.values.some((v) => /[$`]/.test(v)) ? DATA : CALLER);
        }
        return;
      }
      alts = alts.flatMap((a) =>
        value.values.map((v) => ({
          text: a.text + v,
          seen: a.seen + v,
          marked: [...a.marked, ...[...v].map((ch) => ({ ch, active: false }))],
        })),
      );
      return;
    }
    if (value && !value.known) {
      // Set from something run at run time (`d=$(cmd)`): unknown, but its text is kept for the gate to read.
      isStatic = false;
      append(value.raw, false, value.data === false ? CALLER : DATA);
      return;
    }
    if (p.kind === "cmdsub") {
      const folded = foldEcho(p.script);
      if (folded !== undefined) {
        append(folded, false);
        return;
      }
    }
    isStatic = false;
    append(p.raw, false, partSeen(p, env));
  });
  const first = alts[0] ?? { text: "", seen: "", marked: [] };
  const arg: Arg = isStatic
    ? { text: first.text, static: true, glob }
    : { text: first.text, static: false, glob, seen: first.seen };
  const words: { text: string; seen?: string }[] = alts.flatMap((a) =>
    isStatic && a.text.includes("{")
      ? expandBraces(a.marked).map((text) => ({ text }))
      : [{ text: a.text, ...(isStatic ? {} : { seen: a.seen }) }],
  );
  const args = words.length === 1 ? [arg] : words.map((x) => ({ ...arg, ...x }));
  return { arg, args, subs, evaluated };
}

/** What a part the line cannot know stands for once expanded: a number, the caller's value, or data. */
function partSeen(p: Word["parts"][number], env: ExpandEnv): string {
  if (p.kind === "arith") return CALLER;
  if (p.kind === "cmdsub") return printsNumber(p.script) ? CALLER : DATA;
  if (p.kind !== "var" || p.raw.startsWith("${#")) return CALLER;
  const v = env.vars?.get(p.name);
  if (!v) return CALLER;
  if (v.known) return v.values.join(" ");
  return v.data === false ? CALLER : DATA;
}

/** `$(echo ls)` is `ls`: the one substitution whose output is known without running anything. */
function foldEcho(script: Script): string | undefined {
  const only = script.length === 1 ? script[0] : undefined;
  const pipeline = only?.pipelines.length === 1 && !only.background ? only.pipelines[0] : undefined;
  const cmd = pipeline && pipeline.commands.length === 1 ? pipeline.commands[0] : undefined;
  if (cmd?.type !== "simple" || cmd.redirects.length > 0 || cmd.assigns.length > 0) return undefined;
  const words = cmd.words.map(literalText);
  if (words[0] !== "echo" || words.some((t) => t === undefined || t.startsWith("-"))) return undefined;
  return words.slice(1).join(" ");
}
