// What a call is as text and as recorded: the digest's input, the text credentials are looked for in, and which
// targets are the call's own arguments (kept only as the digest).
import type { Action } from "../core/action.ts";
import type { Decision } from "../core/decisions.ts";
import type { GateRequest } from "./types.ts";

/** The decision a row recorded, when one decided it. */
export function recordedDecision(detail: Readonly<Record<string, unknown>> | undefined): Decision | undefined {
  const s = (k: string) => (typeof detail?.[k] === "string" ? (detail[k] as string) : "");
  const terms = s("decisionTerms").split(" ").filter(Boolean);
  if (!s("decisionSlug") || terms.length === 0) return undefined;
  return {
    slug: s("decisionSlug"),
    statement: s("decisionStatement"),
    file: s("decisionFile"),
    project_id: s("decisionProject"),
    valid_from: null,
    valid_until: null,
    terms,
  };
}

/** A command line or an unknown program's argv: targets that are the call's own arguments, recorded only as the digest. */
export function targetsAreArguments(action: Action): boolean {
  return action.name === "shell.execute" || action.class === "unknown";
}

/** The call as text, to find the credentials its targets may carry (an argv spaced as a person would write it). */
export function callText(req: GateRequest): string {
  if (req.rawArguments !== undefined) return req.rawArguments;
  if (req.command !== undefined) return req.command;
  if (req.argv) return req.argv.join(" ");
  const args = Object.entries(req.action?.arguments ?? {}).map(([k, v]) => [k, v.join(" ")]);
  return JSON.stringify(Object.fromEntries(args));
}

/** What the argument digest is taken over: the raw arguments, else the command line, argv or action arguments. */
export function rawArguments(req: GateRequest): string {
  if (req.rawArguments !== undefined) return req.rawArguments;
  if (req.command !== undefined) return req.command;
  if (req.argv) return req.argv.join("\u0000");
  return JSON.stringify(req.action?.arguments ?? {});
}
