// The shape the parser produces: enough of POSIX/bash grammar to find every command a line runs.

/** One piece of a word, before expansion. */
export type WordPart =
  | { readonly kind: "lit"; readonly text: string; readonly quoted: boolean }
  | { readonly kind: "var"; readonly name: string; readonly raw: string; readonly inner: readonly Script[] }
  | { readonly kind: "cmdsub"; readonly script: Script; readonly raw: string; readonly normalized: string }
  | { readonly kind: "arith"; readonly raw: string; readonly inner: readonly Script[] }
  | {
      readonly kind: "procsub";
      readonly dir: "<" | ">";
      readonly script: Script;
      readonly raw: string;
      readonly normalized: string;
    };

export interface Word {
  readonly parts: readonly WordPart[];
  /** The source text of the word, quotes and all. */
  readonly raw: string;
  /** `name=(…)`: the array's elements, each a word (`[i]=v` among them, whose subscript bash evaluates). */
  readonly elements?: readonly Word[];
}

export type RedirectOp = ">" | ">>" | ">|" | "<" | "<>" | "&>" | "&>>" | ">&" | "<&" | "<<" | "<<-" | "<<<";

export interface Heredoc {
  readonly delimiter: string;
  /** A quoted delimiter makes the body literal: no expansion happens inside it. */
  readonly quoted: boolean;
  /** `<<-` strips leading tabs from the body and the delimiter line. */
  readonly strip: boolean;
  body: string;
  /** Substitutions inside an unquoted body, which the shell runs. */
  inner: Script[];
}

export interface Redirect {
  readonly fd?: number;
  readonly op: RedirectOp;
  readonly target: Word;
  readonly heredoc?: Heredoc;
}

export interface SimpleCommand {
  readonly type: "simple";
  readonly assigns: readonly Word[];
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
}

/** Subshells, groups, if/while/for/case bodies: what matters is the commands inside. */
export interface CompoundCommand {
  readonly type: "compound";
  readonly kind: "subshell" | "group" | "if" | "while" | "until" | "for" | "select" | "case" | "arith" | "cond";
  readonly bodies: readonly Script[];
  /** Words the construct expands (for-lists, case subjects, `[[ … ]]` operands). */
  readonly words: readonly Word[];
  readonly redirects: readonly Redirect[];
  /** `for NAME in …`: the variable each word of the list is given in turn. */
  readonly variable?: string;
  /** `(( … ))` and `for (( …; …; … ))`: the arithmetic, as written. */
  readonly arithmetic?: string;
}

interface FunctionDef {
  readonly type: "function";
  readonly name: string;
  readonly body: Command;
}

export type Command = SimpleCommand | CompoundCommand | FunctionDef;

export interface Pipeline {
  readonly negated: boolean;
  readonly commands: readonly Command[];
}

export interface AndOr {
  readonly pipelines: readonly Pipeline[];
  readonly ops: readonly ("&&" | "||")[];
  readonly background: boolean;
}

export type Script = readonly AndOr[];

/** What the word reader needs from the grammar: nested command lists. */
export interface Nested {
  /** Parse a command list at the cursor up to (and consuming) the closing `)`. */
  untilParen(): Script;
  /** Parse a separate piece of text (heredoc bodies, arithmetic) as a script. */
  text(src: string): Script;
  /** Parse backtick contents as a script, with its normalised text. */
  line(src: string): { script: Script; normalized: string };
}
