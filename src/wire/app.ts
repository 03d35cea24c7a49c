// The stable copy of memnox at ~/.memnox/app/memnox: hooks, links, wrapped servers and the service start it, so
// none of them points into an npx cache that can vanish (a missing hook binary fails open in every agent).

import {
  chmodSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  utimesSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { realOr } from "../io/real.ts";
import type { Context } from "../ports/context.ts";
import { receiptPath, writeCopyReceipt } from "../update/receipt.ts";
import { sha256 } from "./files.ts";

interface AppCopy {
  readonly path: string;
  /** copied: replaced now; unchanged: already this binary; self: running as the copy; source: nothing to copy. */
  readonly status: "copied" | "unchanged" | "self" | "source";
  readonly words: string;
}

/** Same size and time (the copy is given the original's), or failing that the same bytes. */
function sameFile(a: string, b: string): boolean {
  if (!existsSync(b)) return false;
  const [sa, sb] = [statSync(a), statSync(b)];
  if (sa.size !== sb.size) return false;
  if (Math.abs(sa.mtimeMs - sb.mtimeMs) < 1) return true;
  return sha256(readFileSync(a)) === sha256(readFileSync(b));
}

/** Copies the running binary to `paths.app`, replacing it atomically; from source there is no binary to copy. */
export function installApp(ctx: Pick<Context, "paths" | "selfArgv" | "execPath" | "version">): AppCopy {
  const path = ctx.paths.app;
  if (ctx.selfArgv.length !== 1) {
    return { path, status: "source", words: "running from source: hooks and links start bun with this checkout" };
  }
  const from = ctx.execPath;
  if (realOr(from) === realOr(path)) return { path, status: "self", words: `running as ${path}` };
  if (sameFile(from, path)) return { path, status: "unchanged", words: `${path} is this version already` };
  mkdirSync(dirname(path), { recursive: true, mode: 0o700 });
  const tmp = join(dirname(path), `.memnox.${process.pid}.tmp`);
  try {
    copyFileSync(from, tmp);
    chmodSync(tmp, 0o755);
    const st = statSync(from);
    utimesSync(tmp, st.atime, st.mtime);
    renameSync(tmp, path);
  } finally {
    rmSync(tmp, { force: true });
  }
  // Says where the copy came from (an npm or npx install), so `memnox update` upgrades it the right way.
  writeCopyReceipt(ctx.paths, ctx.version, from);
  return { path, status: "copied", words: `copied ${from} to ${path}, which every hook and link starts` };
}

/** The stable copy and its folder gone (a running copy keeps running: the file is only unlinked). */
export function removeApp(ctx: Pick<Context, "paths">): boolean {
  const had = existsSync(ctx.paths.app);
  rmSync(ctx.paths.app, { force: true });
  rmSync(receiptPath(ctx.paths), { force: true });
  try {
    rmdirSync(dirname(ctx.paths.app));
  } catch {
    // Not empty, or already gone.
  }
  return had;
}
