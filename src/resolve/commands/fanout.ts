// xargs and parallel: the command they run gets arguments nobody can see yet, marked as such.
import { type OptSpec, optValue, parseOpts } from "../argv.ts";
import { type Arg, type Call, lit } from "../call.ts";

/** Input that arrives at run time, standing where xargs or parallel put it: open, so it could name any file. */
const INPUT: Arg = { text: "$(stdin)", static: false, glob: false };

/** Programs that take their arguments as code to run. */
const CODE_RUNNERS = /^((ba|z|da|k|c|tc|fi|mk)?sh|env|eval|sudo|python[0-9.]*|node|perl|ruby|php)$/;

const XARGS: OptSpec = {
  flags: "0prtxoS",
  values: "adEILnPsJR",
  optional: "eil",
  long: ["null", "interactive", "no-run-if-empty", "verbose", "exit", "open-tty", "show-limits"],
  longValues: ["arg-file", "delimiter", "max-args", "max-procs", "max-chars", "max-lines", "process-slot-var"],
  longOptional: ["replace", "eof"],
  posix: true,
};

export function runXargs(call: Call): void {
  const p = parseOpts(call.args.slice(1), XARGS);
  const replaceOpt = p.opts.find((o) => ["-I", "-i", "-J", "--replace"].includes(o.name));
  const token = replaceOpt ? replaceOpt.value?.text || "{}" : undefined;
  const cmd = p.operands.length > 0 ? p.operands : [{ text: "echo", static: true, glob: false }];
  // Fed by `find`, the input is the files it names (`find ~ -name 'id_*' | xargs cat` reads those); fed by
  // `echo`, the words it prints (whole lines with -I).
  const stdin = optValue(p, "-a", "--arg-file") ? undefined : call.stdin;
  const known =
    stdin?.kind === "pipe"
      ? stdin.paths
      : stdin?.kind === "data" && stdin.text !== undefined
        ? stdin.text.split(token === undefined ? /[\s\0]+/ : /\n/).filter((w) => w.trim() !== "")
        : undefined;
  for (const input of known ?? []) call.engine.run(withInput(cmd, token, lit(input)), call, undefined);
  // Input nobody can read ahead (a file, a program's output) could be any word, so the command meets that too; so
  // does a shell or interpreter handed words, which xargs joins into code in ways one word at a time does not show.
  const runsCode = CODE_RUNNERS.test((cmd[0]?.text ?? "").split("/").pop() ?? "");
  if (known === undefined || runsCode) call.engine.run(withInput(cmd, token, INPUT), call, undefined);
}

/** With a replace string, words containing it take the input; without one, the input is appended. */
function withInput(cmd: readonly Arg[], token: string | undefined, input: Arg): Arg[] {
  if (token === undefined) return [...cmd, input];
  return cmd.map((a, i) =>
    i > 0 && a.text.includes(token)
      ? { ...a, text: a.text.split(token).join(input.text), static: input.static && a.static }
      : a,
  );
}

const PARALLEL: OptSpec = {
  flags: "0kquvX",
  values: "jSaNnLdIE",
  long: ["keep-order", "dry-run", "verbose", "tag", "line-buffer", "ungroup", "halt-on-error", "pipe", "null"],
  longValues: ["jobs", "sshlogin", "arg-file", "delimiter", "joblog", "results", "timeout", "retries", "halt"],
  posix: true,
};

const SEPARATORS = new Set([":::", "::::", ":::+", "::::+"]);

export function runParallel(call: Call): void {
  const p = parseOpts(call.args.slice(1), PARALLEL);
  const sep = p.operands.findIndex((a) => SEPARATORS.has(a.text));
  const template = sep < 0 ? p.operands : p.operands.slice(0, sep);
  const inputs = sep < 0 ? [] : p.operands.slice(sep + 1).filter((a) => !SEPARATORS.has(a.text));
  if (template.length === 0) {
    for (const a of inputs) {
      if (a.static) call.engine.shell(a.text, call);
      else call.engine.run([a], call);
    }
    return;
  }
  if (inputs.length === 0 || optValue(p, "-a", "--arg-file")) {
    call.engine.run(placeholder(template), call, undefined);
    return;
  }
  const hasToken = template.some((a) => a.text.includes("{"));
  for (const input of inputs) {
    const args = hasToken ? template.map((a) => fill(a, input)) : [...template, input];
    call.engine.run(args, call, undefined);
  }
}

function placeholder(template: readonly Arg[]): Arg[] {
  const hasToken = template.some((a) => a.text.includes("{"));
  return hasToken ? template.map((a) => (a.text.includes("{") ? { ...a, static: false } : a)) : [...template, INPUT];
}

function fill(a: Arg, input: Arg): Arg {
  if (!a.text.includes("{")) return a;
  return { text: a.text.replace(/\{[^}]*\}/g, input.text), static: a.static && input.static, glob: a.glob };
}
