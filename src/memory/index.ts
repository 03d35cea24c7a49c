// The memory store: pages, index, recall, types, navigation, transcripts, portability, and the hooks' API.
export { type BackupReport, backup, type RestoreReport, restore } from "./backup.ts";
export { type ConsolidationReport, consolidate } from "./consolidate.ts";
export { type DecisionInput, type DecisionWhere, rememberDecision } from "./decision.ts";
export { memoryDir } from "./dir.ts";
export { approve, type ForgetMode, forget, merge } from "./lifecycle.ts";
export type { Page, PageMeta, Scope, Status, TypedLink } from "./page.ts";
export { explicitProject, MACHINE_PROJECT, type ProjectRef, projectFromCwd, sessionQuery } from "./project.ts";
export { type RebuildReport, rebuildIndex } from "./rebuild.ts";
export { type Hit, type RecallQuery, type RecallResult, recall } from "./recall.ts";
export {
  DEFAULT_FLOOR,
  MEMORY_PREAMBLE,
  type Reminder,
  type RemindersInput,
  reminderKey,
  remindersFor,
  renderReminders,
} from "./remind.ts";
export { scrub } from "./scrub.ts";
export type { ScopeFilter } from "./search.ts";
export { type SessionContext, sessionReminders } from "./session.ts";
export { findOne, openStore, type Store } from "./store.ts";
export { type TaskQuery, type TaskResult, taskRecall } from "./task.ts";
export { ingestTranscript, provenance } from "./transcripts.ts";
export { verify } from "./verify.ts";
export { type WriteInput, type WriteResult, writePage } from "./write.ts";
