// The daemon's sync loop: a pass about once a minute, backing off from one minute to fifteen while the workspace is
// unreachable, stopping (and saying so) when the credential is revoked. With no account.json it makes no call at all:
// it says so once and keeps looking at the file.
import { describeError, MemnoxError } from "../core/errors.ts";
import type { Account } from "./account.ts";

/** One minute, doubling per failure, never more than fifteen. */
export function backoffMs(failures: number, baseMs: number): number {
  if (failures <= 0) return baseMs;
  return Math.min(baseMs * 2 ** (failures - 1), baseMs * 15);
}

export type LoopStep = "no-account" | "ok" | "failed" | "revoked" | "stopped";

interface LoopDeps {
  readonly baseMs: number;
  /** account.json as it is now (undefined when absent); a broken one is reported and treated as absent. */
  readonly account: () => Account | undefined;
  /** Whether sync.json says this account was revoked: then no call is made until somebody logs in again. */
  readonly revoked: (a: Account) => boolean;
  readonly pass: (a: Account) => Promise<unknown>;
  readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  readonly say: (words: string) => void;
  /** Told after every step with the delay before the next, for tests and `ping`. */
  readonly stepped?: (step: LoopStep, nextMs: number) => void;
}

export interface SyncLoop {
  close(): Promise<void>;
}

export function startSyncLoop(deps: LoopDeps): SyncLoop {
  const abort = new AbortController();
  const done = run(deps, abort.signal);
  return {
    close: async () => {
      abort.abort();
      await done;
    },
  };
}

async function run(deps: LoopDeps, signal: AbortSignal): Promise<void> {
  let failures = 0;
  let said: string | undefined;
  // The credential the workspace revoked: no call is made with it again, whatever sync.json says.
  let revokedToken: string | undefined;
  const once = (key: string, words: string) => {
    if (said !== key) deps.say(words);
    said = key;
  };
  while (!signal.aborted) {
    let step: LoopStep;
    let account: Account | undefined;
    let broken = false;
    try {
      account = deps.account();
    } catch (e) {
      broken = true;
      once(`broken:${describeError(e)}`, `${describeError(e)}: nothing is sent until it is fixed`);
    }
    if (!account) {
      if (!broken)
        once("none", "no account.json: this machine is not connected to a workspace, so nothing is sent anywhere");
      step = "no-account";
      failures = 0;
    } else if (account.token === revokedToken || deps.revoked(account)) {
      once(
        `revoked:${account.machineId}`,
        `the workspace revoked ${account.machineId}: the loop is stopped; the rules already pulled stay in force; memnox logout forgets the credential`,
      );
      step = "stopped";
    } else {
      try {
        await deps.pass(account);
        if (failures > 0) deps.say(`the workspace ${account.workspace.name} answers again`);
        else
          once(`ok:${account.machineId}`, `syncing with workspace ${account.workspace.name} as ${account.machineId}`);
        failures = 0;
        step = "ok";
      } catch (e) {
        if (e instanceof MemnoxError && e.code === "revoked") {
          deps.say(
            `${e.message}: the loop stops; the rules already pulled stay in force; memnox logout forgets the credential`,
          );
          said = `revoked:${account.machineId}`;
          revokedToken = account.token;
          step = "revoked";
        } else {
          failures += 1;
          said = undefined;
          deps.say(`${describeError(e)}; next try in ${Math.round(backoffMs(failures, deps.baseMs) / 1000)}s`);
          step = "failed";
        }
      }
    }
    const next = step === "failed" ? backoffMs(failures, deps.baseMs) : deps.baseMs;
    deps.stepped?.(step, next);
    await deps.sleep(next, signal);
  }
}

/** A sleep that ends early when the loop is closed. */
export function abortableSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const t = setTimeout(done, ms);
    function done() {
      clearTimeout(t);
      signal.removeEventListener("abort", done);
      resolve();
    }
    signal.addEventListener("abort", done, { once: true });
  });
}
