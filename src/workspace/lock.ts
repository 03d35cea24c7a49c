// One sync pass at a time per home: the daemon's loop and a `memnox sync now` take turns rather than interleave.
import { closeSync, openSync, readFileSync, rmSync, writeSync } from "node:fs";
import { MemnoxError } from "../core/errors.ts";

function holderAlive(lock: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(lock, "utf8").trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

export async function withPassLock<T>(lock: string, fn: () => Promise<T>, waitMs = 60_000): Promise<T> {
  const started = Date.now();
  for (;;) {
    try {
      const fd = openSync(lock, "wx", 0o600);
      writeSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== "EEXIST") throw e;
      // A lock whose process is gone was left by a crash: take it over.
      if (!holderAlive(lock)) rmSync(lock, { force: true });
      else if (Date.now() - started > waitMs)
        throw new MemnoxError("conflict", "another sync pass is still running", `remove \`${lock}\` if none is`);
      else await Bun.sleep(100);
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(lock, { force: true });
  }
}
