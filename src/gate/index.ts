// The gate: decide() and the services every seam calls.
export { createGate } from "./create.ts";
export type { GateAnswer, GateRequest, GateServices } from "./types.ts";
