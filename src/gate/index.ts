// The gate: decide() and the services every seam calls.
export { createGate } from "./create.ts";
export type {
  Briefing,
  Gate,
  GateAnswer,
  GateRequest,
  GateServices,
  HoldOutcome,
  Outcome,
  PersonReply,
  RuleSummary,
} from "./types.ts";
