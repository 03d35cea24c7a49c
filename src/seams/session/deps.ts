// What every session tool is handed: the face's Context, and the ways a person can be reached from here.
import type { Context } from "../../ports/context.ts";

export type Answer = "yes" | "no" | "unanswered";

export interface SessionDeps {
  readonly ctx: Context;
  /**
   * Puts a yes-or-no question to the person through the agent (MCP elicitation); undefined when the client offers
   * no way for a server to ask. `unanswered` is a question dismissed, timed out or refused by the client itself:
   * nobody said no, and nothing happens.
   */
  readonly ask?: (message: string) => Promise<Answer>;
  /** Whether a person sits at the terminal the agent runs in, where its own permission prompt appears. */
  readonly terminal: () => boolean;
}
