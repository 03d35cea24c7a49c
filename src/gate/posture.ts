// How a seam answers when it fails before the gate could (a payload it cannot read, a gate that cannot be built).
import type { Mode } from "../core/effect.ts";

export interface FailurePosture {
  readonly mode: Mode;
  readonly failOpen: boolean;
  /** `memnox stop` in force: every seam lets everything through. */
  readonly stopped: boolean;
  /** Why the posture is what it is, when it had to be guessed (config unreadable). */
  readonly note?: string;
}

/** Refuse only in enforce, with failOpen off and protection not stopped: what the gate itself does on an error. */
export function failsClosed(p: FailurePosture): boolean {
  return p.mode === "enforce" && !p.failOpen && !p.stopped;
}
