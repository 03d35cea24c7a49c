// Whether a process is still the one it was: its pid answers and, on Linux, it started when it did then (a pid the
// system reused for another program is not the requester that went away).
import { readFileSync } from "node:fs";

export interface ProcessRef {
  readonly pid: number;
  /** Linux: the start time in clock ticks since boot (field 22 of /proc/<pid>/stat); absent elsewhere. */
  readonly started?: string;
}

/** When this process started, where the OS says it cheaply. */
function processStarted(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    // Fields after `(comm)`: state is field 3, so starttime (22) is index 19 of what follows.
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

export function processRef(pid: number): ProcessRef {
  const started = processStarted(pid);
  return started ? { pid, started } : { pid };
}

/** False once the process has exited (or its pid went to another program). */
export function processAlive(ref: ProcessRef): boolean {
  try {
    process.kill(ref.pid, 0);
  } catch (e) {
    // EPERM: it exists under another account.
    if ((e as { code?: string }).code !== "EPERM") return false;
  }
  if (ref.started === undefined) return true;
  const now = processStarted(ref.pid);
  return now === undefined || now === ref.started;
}
