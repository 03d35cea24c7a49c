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

export interface Notify {
  notice(title: string, body: string): Promise<void>;
}
