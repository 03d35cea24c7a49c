// What every command handler receives: its argv as expanded words, its stdin, its scope, and where actions go.
import type { ActionClass } from "../core/action.ts";
import type { ProjectFacts } from "./project.ts";
import type { Script } from "./shell/ast.ts";

/** One argument after expansion; `text` keeps `$VAR` and `$(…)` as written when they cannot be known. */
export interface Arg {
  readonly text: string;
  /** False when the value depends on run time (variables, substitutions). */
  readonly static: boolean;
  /** Contains an unquoted glob character. */
  readonly glob: boolean;
  /**
   * Not static: the text as bash sees it after expansion, with `CALLER` for a value from the caller's environment and
   * `DATA` for data the line computed at run time (src/resolve/evaluate.ts); for what is evaluated again.
   */
  readonly seen?: string;
}

/** Where the command's standard input comes from; a pipe from `find` carries the files it names. */
export type Stdin =
  | { readonly kind: "data"; readonly text: string | undefined }
  | { readonly kind: "pipe"; readonly paths?: readonly string[] }
  | { readonly kind: "file"; readonly path: string }
  | undefined;

/** What a command is known to print, for the next one in a pipeline: literal text, or file names. */
export type Printed = { readonly text: string } | { readonly paths: readonly string[] };

/** A variable the line set (or the caller's environment handed in): its possible values, or the text it came from. */
export type VarValue =
  | { readonly known: true; readonly values: readonly string[] }
  | { readonly known: false; readonly raw: string; readonly data?: boolean };

/** Mutable within one list of commands: `cd` changes the directory later commands see. */
export interface Scope {
  cwd: string;
  readonly home: string;
  /** Where the line started: the checkout's top when the gate knows it, else the working directory. */
  readonly started: string;
  readonly depth: number;
  readonly maxDepth: number;
  readonly functions: Set<string>;
  /** What the gate read about the project the line runs in. */
  readonly project?: ProjectFacts;
  /** Lines the project declares (a script file, a package.json script), not the line the agent typed. */
  readonly declared?: boolean;
  /** Aliases defined earlier in the line (`alias p='git push -f'; p`): a later command's first word expands. */
  readonly aliases: Map<string, string | null>;
  /** Variables assigned earlier in the line (`d=.ssh; cat ~/$d/id`), and loop variables with their lists. */
  readonly vars: Map<string, VarValue>;
  /** Paths made earlier in the line that lead to others: `ln -s ~/.ssh /tmp/s`, `cp -r ~/.aws /tmp/x`. */
  readonly links: Map<string, readonly string[]>;
  /** Attributes `declare` gave names earlier in the line (`A` associative, `i` integer): how bash evaluates them. */
  readonly attributes: Map<string, string>;
}

/** A copy for a subshell, a pipeline member or a function body: what it sets does not leak back. */
export function forkScope(scope: Scope, over: Partial<Pick<Scope, "cwd" | "depth">> = {}): Scope {
  return {
    ...scope,
    ...over,
    functions: new Set(scope.functions),
    vars: new Map(scope.vars),
    aliases: new Map(scope.aliases),
    links: new Map(scope.links),
    attributes: new Map(scope.attributes),
  };
}

export interface ActionSpec {
  readonly name: string;
  readonly class: ActionClass;
  readonly targets?: readonly string[];
  readonly branch?: string;
  readonly cli?: string;
  /** Where it acts, when a handler knows better than the scope (`git -C`). */
  readonly cwd?: string;
}

/** The recursion points handlers use, handed in so handlers never import the dispatcher. */
export interface Engine {
  /** Resolve another argv (after a wrapper such as `sudo` or `xargs`) with this call's stdin and scope. */
  run(args: readonly Arg[], from: Call, stdin?: Stdin): void;
  /** Resolve a nested command line (`sh -c`, `eval`, a heredoc fed to a shell), one level deeper. */
  shell(text: string, from: Call): void;
  /** Resolve already parsed scripts one level deeper (substitutions). */
  scripts(scripts: readonly Script[], from: Call): void;
  /**
   * Resolve a script file one level deeper: its text when the gate handed it in (true), else nothing (false, and the
   * path is noted so the gate can read it). A file's text is never recorded as a command line.
   */
  file(path: string, from: Call): boolean;
  /** A file's text when the gate handed it in; else undefined, and the path is noted so the gate can read it. */
  source(path: string, from: Call): string | undefined;
  /** Whether an earlier command of this line writes `path` (`printf … > p.sh && ./p.sh`): its text is not known yet. */
  madeHere(path: string): boolean;
  /** Resolve lines the project declares (a package.json script) one level deeper, in `cwd`; never recorded as typed. */
  lines(text: string, from: Call, cwd?: string): void;
  /** An earlier command of the line puts code fetched from outside at `place` (a clone, a download). */
  fetched(place: string): void;
  /** Whether `path` is, or is under, a place this line fetched from outside: what runs there nobody has read. */
  fromOutside(path: string): boolean;
}

export interface Call {
  readonly args: readonly Arg[];
  readonly stdin: Stdin;
  readonly scope: Scope;
  readonly engine: Engine;
  emit(action: ActionSpec): void;
  /** Record a command nothing knew, for the scan's counts. */
  unknown(what: string): void;
  /** Say what this command prints, when it is known (`echo 'x'`, `find ~ -name id_*`): the next command reads it. */
  prints?(out: Printed): void;
}

export function lit(text: string): Arg {
  return { text, static: true, glob: false };
}
