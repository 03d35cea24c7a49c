// The resolver's contract: a command line (or an exact argv) in, the actions it performs out.
import type { Action, ActionClass } from "../core/action.ts";
import type { ProjectFacts } from "./project.ts";

export interface ResolveContext {
  /** Absolute working directory; relative paths become absolute against it. */
  readonly cwd: string;
  /** The user's home, for `~` expansion. */
  readonly home: string;
  /** Nesting limit for `sh -c`, `eval`, `$(…)`; beyond it the command is `unknown`. */
  readonly maxDepth?: number;
  /** What the gate read about the project (scripts, packages, bins, script files); without it nothing is assumed. */
  readonly project?: ProjectFacts;
  /**
   * Values of the caller's environment variables that name places (`TMPDIR`, `XDG_CONFIG_HOME`, `MEMNOX_HOME`…), as
   * the seam saw them; a variable not here and not set in the line stays unknown. Never a secret's value.
   */
  readonly env?: Readonly<Record<string, string>>;
}

export interface Resolution {
  /** Every action the line performs, `shell.execute` on the normalised line first. */
  readonly actions: readonly Action[];
  /** The line with whitespace and quoting normalised: the target of `shell.execute`. */
  readonly normalized: string;
  /** Commands no verb table or builtin knew (`frobnicate`, `aws newsvc x`), for counting. */
  readonly unknown: readonly string[];
  /** Set when the line could not be parsed; the actions then include an `unknown` action. */
  readonly parseError?: string;
  /** Script files the line runs whose text was not handed in: the gate may read them and resolve again. */
  readonly runs?: readonly string[];
}

/** One subcommand of a CLI, as its verb table records it. */
export interface VerbEntry {
  /** Subcommand words after the CLI name, e.g. `["pr", "merge"]`; `*` is one word, `delete-*` a prefix, `**` many. */
  readonly path: readonly string[];
  /** The action it resolves to, e.g. `gh.pr-merge`; `{1}`… name the matched words, `{path}` all of them. */
  readonly action: string;
  readonly class: ActionClass;
  /** The entry applies only when one of these options is given (`--force`, `-f`, `-X=DELETE`). */
  readonly flags?: readonly string[];
  /** Chosen by the CLI's own reader rather than by words and options; says when, for `explain`. */
  readonly when?: string;
}

export interface VerbTable {
  readonly cli: string;
  readonly description: string;
  readonly verbs: readonly VerbEntry[];
  /** Other names the same program is run as (`flyctl`, `mongo`). */
  readonly aliases?: readonly string[];
  /** Options taking a separate value, so the value is never mistaken for a subcommand. */
  readonly valueFlags?: readonly string[];
}
