// Waiting on a held call: it returns when a person answers in another terminal, when it expires, or when aborted.
import { watch } from "node:fs";
import type { Clock } from "../ports/index.ts";
import { effectiveStatus, readHold } from "../state/pending.ts";
import type { HoldOutcome } from "./types.ts";

const POLL_MS = 250;

export function awaitHold(dir: string, id: string, clock: Clock, signal?: AbortSignal): Promise<HoldOutcome> {
  return new Promise((resolve) => {
    let done = false;
    let watcher: ReturnType<typeof watch> | undefined;
    const finish = (o: HoldOutcome) => {
      if (done) return;
      done = true;
      clearInterval(timer);
      watcher?.close();
      signal?.removeEventListener("abort", onAbort);
      resolve(o);
    };
    const check = () => {
      const hold = readHold(dir, id);
      if (!hold) return finish("unattended");
      const status = effectiveStatus(hold, clock.now());
      if (status !== "waiting") finish(status);
    };
    const onAbort = () => finish("unattended");
    const timer = setInterval(check, POLL_MS);
    try {
      watcher = watch(dir, () => check());
    } catch {
      // polling alone still answers
    }
    signal?.addEventListener("abort", onAbort);
    check();
  });
}
