// An export as its system hands it over (a folder zipped by the machine's real `zip`, the way a Slack workspace export
// arrives, read back as bytes), and the columns of a stored event the sweep and webhook tests compare.
import { readFileSync, rmSync } from "node:fs";

/** `dir`'s contents zipped (names relative to it, no extra attributes) into `out`; its bytes. */
export function zipFolder(dir: string, out: string): Uint8Array {
  rmSync(out, { force: true });
  const r = Bun.spawnSync(["zip", "-r", "-X", "-q", out, "."], { cwd: dir, stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`zip failed: ${r.stderr.toString()}`);
  return new Uint8Array(readFileSync(out));
}

/** The columns of `source_events` that say what arrived and how it was judged. */
export interface StoredEvent {
  readonly kind: string;
  readonly source_ref: string;
  readonly stream: string;
  readonly author: string;
  readonly author_trusted: boolean;
  readonly tainted: boolean;
  readonly taint_reason: string | null;
  readonly content: string;
  readonly occurred_at: Date;
}
