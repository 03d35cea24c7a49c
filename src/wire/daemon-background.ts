// The daemon without a service manager: `memnox daemon --background` starts it in a session of its own (pid file,
// log) and waits until it answers; uninstall stops whichever daemon answers before it takes anything out.
import { readFileSync } from "node:fs";
import { pingDaemon } from "../gate/remote/client.ts";
import { spawnDaemon } from "../gate/remote/start.ts";
import type { Context } from "../ports/context.ts";
import { linkTarget } from "./links.ts";

type DaemonContext = Pick<Context, "paths" | "env" | "selfArgv" | "execPath" | "version">;

interface BackgroundReport {
  /** started: by this call; running: one already answered; failed: it did not answer in time. */
  readonly status: "started" | "running" | "failed";
  readonly pid?: number;
  readonly words: string;
}

const POLL_MS = 50;
const READY_POLLS = 200;

async function answering(sock: string, polls: number): Promise<number | undefined> {
  for (let i = 0; i < polls; i++) {
    const ping = await pingDaemon(sock);
    if (ping) return ping.pid;
    await Bun.sleep(POLL_MS);
  }
  return undefined;
}

/** Starts a daemon in the background unless one answers, and waits (bounded) until it does. */
export async function startBackgroundDaemon(ctx: DaemonContext): Promise<BackgroundReport> {
  const running = await pingDaemon(ctx.paths.sock);
  if (running?.version === ctx.version)
    return { status: "running", pid: running.pid, words: `already running (pid ${running.pid})` };
  // Another version still running (the binary was replaced): it makes way for this one.
  if (running) await stopDaemon(ctx);
  const spawned = spawnDaemon({ launcher: linkTarget(ctx), paths: ctx.paths, env: ctx.env });
  const pid = await answering(ctx.paths.sock, READY_POLLS);
  if (pid === undefined) {
    return {
      status: "failed",
      pid: spawned,
      words: `started (pid ${spawned}) but it did not answer on ${ctx.paths.sock}; what it said is in ${ctx.paths.daemonOut}`,
    };
  }
  return {
    status: "started",
    pid,
    words: `running in the background (pid ${pid}, in ${ctx.paths.daemonPid}); its log is ${ctx.paths.daemonLog}`,
  };
}

/** Whether a process of this pid is there (signal 0 checks without sending anything). */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

function pidFromFile(file: string): number | undefined {
  try {
    const n = Number(readFileSync(file, "utf8").trim());
    return Number.isInteger(n) && n > 1 ? n : undefined;
  } catch {
    return undefined;
  }
}

/** Ends whichever daemon answers on the socket (or the pid file names), and waits until it has gone. */
export async function stopDaemon(ctx: DaemonContext): Promise<{ readonly stopped?: number; readonly words: string }> {
  const pid = (await pingDaemon(ctx.paths.sock))?.pid ?? pidFromFile(ctx.paths.daemonPid);
  if (pid === undefined || !alive(pid)) return { words: "no daemon was running" };
  try {
    process.kill(pid, "SIGTERM");
  } catch (e) {
    return { words: `could not stop the daemon (pid ${pid}): ${(e as Error).message}` };
  }
  for (let i = 0; i < READY_POLLS && alive(pid); i++) await Bun.sleep(POLL_MS);
  return alive(pid)
    ? { words: `asked the daemon (pid ${pid}) to stop, and it is still running` }
    : { stopped: pid, words: `stopped the daemon (pid ${pid})` };
}
