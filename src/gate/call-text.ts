// The call as one text, apart from decide.ts so that assess.ts and create.ts read it without importing the decision.
import type { GateRequest } from "./types.ts";

/** The call as text, to find the credentials its targets may carry (an argv spaced as a person would write it). */
export function callText(req: GateRequest): string {
  if (req.rawArguments !== undefined) return req.rawArguments;
  if (req.command !== undefined) return req.command;
  if (req.argv) return req.argv.join(" ");
  const args = Object.entries(req.action?.arguments ?? {}).map(([k, v]) => [k, v.join(" ")]);
  return JSON.stringify(Object.fromEntries(args));
}
