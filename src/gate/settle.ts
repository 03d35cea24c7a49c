// settle(): the one life of an ask, for every seam: decide; an ask is put to a person where the call is, or held
// until someone answers from their own terminal; a grant is claimed by deciding again (which writes the allowed row
// the outcome links to). The seams differ only in how they ask, what they say while waiting, and what they do after.
import { describeError } from "../core/errors.ts";
import type { GateAnswer, HoldOutcome } from "./types.ts";

export type Settled =
  /** `asked`: the rules asked and a person (here, or by a hold) or their grant said yes. */
  | { readonly kind: "allow"; readonly answer: GateAnswer; readonly asked?: true }
  | { readonly kind: "deny"; readonly answer: GateAnswer }
  /** The wait ended because `signal` aborted (the asker went away); `why` is the signal's reason. */
  | { readonly kind: "aborted"; readonly answer: GateAnswer; readonly why: unknown };

export interface Settling<Other> {
  decide(): Promise<GateAnswer>;
  awaitHold(holdId: string, signal?: AbortSignal): Promise<HoldOutcome>;
  /**
   * Put the ask to a person where the call is (a terminal), before any hold: their answer, or whatever else the
   * seam makes of it (an edited command); undefined when nobody can be asked here.
   */
  askHere?(answer: GateAnswer): Promise<Settled | Other | undefined>;
  /** The call is held: say so to whoever waits; returns what ends when the wait does. */
  held?(answer: GateAnswer, holdId: string): (() => void) | undefined;
  /** Waiting failed (not for an abort): the wait counts as unanswered, and the seam may say why. */
  failed?(e: unknown, holdId: string): void;
  readonly signal?: AbortSignal;
}

/** The answer to act on: allowed, refused with its reason, or abandoned because the asker left. */
export async function settle<Other = never>(s: Settling<Other>): Promise<Settled | Other> {
  const answer = await s.decide();
  if (answer.effect !== "ask") return answer.effect === "deny" ? { kind: "deny", answer } : { kind: "allow", answer };
  const here = await s.askHere?.(answer);
  if (here !== undefined) return here;
  const holdId = answer.holdId;
  if (!holdId) return { kind: "deny", answer: refused(answer, `${answer.reason} (nobody can be asked for this call)`) };
  const stop = s.held?.(answer, holdId);
  let outcome: HoldOutcome = "unattended";
  try {
    outcome = await s.awaitHold(holdId, s.signal);
  } catch (e) {
    if (!s.signal?.aborted) s.failed?.(e, holdId);
  } finally {
    stop?.();
  }
  if (s.signal?.aborted) return { kind: "aborted", answer, why: s.signal.reason };
  if (outcome !== "granted") {
    const why = outcome === "denied" ? "a person denied it" : "nobody answered before the hold expired";
    return { kind: "deny", answer: refused(answer, `${why} (${answer.reason})`) };
  }
  const retried = await s.decide();
  if (retried.effect === "allow") return { kind: "allow", answer: retried, asked: true };
  // Deciding again found no grant to spend (another call spent it first): a refusal that says so.
  const reason = retried.effect === "ask" ? `the grant was not found (${retried.reason})` : retried.reason;
  return { kind: "deny", answer: refused(retried, reason) };
}

/** A gate that throws has not decided, and a call nobody decided does not go through. */
export async function decidedOrRefused(decide: () => Promise<GateAnswer>): Promise<GateAnswer> {
  try {
    return await decide();
  } catch (e) {
    return {
      effect: "deny",
      enforceEffect: "deny",
      mode: "enforce",
      reason: `memnox could not decide (${describeError(e)}), and a call it cannot decide does not go through`,
      actions: [],
      stopped: false,
    };
  }
}

function refused(a: GateAnswer, reason: string): GateAnswer {
  return { ...a, effect: "deny", reason };
}
