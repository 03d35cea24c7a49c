// The ledger: an append-only, hash-chained record on bun:sqlite, and what reads it back.

export { createArgsDigest } from "./digest.ts";
export { purge } from "./purge.ts";
export { createRecorder, type Recorder, unwrittenCount } from "./recorder.ts";

export { machineSigner } from "./sign.ts";
export { type Ledger, openLedger } from "./store.ts";
