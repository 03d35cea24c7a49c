// One tools/call before it reaches the server: hidden, allowed, refused, or held until a person answers.
import { describeError } from "../../core/errors.ts";
import { isRecord } from "../../core/record.ts";
import { decidedOrRefused, settle } from "../../gate/settle.ts";
import type { GateAnswer, GateRequest, GateServices } from "../../gate/types.ts";
import { isId, type Message, notification, params } from "./jsonrpc.ts";
import type { Refusal } from "./refusal.ts";

/** Why a call stopped waiting: the agent cancelled it (no answer is owed), or the proxy is closing. */
export type StopReason = "cancelled" | "closing";

export type CallVerdict =
  | { readonly kind: "forward"; readonly eventId?: string }
  | { readonly kind: "refuse"; readonly refusal: Refusal }
  | { readonly kind: "cancelled" };

export interface CallContext {
  readonly gate: GateServices;
  readonly request: GateRequest;
  /** `mcp.<server>.<tool>` and the bare tool name. */
  readonly action: string;
  readonly tool: string;
  /** Which setting hides the tool from the agent, if one does. */
  readonly hiddenBy: string | undefined;
  readonly signal: AbortSignal;
  readonly log: (text: string) => void;
  /** Called while a call is held, so a client that shows progress can show who must answer. */
  readonly onHeld: (holdId: string) => () => void;
}

export async function judgeCall(c: CallContext): Promise<CallVerdict> {
  const action = c.action;
  if (c.hiddenBy) {
    const reason = `${c.tool} is hidden from this agent by ${c.hiddenBy}`;
    await decidedOrRefused(() => c.gate.decide({ ...c.request, refusal: reason }));
    return { kind: "refuse", refusal: { action, reason, policy: c.hiddenBy } };
  }
  const settled = await settle({
    decide: () => decidedOrRefused(() => c.gate.decide(c.request)),
    awaitHold: (id, signal) => c.gate.awaitHold(id, signal),
    held: (answer, holdId) => {
      c.log(
        `memnox: ${action} is held for a person (hold ${holdId}): ${answer.reason}\n  it goes through once a person says yes from their own terminal\n`,
      );
      return c.onHeld(holdId);
    },
    failed: (e, holdId) => c.log(`memnox: waiting for ${holdId} failed: ${describeError(e)}\n`),
    signal: c.signal,
  });
  if (settled.kind === "aborted") {
    if (settled.why === "cancelled") return { kind: "cancelled" };
    const reason = `the agent closed the connection before a person answered (${settled.answer.reason})`;
    return { kind: "refuse", refusal: refusalOf(action, { ...settled.answer, reason }) };
  }
  const answer = settled.answer;
  if (settled.kind === "deny") return { kind: "refuse", refusal: refusalOf(action, answer) };
  if (answer.mode === "advise" && answer.enforceEffect !== "allow") {
    c.log(`memnox (advise): in enforce, ${action} would ${verb(answer)}: ${answer.reason}\n`);
  }
  return answer.eventId ? { kind: "forward", eventId: answer.eventId } : { kind: "forward" };
}

function verb(a: GateAnswer): string {
  return a.enforceEffect === "deny" ? "be refused" : "ask first";
}

function refusalOf(action: string, a: GateAnswer): Refusal {
  return {
    action,
    reason: a.reason,
    ...(a.rule ? { rule: a.rule } : {}),
    ...(a.alternative ? { alternative: a.alternative } : {}),
  };
}

/** A held call with a progress token hears, now and then, that it is held and who can answer; returns the stop. */
export function heldProgress(msg: Message, holdId: string, everyMs: number, send: (line: string) => void): () => void {
  const meta = params(msg)._meta;
  const token = isRecord(meta) ? meta.progressToken : undefined;
  if (!isId(token)) return () => {};
  let progress = 0;
  const beat = () => {
    const body = {
      progressToken: token,
      progress: progress++,
      message: `held for a person (hold ${holdId}), who answers it from their own terminal`,
    };
    send(notification("notifications/progress", body));
  };
  beat();
  const timer = setInterval(beat, everyMs);
  return () => clearInterval(timer);
}
