// What doctor's --wiring and --prove print: one line a seam. wiring.ts loads the reports; they and doctor name these.

type WiringStatus = "ok" | "warn" | "fail" | "idle";

export interface WiringLine {
  /** config, rules, interceptors, path, hooks:<agent>, proxy, session, daemon, egress, ledger… */
  readonly seam: string;
  readonly status: WiringStatus;
  readonly words: string;
  /** The one command that fixes a failing line. */
  readonly fix?: string;
}

export interface ProofLine {
  readonly seam: string;
  /**
   * refused: the seam said no; allowed: it let the test through (a failure); declined: the seam is absent;
   * inactive: the hook refuses when run, but its agent does not run it yet (a trust dialog, a switch), so the agent's
   * calls are not checked here until the person takes the step the words name.
   */
  readonly result: "refused" | "allowed" | "declined" | "error" | "inactive";
  readonly words: string;
}
