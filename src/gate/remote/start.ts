// Starting a daemon where no service manager keeps one: `memnox daemon --background`, setup where no user service
// can be enabled, and the first hook that finds no socket. A spawn in a session of its own, never waited on here.
import { closeSync, openSync, statSync, utimesSync, writeFileSync } from "node:fs";
import type { Env } from "../../ports/index.ts";
import type { Paths } from "../../ports/paths.ts";
import { withoutSeatVariables } from "../seat.ts";

/** A hook starts at most one daemon in this long, so a daemon that cannot start is not started on every call. */
const RESTART_AFTER_MS = 60_000;

interface StartOptions {
  /** How this binary is started (`ctx.selfArgv`): `daemon` is appended. */
  readonly launcher: readonly string[];
  readonly paths: Pick<Paths, "home" | "root" | "daemonOut">;
  readonly env: Env;
}

/** The daemon's environment: the caller's, without what marks it an agent's seat or a session's. */
function daemonEnv(env: Env): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(withoutSeatVariables(env))) {
    if (v !== undefined && k !== "MEMNOX_RULED" && k !== "MEMNOX_WALL") out[k] = v;
  }
  return out;
}

/** Starts `memnox daemon` detached (its own session, stdin closed, output to daemon.out.log); its pid. */
export function spawnDaemon(o: StartOptions): number {
  const out = openSync(o.paths.daemonOut, "a", 0o600);
  try {
    // From source, bun would keep its transpiler cache under the daemon's HOME: a file in a home memnox leaves alone.
    const fromSource = o.launcher.length > 1 ? { BUN_RUNTIME_TRANSPILER_CACHE_PATH: "0" } : {};
    const child = Bun.spawn([...o.launcher, "daemon"], {
      cwd: o.paths.home,
      env: { ...daemonEnv(o.env), ...fromSource },
      stdio: ["ignore", out, out],
      detached: true,
    });
    child.unref();
    return child.pid;
  } finally {
    closeSync(out);
  }
}

/**
 * A hook's start: only after setup (kept.json), only when no socket file is there, and at most once a minute (the
 * output file's time says when the last one was started). Two stats on the way through; never throws.
 */
export function startDaemonIfNone(o: StartOptions & { readonly paths: Paths; readonly nowMs: number }): boolean {
  try {
    if (!statSync(o.paths.kept, { throwIfNoEntry: false })) return false;
    if (statSync(o.paths.sock, { throwIfNoEntry: false })) return false;
    const last = statSync(o.paths.daemonOut, { throwIfNoEntry: false })?.mtimeMs;
    if (last !== undefined && o.nowMs - last < RESTART_AFTER_MS) return false;
    if (last === undefined) writeFileSync(o.paths.daemonOut, "", { mode: 0o600 });
    const at = new Date(o.nowMs);
    utimesSync(o.paths.daemonOut, at, at);
    spawnDaemon(o);
    return true;
  } catch {
    // Starting the daemon is a convenience of the hook: the call is decided in process either way.
    return false;
  }
}
