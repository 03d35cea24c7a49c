// Words to arguments: quotes removed, `~`, $HOME and $PWD known, everything else kept as written and marked dynamic.
import { expandBraces, type Marked } from "./braces.ts";
import type { Arg } from "./call.ts";
import type { Script, Word } from "./shell/ast.ts";
import { literalText, scriptsOf } from "./shell/words.ts";

export interface Expanded {
  readonly arg: Arg;
  /** The words brace expansion makes of it (`/{a,b}` is `/a` and `/b`); just `arg` when none. */
  readonly args: readonly Arg[];
  /** Substitutions inside the word, which run before the command does. */
  readonly subs: readonly Script[];
}

export interface ExpandEnv {
  readonly cwd: string;
  readonly home: string;
}

/** `*`, `?` and a closed `[…]` make a word a pattern; a lone `[` is the test command. */
const GLOB = /[*?]|\[[^\]]*\]/;
/** `$HOME`, `${HOME}`, `$PWD`, `${PWD}`: the two variables whose value the resolver knows. */
const KNOWN_VAR = /^\$\{?(HOME|PWD)\}?$/;

export function expandWord(w: Word, env: ExpandEnv): Expanded {
  let text = "";
  let isStatic = true;
  let glob = false;
  const subs: Script[] = [];
  const marked: Marked[] = [];
  w.parts.forEach((p, i) => {
    subs.push(...scriptsOf(p));
    if (p.kind === "lit") {
      let t = p.text;
      if (i === 0 && !p.quoted && (t === "~" || t.startsWith("~/"))) t = env.home + t.slice(1);
      if (!p.quoted && GLOB.test(t)) glob = true;
      text += t;
      for (const ch of t) marked.push({ ch, active: !p.quoted });
      return;
    }
    const known = p.kind === "var" ? KNOWN_VAR.exec(p.raw)?.[1] : undefined;
    if (known !== undefined) {
      const value = known === "HOME" ? env.home : env.cwd;
      text += value;
      for (const ch of value) marked.push({ ch, active: false });
      return;
    }
    if (p.kind === "cmdsub") {
      const folded = foldEcho(p.script);
      if (folded !== undefined) {
        text += folded;
        for (const ch of folded) marked.push({ ch, active: false });
        return;
      }
    }
    isStatic = false;
    text += p.raw;
  });
  const arg = { text, static: isStatic, glob };
  const words = isStatic && text.includes("{") ? expandBraces(marked) : [text];
  return { arg, args: words.length === 1 ? [arg] : words.map((w) => ({ ...arg, text: w })), subs };
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
