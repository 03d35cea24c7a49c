// The shell seams' common path: ask the gate, ask a person or wait for a hold where needed, run, record the outcome.
import { maskSecrets } from "../../core/secrets.ts";
import { settle as settleCall } from "../../gate/settle.ts";
import type { GateAnswer, GateRequest, GateServices } from "../../gate/types.ts";
import type { Stdio } from "../../ports/index.ts";
import { adviseText, askText, DENY_EXIT, refusalText, whoMustSay } from "./refusal.ts";
import type { Terminal } from "./terminal.ts";

export interface GatedCall {
  /** What a person sees, and edits with [e]. */
  readonly text: string;
  request(text: string): GateRequest;
  /** Just before it runs, once allowed (automatic milestones). */
  beforeRun?(answer: GateAnswer): Promise<void>;
  /** Run the real thing for this (possibly edited) text; `handedDown` is for its environment (MEMNOX_RULED). */
  exec(text: string, handedDown?: string): Promise<{ exitCode: number; durationMs: number }>;
}

export interface GatedDeps {
  readonly gate: GateServices;
  readonly io: Stdio;
  /** The person's terminal, when there is one. */
  readonly terminal: Terminal | undefined;
  /** Names this waiting process on a hold, so the hold ends if it is killed. */
  readonly waitingOn?: (holdId: string) => void;
}

const MAX_EDITS = 5;

export async function gateThenRun(call: GatedCall, deps: GatedDeps): Promise<number> {
  let text = call.text;
  for (let round = 0; round <= MAX_EDITS; round++) {
    const settled = await settle(text, call.request(text), deps);
    if (settled.kind === "edit") {
      text = settled.text;
      continue;
    }
    const answer = settled.answer;
    if (settled.kind === "deny") return refuse(text, answer, deps.io);
    if (answer.enforceEffect !== "allow" && answer.mode === "advise") deps.io.err(adviseText(`\`${text}\``, answer));
    await call.beforeRun?.(answer);
    // A call a person (or their grant) let through: the seams under it (git's pre-push) do not ask a second time.
    const token = settled.asked || answer.granted ? deps.gate.handDown?.(answer, settled.cwd) : undefined;
    const ran = await call.exec(text, token);
    if (answer.eventId) await deps.gate.recordOutcome(answer.eventId, ran);
    return ran.exitCode;
  }
  deps.io.err("memnox: too many edits; nothing was run\n");
  return DENY_EXIT;
}

export type Settled =
  /** `asked`: the rules asked and a person or a grant said yes. */
  | { readonly kind: "allow"; readonly answer: GateAnswer; readonly asked?: true; readonly cwd: string }
  | { readonly kind: "deny"; readonly answer: GateAnswer }
  | { readonly kind: "edit"; readonly text: string };

/** The gate's answer, with an ask settled by the person at the terminal or by a hold someone answers. */
export async function settle(text: string, request: GateRequest, deps: GatedDeps): Promise<Settled> {
  const settled = await settleCall<Settled>({
    decide: () => deps.gate.decide(request),
    awaitHold: (id) => deps.gate.awaitHold(id),
    askHere: (answer) => askAtTerminal(text, request, answer, deps),
    held: (answer, holdId) => {
      deps.io.err(
        `memnox: \`${maskSecrets(text)}\` is held (hold ${holdId}), since ${whoMustSay(answer)}: ${answer.reason}
  it runs once a person says yes from their own terminal
`,
      );
      deps.waitingOn?.(holdId);
      return undefined;
    },
  });
  if (settled.kind === "edit" || settled.kind === "deny") return settled;
  if (settled.kind === "aborted") return { kind: "deny", answer: settled.answer };
  return { ...settled, cwd: request.cwd };
}

/** The person at this terminal, when the call may ask here: a quorum is answered only by `memnox approve`. */
async function askAtTerminal(
  text: string,
  request: GateRequest,
  answer: GateAnswer,
  deps: GatedDeps,
): Promise<Settled | undefined> {
  // `[a]` cannot tell who pressed it, so it never answers for named approvers.
  if (!request.canAsk || !deps.terminal || answer.quorum) return undefined;
  const reply = deps.terminal.ask(askText(`wants to run: ${text}`, answer), text);
  if (reply.kind === "edit") return { kind: "edit", text: reply.text };
  const grant = reply.kind !== "deny";
  await deps.gate.recordAnswer(answer, request, {
    grant,
    scope: reply.kind === "session" ? "session" : "once",
    via: "terminal",
  });
  return grant
    ? { kind: "allow", answer: { ...answer, effect: "allow" }, asked: true, cwd: request.cwd }
    : { kind: "deny", answer };
}

export function refuse(text: string, answer: GateAnswer, io: Stdio): number {
  io.err(refusalText(`\`${text}\``, answer));
  return DENY_EXIT;
}
