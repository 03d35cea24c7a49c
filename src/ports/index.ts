// Interfaces only: what the outside world looks like to the code below bin/. Adapters implement them.

export type Env = Readonly<Record<string, string | undefined>>;

export interface Clock {
  /** Milliseconds since the epoch. */
  now(): number;
}

export interface Stdio {
  readonly stdinIsTTY: boolean;
  readonly stdoutIsTTY: boolean;
  readonly stderrIsTTY: boolean;
  /** Write to stdout exactly as given. */
  out(text: string): void;
  /** Write to stderr exactly as given. */
  err(text: string): void;
  /** The whole of stdin as text (hooks read their payload this way). */
  readAll(): Promise<string>;
  /** The terminal's width when stdout is one (undefined when it is not, or nobody can tell). */
  columns?(): number | undefined;
}

export interface RunOptions {
  readonly cwd?: string;
  readonly env?: Env;
  readonly input?: string | Uint8Array;
}

export interface RunResult {
  readonly code: number;
  readonly stdout: Uint8Array;
  readonly stderr: string;
}

/** Runs a child to completion and captures its output. */
export interface Proc {
  run(argv: readonly string[], opts?: RunOptions): Promise<RunResult>;
}

/** Git plumbing as a port, so tests can assert which commands would run. */
export interface Git {
  run(args: readonly string[], opts: RunOptions & { readonly cwd: string }): Promise<RunResult>;
}

/** One process as the OS lists it: what an agent's seat is told from. */
export interface ProcessInfo {
  readonly pid: number;
  readonly ppid: number;
  /** The kernel's short name (Linux `comm`), or the executable's path (macOS). */
  readonly comm: string;
  readonly argv: readonly string[];
  /** The executable's real path, where the OS says it. */
  readonly exe?: string;
  /** Session id, where the OS says it. */
  readonly sid?: number;
  /** Controlling terminal (0: none), where the OS says it. */
  readonly tty?: number;
  /** MEMNOX_ARGV0 from its environment: which face a memnox run from source is. */
  readonly argv0?: string;
}

export interface Ancestry {
  /** This process first, then each parent up to the first process of the system. */
  readonly chain: readonly ProcessInfo[];
  /** False when a parent vanished or could not be read before the walk reached the top. */
  readonly complete: boolean;
}

/** The processes above this one; read only when a decision needs them (a loosening command, a hook run by hand). */
export interface Processes {
  /** The chain from this process up; `until` stops the walk at (and including) the first process it holds for. */
  ancestry(until?: (p: ProcessInfo) => boolean): Ancestry;
  /** Reading it costs a few file reads (Linux), not a child process (macOS): cheap enough for every hook call. */
  readonly cheap: boolean;
}

export interface Notify {
  notice(title: string, body: string): Promise<void>;
}
