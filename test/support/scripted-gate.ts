// GateServices that answer from a script and remember every call a seam made, for testing seams without the gate.
import type { Briefing, ForgedOutcome, GateAnswer, GateRequest, GateServices } from "../../src/gate/types.ts";

export type ServiceCall =
  | { readonly method: "decide"; readonly request: GateRequest }
  | { readonly method: "recordOutcome"; readonly eventId: string; readonly outcome: unknown }
  | {
      readonly method: "recordAnswer";
      readonly answer: GateAnswer;
      readonly request: GateRequest;
      readonly reply: unknown;
    }
  | { readonly method: "recordSession"; readonly event: unknown }
  | { readonly method: "briefing"; readonly request: unknown }
  | { readonly method: "awaitHold"; readonly holdId: string }
  | { readonly method: "markWary"; readonly session: string }
  | { readonly method: "recordForgedOutcome"; readonly forged: ForgedOutcome }
  | { readonly method: "pauseSession"; readonly session: string };

export interface ScriptedGate extends GateServices {
  readonly calls: ServiceCall[];
  /** Just the requests decide() was given. */
  requests(): GateRequest[];
}

export interface GateScript {
  /** Answers handed out in order; the last one repeats. */
  readonly answers?: readonly Partial<GateAnswer>[];
  readonly briefing?: Briefing;
}

/** A scripted answer with the fields a real one always has. */
export function gateAnswer(a: Partial<GateAnswer>): GateAnswer {
  const effect = a.effect ?? "allow";
  return {
    effect,
    enforceEffect: a.enforceEffect ?? effect,
    mode: a.mode ?? "enforce",
    reason: a.reason ?? "no rule matched",
    actions: a.actions ?? [],
    stopped: a.stopped ?? false,
    ...a,
  };
}

export function scriptedGate(script: GateScript = {}): ScriptedGate {
  const calls: ServiceCall[] = [];
  const answers = script.answers ?? [{}];
  let n = 0;
  return {
    calls,
    requests: () => calls.flatMap((c) => (c.method === "decide" ? [c.request] : [])),
    async decide(request) {
      calls.push({ method: "decide", request });
      const a = answers[Math.min(n, answers.length - 1)] ?? {};
      n += 1;
      return gateAnswer(a);
    },
    async awaitHold(holdId) {
      calls.push({ method: "awaitHold", holdId });
      return "unattended";
    },
    async recordOutcome(eventId, outcome) {
      calls.push({ method: "recordOutcome", eventId, outcome });
    },
    async recordAnswer(answer, request, reply) {
      calls.push({ method: "recordAnswer", answer, request, reply });
    },
    async pauseSession(session) {
      calls.push({ method: "pauseSession", session });
    },
    async markWary(session) {
      calls.push({ method: "markWary", session });
    },
    async recordForgedOutcome(forged) {
      calls.push({ method: "recordForgedOutcome", forged });
    },
    async briefing(request) {
      calls.push({ method: "briefing", request });
      return script.briefing ?? { mode: "enforce", rules: [] };
    },
    async recordSession(event) {
      calls.push({ method: "recordSession", event });
    },
  };
}
