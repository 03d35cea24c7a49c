// Walks the parsed line: every command, substitution, redirection and nested shell becomes actions.
import { maskSecrets } from "../core/secrets.ts";
import { type Arg, type Call, type Engine, forkScope, type Printed, type Scope, type Stdin } from "./call.ts";
import type { Collector } from "./collect.ts";
import { type Assignment, assignmentEffects, assignmentOf } from "./commands/assignments.ts";
import { writeActions } from "./commands/fs-emit.ts";
import { dispatch } from "./dispatch.ts";
import {
  arithmeticCode,
  type Evaluated,
  evaluatedArithmetic,
  evaluatedIn,
  expansionCode,
  nameRef,
  nothingEvaluated,
  seenOf,
} from "./evaluate.ts";
import { type Expanded, expandWord } from "./expand.ts";
import { absolutePath, isInertDevice } from "./paths.ts";
import type { AndOr, Command, Redirect, Script, SimpleCommand, Word } from "./shell/ast.ts";
import { describeSyntaxError, parseLine } from "./shell/parse.ts";
import { bindLoop, setVar, withAliases } from "./vars.ts";

export const DEFAULT_MAX_DEPTH = 8;

export class Walker implements Engine {
  private readonly out: Collector;

  constructor(out: Collector) {
    this.out = out;
  }

  script(script: Script, scope: Scope, stdin?: Stdin, last?: (out: Printed | undefined) => void): void {
    script.forEach((ao, i) => {
      this.andOr(ao, scope, stdin, i === script.length - 1 ? last : undefined);
    });
  }

  run(args: readonly Arg[], from: Call, stdin?: Stdin): void {
    dispatch(this.call(args, from.scope, stdin === undefined ? from.stdin : stdin, from.prints));
  }

  shell(text: string, from: Call): void {
    const scope = this.deeper(from.scope);
    if (!scope) return;
    const start = this.out.actions.length;
    const parsed = this.parse(text);
    this.script(parsed.script, scope);
    this.out.insertShell(start, maskSecrets(parsed.normalized), text);
  }

  scripts(scripts: readonly Script[], from: Call): void {
    this.subs(scripts, from.scope);
  }

  file(path: string, from: Call): boolean {
    const text = this.source(path, from);
    if (text === undefined) return false;
    this.lines(text, from);
    return true;
  }

  source(path: string, from: Call): string | undefined {
    // A script a clone or a download of this very line put there: fetched code, which nobody here has read.
    if (this.out.fetchedAt(path)) {
      from.emit({ name: "shell.fetched", class: "unknown", targets: [path] });
      return undefined;
    }
    const made = this.out.madeText(path);
    if (made !== null) return made;
    const text = from.scope.project?.files?.[path];
    if (text === undefined && path.startsWith("/")) this.out.noteRun(path);
    return text;
  }

  fetched(place: string): void {
    this.out.noteFetched(place);
  }

  fromOutside(path: string): boolean {
    return this.out.fetchedAt(path);
  }

  madeHere(path: string): boolean {
    return this.out.madeText(path) === undefined;
  }

  lines(text: string, from: Call, cwd?: string): void {
    const scope = this.deeper(from.scope);
    if (!scope) return;
    // It runs in a shell of its own: its `cd` and functions stay in it; its text is not what the agent typed.
    // A script runs in a shell of its own: what it sets stays there (what it was handed, it keeps); aliases do not
    // reach a non-interactive shell.
    const own = forkScope(scope, cwd ? { cwd } : {});
    this.script(this.parse(text).script, { ...own, functions: new Set(), aliases: new Map(), declared: true });
  }

  /** Resolves an argv directly (an interceptor's exact argv). */
  argv(args: readonly Arg[], scope: Scope): void {
    dispatch(this.call(args, scope, undefined));
  }

  private parse(text: string): { script: Script; normalized: string } {
    try {
      return parseLine(text);
    } catch (e) {
      const why = describeSyntaxError(e, text) ?? "the line could not be read";
      this.out.add({ name: "shell.unknown", class: "unknown", targets: [why] });
      this.out.noteUnknown(`unparsable: ${why}`);
      try {
        return parseLine(text, true);
      } catch {
        return { script: [], normalized: text };
      }
    }
  }

  /** A scope one level deeper, or undefined (and an unknown action) beyond the limit. */
  private deeper(scope: Scope): Scope | undefined {
    if (scope.depth + 1 > scope.maxDepth) {
      const why = `nested deeper than ${scope.maxDepth} levels`;
      this.out.add({ name: "shell.unknown", class: "unknown", targets: [why] });
      this.out.noteUnknown(why);
      return undefined;
    }
    return forkScope(scope, { depth: scope.depth + 1 });
  }

  private subs(scripts: readonly Script[], scope: Scope): void {
    if (scripts.length === 0) return;
    const inner = this.deeper(scope);
    if (!inner) return;
    for (const s of scripts) this.script(s, forkScope(inner));
  }

  private andOr(ao: AndOr, scope: Scope, stdin: Stdin, last?: (out: Printed | undefined) => void): void {
    for (const p of ao.pipelines) {
      const piped = p.commands.length > 1;
      let printed: Printed | undefined;
      p.commands.forEach((cmd, i) => {
        const s = piped ? forkScope(scope) : scope;
        const from = i > 0 ? fromPipe(printed) : stdin;
        printed = undefined;
        this.command(cmd, s, from, (out) => {
          printed = out;
        });
      });
      // What a substitution gives its word is what its one pipeline printed last.
      last?.(ao.pipelines.length === 1 ? printed : undefined);
    }
  }

  private command(cmd: Command, scope: Scope, stdin: Stdin, prints?: (out: Printed) => void): void {
    if (cmd.type === "function") {
      scope.functions.add(cmd.name);
      this.command(cmd.body, forkScope(scope), undefined);
      return;
    }
    if (cmd.type === "simple") {
      this.simple(cmd, scope, stdin, prints);
      return;
    }
    const own = this.redirects(cmd.redirects, scope).stdin;
    const listed = this.words(cmd.words, scope);
    if (cmd.arithmetic !== undefined)
      this.evaluated(arithmeticCode(cmd.arithmetic, scope), scope, `((${cmd.arithmetic}))`);
    if (cmd.kind === "cond") this.evaluated(condCode(listed, scope), scope, "[[ … ]]");
    const inner = cmd.kind === "subshell" ? forkScope(scope) : scope;
    if (cmd.variable !== undefined) bindLoop(inner, cmd.variable, listed);
    for (const body of cmd.bodies) this.script(body, inner, own ?? stdin);
  }

  private simple(cmd: SimpleCommand, scope: Scope, stdin: Stdin, prints?: (out: Printed) => void): void {
    const assigned = cmd.assigns.flatMap((a) => this.assignment(a, scope));
    if (assigned.length > 0) assignmentEffects(this.call([], scope, undefined), assigned);
    const args = this.words(cmd.words, scope);
    const { stdin: redirected, replaced } = this.redirects(cmd.redirects, scope);
    // `d=x cmd` sets d for cmd alone; a bare `d=x` sets it for what follows in this shell.
    if (cmd.words.length === 0) for (const [name, value] of assigned) setVar(scope, name, value);
    if (args.length === 0) return;
    // Output redirected to a file reaches no pipe; what a file is given in full (`cat > f <<EOF`) is its text.
    const toFile = cmd.redirects.some((r) => r.op === ">" || r.op === ">>" || r.op === ">|");
    let given: string | undefined;
    const capture = (out: Printed) => {
      if ("text" in out) given = out.text;
    };
    // `GIT_DIR=x git …`: the command's own environment holds them while it runs, and its handler reads them.
    const before = assigned.map(([name]) => [name, scope.vars.get(name)] as const);
    for (const [name, value] of assigned) setVar(scope, name, value);
    const during = assigned.map(([name]) => scope.vars.get(name));
    dispatch(this.call(args, scope, redirected ?? stdin, toFile ? capture : prints));
    before.forEach(([name, was], i) => {
      if (scope.vars.get(name) !== during[i]) return;
      if (was === undefined) scope.vars.delete(name);
      else scope.vars.set(name, was);
    });
    if (replaced && given !== undefined) this.out.noteText(replaced, given);
  }

  private words(words: readonly Word[], scope: Scope): Arg[] {
    return words.flatMap((w) => {
      const e = this.expand(w, scope);
      const only = w.parts.length === 1 && w.parts[0]?.kind === "cmdsub" ? w.parts[0].script : undefined;
      if (!only || e.subs.length !== 1) {
        this.subs(e.subs, scope);
        return e.args;
      }
      // `cat $(git ls-files)`, `wc -l $(find ~ -name 'id_*')`: the files a lister names, as the patterns it prints.
      const listed = this.listed(only, scope);
      return listed.length > 0 ? listed.map((text) => ({ text, static: true, glob: true })) : e.args;
    });
  }

  /** The paths a substitution's lister prints (find, git ls-files, mktemp), run once in a scope of its own. */
  private listed(only: Script, scope: Scope): readonly string[] {
    let printed: Printed | undefined;
    const inner = this.deeper(scope);
    if (inner)
      this.script(only, forkScope(inner), undefined, (out) => {
        printed = out;
      });
    return printed && "paths" in printed ? printed.paths : [];
  }

  private assignment(w: Word, scope: Scope): Assignment[] {
    const e = this.expand(w, scope);
    // `t=$(mktemp)`: a value that is one lister's output names the path it prints.
    const sub = w.parts.length === 2 && w.parts[1]?.kind === "cmdsub" ? w.parts[1].script : undefined;
    const listed = sub && e.subs.length === 1 ? this.listed(sub, scope) : [];
    if (listed.length !== 1) this.subs(e.subs, scope);
    const seen = seenOf(e.arg);
    // `a[sub]=v`: the subscript is evaluated; `n=v` where `declare -i n` was given: the value is arithmetic.
    const ev = nameRef(seen, scope);
    const a = assignmentOf(e.arg);
    if (a && scope.attributes.get(a[0])?.includes("i")) evaluatedArithmetic(seenOf(a[1]), scope, ev);
    this.evaluated(ev, scope, w.raw);
    if (a && listed.length === 1) return [[a[0], { text: listed[0] ?? "", static: true, glob: true }]];
    return a ? [a] : [];
  }

  /** A word's expansion, with what its arithmetic, subscripts and prompt strings evaluate resolved now. */
  private expand(w: Word, scope: Scope): Expanded {
    const e = expandWord(w, scope);
    this.evaluated(e.evaluated, scope, w.raw);
    // `a=([i]=v …)`: each element's subscript is evaluated as the array is made.
    const array = w.elements ? (/^([A-Za-z_][A-Za-z0-9_]*)\+?=\(/.exec(e.arg.text)?.[1] ?? "a") : "";
    for (const el of w.elements ?? []) {
      const seen = seenOf(expandWord(el, scope).arg);
      if (seen.startsWith("[")) this.evaluated(nameRef(`${array}${seen}`, scope), scope, el.raw);
    }
    return e;
  }

  private evaluated(ev: Evaluated, scope: Scope, what: string): void {
    if (ev.runs.length > 0 || ev.hidden) evaluatedIn(this.call([], scope, undefined), ev, what);
  }

  /** File reads and writes of the redirections; returns the stdin they give the command, if any. */
  /** File reads and writes of the redirections; the stdin they give, and the one file they replace whole (`>`). */
  private redirects(redirects: readonly Redirect[], scope: Scope): { stdin: Stdin; replaced?: string } {
    let stdin: Stdin;
    const outputs: string[] = [];
    let whole: string | undefined;
    for (const r of redirects) {
      const e = this.expand(r.target, scope);
      this.subs(e.subs, scope);
      if (r.heredoc) {
        this.subs(r.heredoc.inner, scope);
        if (!r.heredoc.quoted) this.evaluated(expansionCode(r.heredoc.body, scope), scope, `<<${r.heredoc.delimiter}`);
        stdin = { kind: "data", text: r.heredoc.body };
        continue;
      }
      if (r.op === "<<<") {
        stdin = { kind: "data", text: e.arg.static ? `${e.arg.text}\n` : undefined };
        continue;
      }
      if ((r.op === ">&" || r.op === "<&") && /^(\d+-?|-)$/.test(e.arg.text)) continue;
      if (e.arg.text === "") continue;
      const path = absolutePath(e.arg.text, scope.cwd, scope.home);
      if (r.op === "<" || r.op === "<>" || r.op === "<&") {
        if (!isInertDevice(path)) this.out.add({ name: "filesystem.read", class: "read", targets: [path] });
        stdin = { kind: "file", path };
      }
      if (r.op !== "<" && r.op !== "<&") {
        this.write(path);
        outputs.push(path);
        if ((r.op === ">" || r.op === ">|") && e.arg.static) whole = path;
      }
    }
    return { stdin, ...(whole && outputs.length === 1 ? { replaced: whole } : {}) };
  }

  private write(path: string): void {
    for (const a of writeActions([path])) this.out.add(a);
  }

  private call(args: readonly Arg[], scope: Scope, stdin: Stdin, prints?: (out: Printed) => void): Call {
    const out = this.out;
    return {
      args,
      stdin,
      scope,
      engine: this,
      emit: (spec) =>
        out.add(
          withAliases(spec, scope),
          args.map((a) => a.text),
          scope.cwd,
        ),
      unknown: (what) => out.noteUnknown(what),
      ...(prints ? { prints } : {}),
    };
  }
}

/** `[[ A -eq B ]]` evaluates A and B as arithmetic; `[[ -v NAME ]]` evaluates NAME's subscript. */
function condCode(args: readonly Arg[], scope: Scope): Evaluated {
  const ev = nothingEvaluated();
  args.forEach((a, i) => {
    const next = args[i + 1];
    if (a.text === "-v" && next) nameRef(seenOf(next), scope, ev);
    if (/^-(eq|ne|lt|le|gt|ge)$/.test(a.text)) {
      const before = args[i - 1];
      if (before) evaluatedArithmetic(seenOf(before), scope, ev);
      if (next) evaluatedArithmetic(seenOf(next), scope, ev);
    }
  });
  return ev;
}

/** The next command's stdin: known text as data, known file names with the pipe, otherwise just a pipe. */
function fromPipe(printed: Printed | undefined): Stdin {
  if (printed && "text" in printed) return { kind: "data", text: printed.text };
  if (printed && printed.paths.length > 0) return { kind: "pipe", paths: printed.paths };
  return { kind: "pipe" };
}
