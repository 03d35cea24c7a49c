// The notice layer's findings: from the facts the history read handed in, never from anything else, so a replay of
// the row's facts answers the same. It only ever adds an ask to what the rules allow (a deny stays a deny); a chain
// whose send carries a credential's shape, and a paused session, are refused. Pure.
import type { Action } from "../../core/action.ts";
import { formatDuration } from "../../core/duration.ts";
import type { Surface } from "../../core/event.ts";
import type { StateFact } from "../../core/request.ts";
import type { Boundary } from "../boundary.ts";
import type { Finding } from "../combine.ts";
import { agentWords, NOTICED_SURFACES, noveltiesOf, sendsOutward } from "./table.ts";

/** Fact kinds the history read hands in, one call's worth, each recorded on the row. */
export const NOVEL = "novel";
export const TAKEN = "taken";
export const CARRIES = "carries";
const PAUSED = "paused";

interface NoticeInput {
  readonly action: Action;
  readonly surface: Surface;
  readonly agent: string | undefined;
  readonly session: string | undefined;
  readonly facts: readonly StateFact[];
  readonly boundary: Boundary | undefined;
  readonly nowMs: number;
}

export function noticeFindings(i: NoticeInput): Finding[] {
  const { action, facts, session } = i;
  const out: Finding[] = [];
  const paused = session ? facts.find((f) => f.kind === PAUSED && f.subject === session) : undefined;
  if (paused) {
    out.push({
      action,
      effect: "deny",
      source: "paused",
      reason: `memnox paused this session: ${paused.reason ?? "a person paused it"}; every call it makes is refused until a person resumes it from their own terminal`,
    });
    return out;
  }
  if (!NOTICED_SURFACES.has(i.surface)) return out;
  const novel = new Set(facts.filter((f) => f.kind === NOVEL).map((f) => f.subject));
  const first = novel.size > 0 ? noveltiesOf(action, i.boundary).find((n) => novel.has(n.key)) : undefined;
  if (first) {
    out.push({
      action,
      effect: "ask",
      source: "novel",
      reason: `${agentWords(i.agent)} has never done this before: ${first.words}`,
    });
  }
  const send = session ? sendsOutward(action) : undefined;
  const taken = send ? facts.find((f) => f.kind === TAKEN && f.subject === session) : undefined;
  if (send && taken) {
    const ago = taken.setAt ? ` ${formatDuration(Math.max(0, i.nowMs - Date.parse(taken.setAt)))} ago` : "";
    const chain = `earlier in this session it took something worth having (${taken.reason ?? "a secret"},${ago}) and this sends outward (${send}): each step was allowed, together they are a way out`;
    const carries = facts.find((f) => f.kind === CARRIES);
    out.push(
      carries
        ? {
            action,
            effect: "deny",
            source: "chain",
            reason: `memnox refuses this: ${chain}, and what it sends carries a credential's shape (${carries.subject})`,
          }
        : { action, effect: "ask", source: "chain", reason: `${chain}, so the send asks first` },
    );
  }
  return out;
}
