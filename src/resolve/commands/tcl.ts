// Tcl scripts (expect, tclsh, wish) read for the commands they start: `spawn`, `exec`, `system`, and what `send`
// types into a spawned shell. The script itself is code nothing here evaluates, so it always asks as `<name>.eval`.
import { optValues, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { pathOf } from "./fs-emit.ts";
import { runLine } from "./launchers.ts";

type Handler = (call: Call) => void;

interface Word {
  readonly text: string;
  /** Holds `$var` or `[cmd]`: its value is only known when the script runs. */
  readonly dynamic: boolean;
  /** Was a `{…}` block: may be a script body (if, while, proc, expect actions). */
  readonly braced: boolean;
  /** `[cmd]` substitutions inside it. */
  readonly subs: readonly string[];
}

const ESC: Readonly<Record<string, string>> = { n: "\n", r: "\r", t: "\t", "\\": "\\", '"': '"', "[": "[", $: "$" };

/** One Tcl script as commands of words; braces literal, quotes and bare words with escapes and substitutions. */
function tclCommands(script: string): Word[][] {
  const out: Word[][] = [];
  let words: Word[] = [];
  let i = 0;
  const end = () => {
    if (words.length > 0) out.push(words);
    words = [];
  };
  while (i < script.length) {
    const ch = script[i] ?? "";
    if (ch === "\n" || ch === ";") {
      end();
      i++;
    } else if (ch === " " || ch === "\t" || ch === "\r") i++;
    else if (ch === "\\" && script[i + 1] === "\n") i += 2;
    else if (ch === "#" && words.length === 0) {
      while (i < script.length && script[i] !== "\n") i++;
    } else if (ch === "{") {
      let depth = 0;
      let j = i;
      for (; j < script.length; j++) {
        if (script[j] === "\\") j++;
        else if (script[j] === "{") depth++;
        else if (script[j] === "}" && --depth === 0) break;
      }
      words.push({ text: script.slice(i + 1, j), dynamic: false, braced: true, subs: [] });
      i = j + 1;
    } else {
      const quoted = ch === '"';
      let j = quoted ? i + 1 : i;
      let text = "";
      let dynamic = false;
      const subs: string[] = [];
      while (j < script.length) {
        const c = script[j] ?? "";
        if (quoted ? c === '"' : /[\s;]/.test(c)) break;
        if (c === "\\") {
          const n = script[j + 1] ?? "";
          text += ESC[n] ?? n;
          j += 2;
        } else if (c === "[") {
          let depth = 0;
          let k = j;
          for (; k < script.length; k++) {
            if (script[k] === "[") depth++;
            else if (script[k] === "]" && --depth === 0) break;
          }
          subs.push(script.slice(j + 1, k));
          dynamic = true;
          text += script.slice(j, k + 1);
          j = k + 1;
        } else {
          if (c === "$") dynamic = true;
          text += c;
          j++;
        }
      }
      words.push({ text, dynamic, braced: false, subs });
      i = quoted ? j + 1 : j;
    }
  }
  end();
  return out;
}

/** Commands that load or evaluate code the reader cannot follow. */
const OPAQUE = new Set(["eval", "uplevel", "source", "load", "interp", "package", "subst", "namespace", "apply"]);

interface TclState {
  /** A shell was spawned, so `send` types command lines into it. */
  shell: boolean;
  readonly depth: number;
}

function argvOf(call: Call, words: readonly Word[], what: string): Arg[] | undefined {
  if (words.some((w) => w.dynamic)) {
    call.emit({ name: "shell.dynamic", class: "unknown", targets: [`${what} ${words.map((w) => w.text).join(" ")}`] });
    return undefined;
  }
  return words.map((w) => ({ text: w.text, static: true, glob: false }));
}

function tclScript(call: Call, script: string, state: TclState): void {
  if (state.depth > 6) return;
  for (const words of tclCommands(script)) {
    for (const w of words) for (const sub of w.subs) tclScript(call, sub, { ...state, depth: state.depth + 1 });
    const [head, ...rest] = words;
    if (!head) continue;
    const cmd = head.text;
    if (cmd === "spawn") {
      const args = rest.filter(
        (w, i) => !(w.text.startsWith("-") && rest.slice(0, i).every((x) => x.text.startsWith("-"))),
      );
      const argv = argvOf(call, args, "spawn");
      if (argv && argv.length > 0) {
        if (/(^|\/)(ba|z|da|k|fi|c|tc)?sh$/.test(argv[0]?.text ?? "")) state.shell = true;
        call.engine.run(argv, call);
      }
    } else if (cmd === "exec" || cmd === "open") {
      const args = rest.filter((w) => !/^-(ignorestderr|keepnewline)$|^--$/.test(w.text));
      const first = args[0];
      if (cmd === "open" && !first?.text.startsWith("|")) continue;
      const words2 = cmd === "open" && first ? [{ ...first, text: first.text.slice(1) }] : args;
      if (cmd === "open" && first) {
        runLine(call, { text: words2[0]?.text ?? "", static: !first.dynamic, glob: false }, "tcl open");
        continue;
      }
      // exec's own pipes and redirections split it into commands.
      let part: Word[] = [];
      for (const w of [...words2, { text: "|", dynamic: false, braced: false, subs: [] }]) {
        if (w.text === "|" || w.text === "|&") {
          const argv = argvOf(
            call,
            part.filter((x) => !/^[<>]|^2>/.test(x.text)),
            "exec",
          );
          if (argv && argv.length > 0) call.engine.run(argv, call);
          part = [];
        } else part.push(w);
      }
    } else if (cmd === "system") {
      const argv = argvOf(call, rest, "system");
      if (argv) runLine(call, { text: argv.map((a) => a.text).join(" "), static: true, glob: false }, "expect system");
    } else if ((cmd === "send" || cmd === "exp_send") && state.shell) {
      const text = rest.filter((w) => !/^-(s|h|raw|null|break|i)$|^--$/.test(w.text)).at(-1);
      if (text) runLine(call, { text: text.text.replace(/[\r\n]+$/g, ""), static: !text.dynamic, glob: false }, "send");
    } else if (OPAQUE.has(cmd)) {
      call.emit({ name: "shell.dynamic", class: "unknown", targets: [`tcl ${cmd}`] });
    }
    // A braced word may be a body (if, while, proc, expect's actions): its commands count too.
    for (const w of rest)
      if (w.braced && /\S/.test(w.text)) tclScript(call, w.text, { ...state, depth: state.depth + 1 });
  }
}

/** expect [-c cmds] [-f file | file] / tclsh [file] / wish: scripts from options, a file, or stdin. */
function tclHandler(name: string): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (args.length === 1 && /^-(v|version|help)$/.test(args[0]?.text ?? "")) return;
    const p = parseOpts(args, { flags: "dDinNv", values: "cfb", longValues: ["encoding"], posix: true });
    const inline = optValues(p, "-c");
    const file = optValues(p, "-f", "-b")[0] ?? (inline.length === 0 ? p.operands[0] : undefined);
    call.emit({ name: `${name}.eval`, class: "unknown", targets: file ? [pathOf(call, file)] : [] });
    const state: TclState = { shell: false, depth: 0 };
    for (const c of inline) {
      if (c.static) tclScript(call, c.text, state);
      else call.emit({ name: "shell.dynamic", class: "unknown", targets: [`${name} -c`] });
    }
    if (file || inline.length > 0) return;
    const stdin = call.stdin;
    if (stdin?.kind === "data" && stdin.text !== undefined) tclScript(call, stdin.text, state);
  };
}

export const TCL_HANDLERS: Readonly<Record<string, Handler>> = {
  expect: tclHandler("expect"),
  tclsh: tclHandler("tclsh"),
  wish: tclHandler("wish"),
  jimsh: tclHandler("tclsh"),
};
