// One error class with string codes; each face catches it once and maps it to an exit code or a protocol answer.
export type ErrorCode =
  | "usage"
  /** The bad-input class every command shares (the CLI's contract): each exits 2. */
  | "unknown_command"
  | "unknown_flag"
  | "unexpected_argument"
  | "missing_value"
  | "invalid_value"
  /** A program `memnox run` was asked to start that is not there (exit 127, as a shell says it). */
  | "command_not_found"
  /** …and one that is there but cannot be executed (exit 126). */
  | "not_executable"
  | "not_built"
  | "policy_parse"
  | "policy_invalid"
  | "config_invalid"
  | "io"
  | "unsafe_edit"
  | "not_found"
  | "conflict"
  | "refused"
  /** The control plane could not be reached (network, or it failed): the machine keeps deciding on its rules. */
  | "unreachable"
  /** The control plane revoked this machine's credential. */
  | "revoked"
  | "internal";

const EXIT: Record<ErrorCode, number> = {
  usage: 2,
  unknown_command: 2,
  unknown_flag: 2,
  unexpected_argument: 2,
  missing_value: 2,
  invalid_value: 2,
  command_not_found: 127,
  not_executable: 126,
  not_built: 2,
  policy_parse: 1,
  policy_invalid: 1,
  config_invalid: 1,
  io: 1,
  unsafe_edit: 1,
  not_found: 1,
  conflict: 1,
  refused: 1,
  unreachable: 1,
  revoked: 1,
  internal: 70,
};

export class MemnoxError extends Error {
  readonly code: ErrorCode;
  readonly hint: string | undefined;
  constructor(code: ErrorCode, message: string, hint?: string) {
    super(message);
    this.name = "MemnoxError";
    this.code = code;
    this.hint = hint;
  }
  get exitCode(): number {
    return EXIT[this.code];
  }
}

export function isMemnoxError(e: unknown): e is MemnoxError {
  return e instanceof MemnoxError;
}

/** Lowercase, no stack: what a person reads. */
export function describeError(e: unknown): string {
  if (e instanceof MemnoxError) return e.hint ? `${e.message} (${e.hint})` : e.message;
  if (e instanceof Error) return e.message;
  return String(e);
}
