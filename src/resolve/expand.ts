// Words to arguments: quotes removed, `~`, $HOME and $PWD known, everything else kept as written and marked dynamic.
import type { Arg } from "./call.ts";
import type { Script, Word } from "./shell/ast.ts";
import { literalText, scriptsOf } from "./shell/words.ts";

export interface Expanded {
  readonly arg: Arg;
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
  w.parts.forEach((p, i) => {
    subs.push(...scriptsOf(p));
    if (p.kind === "lit") {
      let t = p.text;
      if (i === 0 && !p.quoted && (t === "~" || t.startsWith("~/"))) t = env.home + t.slice(1);
      if (!p.quoted && GLOB.test(t)) glob = true;
      text += t;
      return;
    }
    const known = p.kind === "var" ? KNOWN_VAR.exec(p.raw)?.[1] : undefined;
    if (known !== undefined) {
      text += known === "HOME" ? env.home : env.cwd;
      return;
    }
    if (p.kind === "cmdsub") {
      const folded = foldEcho(p.script);
      if (folded !== undefined) {
        text += folded;
        return;
      }
    }
    isStatic = false;
    text += p.raw;
  });
  return { arg: { text, static: isStatic, glob }, subs };
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
