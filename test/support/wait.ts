// Waiting on a readiness signal rather than a clock: resolve when a check holds, looked at on every change in `dir`.
import { mkdirSync, watch } from "node:fs";

/** Resolves with the check's value once it is truthy, looked at on every change in `dir` and, as a backstop, 4 times a second. */
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
      clearTimeout(soon);
      clearInterval(backstop);
      resolve(v);
    };
    // Events are coalesced into one look a few milliseconds later: a check that itself touches `dir` (opening the
    // ledger) must not wake itself in a loop that starves every timer, the suite's own timeout included.
    let soon: ReturnType<typeof setTimeout> | undefined;
    const watcher = watch(dir, { recursive: false }, () => {
      soon ??= setTimeout(() => {
        soon = undefined;
        look();
      }, 10);
    });
    // A check that threw on a busy ledger, or a change the watcher folded away, is looked at again shortly.
    const backstop = setInterval(look, 250);
    // A failure after this long names what never happened, rather than hanging the suite.
    const timer = setTimeout(() => {
      watcher.close();
      clearTimeout(soon);
      clearInterval(backstop);
      reject(new Error(`nothing in ${dir} satisfied the check`));
    }, timeoutMs);
    look();
  });
}
