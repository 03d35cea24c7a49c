// A harness hook's capture: its native session file read, stored as a transcript, linked to its episode; idempotent.
import { MemnoxError } from "../../core/errors.ts";
import type { ProjectRef } from "../format/project.ts";
import { cleanSessionId, type Harness, parseHarnessSession, suggestSessionId } from "./harness.ts";
import type { Store } from "./store.ts";
import { type IngestReport, ingestTranscript } from "./transcripts.ts";

interface CaptureInput {
  readonly harness: Harness;
  /** The session file's text and name (the name is the session id's fallback). */
  readonly text: string;
  readonly fileName: string;
  readonly sessionId?: string;
  /** A capture of a session already stored fails quietly instead of merging into it. */
  readonly noOverwrite?: boolean;
  readonly about?: ProjectRef;
}

type CaptureResult =
  | { readonly captured: true; readonly report: IngestReport; readonly harness: string }
  | { readonly captured: false; readonly session_id: string; readonly reason: "already-ingested" | "no-turns" };

export function captureSession(store: Store, input: CaptureInput): CaptureResult {
  const parsed = parseHarnessSession(input.harness, input.text, input.fileName);
  const sessionId =
    cleanSessionId(input.sessionId ?? parsed.header.session_id) || suggestSessionId(input.harness, input.fileName);
  if (parsed.turns.length === 0) return { captured: false, session_id: sessionId, reason: "no-turns" };
  const jsonl = [{ ...parsed.header, session_id: sessionId }, ...parsed.turns].map((x) => JSON.stringify(x)).join("\n");
  try {
    const report = ingestTranscript(store, {
      sessionId,
      jsonl,
      source: input.fileName,
      harness: input.harness,
      overwrite: input.noOverwrite !== true,
      ...(input.about ? { about: input.about } : {}),
    });
    return { captured: true, report, harness: input.harness };
  } catch (e) {
    if (e instanceof MemnoxError && e.code === "conflict" && input.noOverwrite)
      return { captured: false, session_id: sessionId, reason: "already-ingested" };
    throw e;
  }
}
