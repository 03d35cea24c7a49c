// The gate: decide() and the services every seam calls. Built at integration; the contract is in types.ts.
import { MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import type { GateServices } from "./types.ts";

export type { Gate, GateAnswer, GateRequest, GateServices, HoldOutcome, Outcome, PersonReply } from "./types.ts";

export function createGate(_ctx: Context): GateServices {
  throw new MemnoxError("not_built", "the gate is not built yet");
}
