// The operation log: what was done, to which slugs, how many; never a title, a body or a query.
import { appendFileSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { isoSeconds } from "../format/time.ts";
import type { Store } from "./store.ts";

interface OpEntry {
  readonly op: string;
  readonly slugs?: readonly string[];
  readonly count?: number;
  readonly redacted?: readonly string[];
  readonly note?: string;
}

/** Best effort: a log line that cannot be written never fails the operation it describes. */
export function logOp(store: Store, entry: OpEntry): void {
  try {
    mkdirSync(dirname(store.layout.opLog), { recursive: true, mode: 0o700 });
    appendFileSync(store.layout.opLog, `${JSON.stringify({ at: isoSeconds(store.now()), ...entry })}\n`, {
      mode: 0o600,
    });
  } catch {
    // the store may be read-only; the operation itself already succeeded
  }
}
