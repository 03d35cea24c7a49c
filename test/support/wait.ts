// Waiting on a readiness signal rather than a clock: resolve when a check holds, looked at on every change in `dir`.
import { mkdirSync, watch } from "node:fs";

/** Resolves with the check's value once it is truthy; `dir` is watched, so nothing polls on a timer. */
export function whenChanged<T>(dir: string, check: () => T | undefined, timeoutMs = 20_000): Promise<T> {
  mkdirSync(dir, { recursive: true });
  return new Promise((resolve, reject) => {
    const look = () => {
      let v: T | undefined;
      try {
        v = check();
      } catch {
        v = undefined;
      }
      if (!v) return;
      watcher.close();
      clearTimeout(timer);
      resolve(v);
    };
    const watcher = watch(dir, { recursive: false }, look);
    // A failure after this long names what never happened, rather than hanging the suite.
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`nothing in ${dir} satisfied the check`));
    }, timeoutMs);
    look();
  });
}
