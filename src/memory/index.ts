// The memory store: pages, index, recall, types, navigation, transcripts, portability, and the hooks' API.

export { type ConsolidationReport, consolidate } from "./consolidate.ts";
export { type DecisionInput, type DecisionWhere, rememberDecision } from "./decision.ts";
export type { Page, PageMeta, Scope, Status, TypedLink } from "./format/page.ts";
export { explicitProject, MACHINE_PROJECT, type ProjectRef, projectFromCwd, sessionQuery } from "./format/project.ts";
export { scrub } from "./format/scrub.ts";
export { memoryDir } from "./pages/dir.ts";
export { approve, type ForgetMode, forget, merge } from "./pages/lifecycle.ts";
export { type RebuildReport, rebuildIndex } from "./pages/rebuild.ts";
export { findOne, openStore, type Store } from "./pages/store.ts";
export { ingestTranscript, provenance } from "./pages/transcripts.ts";
export { verify } from "./pages/verify.ts";
export { type WriteInput, type WriteResult, writePage } from "./pages/write.ts";
export { type BackupReport, backup, type RestoreReport, restore } from "./portability/backup.ts";
export { type Hit, type RecallQuery, type RecallResult, recall } from "./recall/recall.ts";
export {
  DEFAULT_FLOOR,
  MEMORY_PREAMBLE,
  type Reminder,
  type RemindersInput,
  reminderKey,
  remindersFor,
  renderReminders,
} from "./recall/remind.ts";
export { type SessionContext, sessionReminders } from "./recall/session.ts";
export { type TaskQuery, type TaskResult, taskRecall } from "./recall/task.ts";
export type { ScopeFilter } from "./search/search.ts";
