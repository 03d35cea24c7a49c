// The words an agent reads for a gate answer: why, which rule, what to use instead, and how a held call is answered.

import type { ToolVerdict } from "../../../hooks/types.ts";
import { effectRank } from "../../core/effect.ts";
import type { GateAnswer } from "../../gate/types.ts";
import { adviseText, refusalText, whoMustSay } from "../shared/refusal.ts";

/** The answer that decides a call made of several: strictest first, the first of equals. */
export function strictest(answers: readonly GateAnswer[]): GateAnswer {
  const [first, ...rest] = answers;
  if (!first) throw new Error("no gate answer");
  return rest.reduce((a, b) => (effectRank(b.effect) > effectRank(a.effect) ? b : a), first);
}

function ruleWords(a: GateAnswer): string {
  return a.rule ? ` (rule ${a.rule.name}, ${a.rule.file}:${a.rule.line})` : "";
}

function instead(a: GateAnswer): string {
  return a.alternative ? ` Instead: ${a.alternative.note}` : "";
}

function trimmed(reason: string): string {
  return reason.replace(/[.\s]+$/, "");
}

/** A question for the agent's own prompt: the person reads it there. */
function questionText(a: GateAnswer): string {
  return `memnox asks a person first: ${trimmed(a.reason)}${ruleWords(a)}.${instead(a)}`;
}

/**
 * An ask where nobody can be asked from the hook: refused now, held for a person, then retried. The words speak of
 * the person, never of a command the agent could run to answer its own question.
 */
function heldText(a: GateAnswer): string {
  const held = a.holdId
    ? ` It is held for a person (hold ${a.holdId}), who answers it from their own terminal; once they say yes, the same call goes through when it is retried.`
    : " Nobody can be asked from here, so it is refused.";
  return `memnox refused this call for now, because ${whoMustSay(a)} first: ${trimmed(a.reason)}${ruleWords(a)}.${held}${instead(a)}`;
}

/** What the face settles for one call, before the adapter encodes it. */
export function toolVerdict(a: GateAnswer, canAsk: boolean): ToolVerdict {
  if (a.effect === "allow") return { effect: "allow", message: a.reason };
  // Only the named people answer a quorum, so the agent's own prompt (whoever sits at it) cannot.
  if (a.effect === "ask")
    return canAsk && !a.quorum ? { effect: "ask", message: questionText(a) } : { effect: "deny", message: heldText(a) };
  return { effect: "deny", message: refusalText("this call", a).trim() };
}

/** In advise, an allowed call that enforce would have stopped says so beside it. */
export function adviseNote(a: GateAnswer): string | undefined {
  if (a.mode !== "advise" || a.enforceEffect === "allow" || a.effect !== "allow") return undefined;
  return adviseText("this call", a).trim();
}

/** memnox itself could not rule, in enforce: the refusal says it is memnox's and why. */
export function failureVerdict(why: string): ToolVerdict {
  return {
    effect: "deny",
    message: `memnox refused this call because it could not rule on it: ${why}. In enforce a call memnox cannot rule on is refused, not let through; \`memnox doctor\` checks the wiring.`,
  };
}
