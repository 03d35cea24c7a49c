// The ledger: an append-only, hash-chained record on bun:sqlite, and what reads it back.
export type { AnchorFacts } from "./anchor.ts";
export { canonical, GENESIS } from "./canonical.ts";
export { type ArgsDigest, createArgsDigest } from "./digest.ts";
export { type PurgePlan, type PurgeResult, planPurge, purge } from "./purge.ts";
export { createRecorder, type FailureSink, type Recorder, tryAppend, unwrittenCount } from "./recorder.ts";
export type { Reevaluate, Replayed } from "./reevaluate.ts";
export { compareVerdict, type Reproduction, reproduce } from "./reproduce.ts";
export type { LedgerRow } from "./row.ts";
export { machinePublicKey, machineSigner, type Signer } from "./sign.ts";
export {
  type Appended,
  type Ledger,
  type OpenOptions,
  openLedger,
  type RuleSetSources,
  type RuleSource,
  type Tip,
} from "./store.ts";
export { type ChainReport, verifyLedger, verifyObjects } from "./verify.ts";
export { type FileReport, verifyFile } from "./verify-file.ts";
