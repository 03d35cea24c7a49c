// PATH interceptors: the binary linked in ~/.memnox/bin as each CLI this machine actually has (the verb tables'
// CLIs and the destructive basics), plus memnox's own faces. Only memnox's links are ever removed.
import { lstatSync, readdirSync, readFileSync, readlinkSync, rmdirSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import { writeJsonAtomic } from "../io/files.ts";
import { realOr } from "../io/real.ts";
import { findRealBinary, isExecutable } from "../io/real-binary.ts";
import type { Context } from "../ports/context.ts";
import type { VerbTable } from "../resolve/types.ts";
import { ensureLink } from "./links.ts";

/** Programs that destroy or send things, or start commands out of sight, intercepted beside the verb tables' CLIs. */
const BASICS = [
  "rm",
  "rmdir",
  "mv",
  "dd",
  "shred",
  "truncate",
  "chmod",
  "chown",
  "curl",
  "wget",
  "ssh",
  "scp",
  "sftp",
  "rsync",
  "nc",
  "kill",
  "pkill",
  "killall",
  "crontab",
  // Archivers that delete what they pack (--remove-files, -sdel, -m), and what runs a command where no PATH
  // interceptor stands (the service manager, the at queue, a terminal multiplexer's server).
  "tar",
  "zip",
  "7z",
  "7za",
  "7zr",
  "systemd-run",
  "at",
  "batch",
  "tmux",
  "screen",
] as const;

/** memnox's own faces by name: the CLI, the governed shells, the session server, the proxy. */
export const OWN_LINKS = ["memnox", "memnox-shell", "memnox-bash", "memnox-zsh", "memnox-session", "memnox-mcp-proxy"];

function interceptedNames(tables: readonly VerbTable[]): string[] {
  return [...new Set([...tables.flatMap((t) => [t.cli, ...(t.aliases ?? [])]), ...BASICS])];
}

export interface PathPosition {
  /** Whether ~/.memnox/bin is on PATH at all. */
  readonly onPath: boolean;
  /** On PATH and before every real binary it stands in for. */
  readonly ahead: boolean;
  /** Intercepted names a directory earlier on PATH answers first. */
  readonly behind: readonly { readonly name: string; readonly path: string }[];
}

export interface InterceptorReport {
  readonly dir: string;
  /** Names now intercepted (added by this run or already there). */
  readonly installed: readonly string[];
  readonly added: readonly string[];
  /** Names this machine has no real binary for: nothing to stand in front of. */
  readonly absent: readonly string[];
  /** Links whose real binary has gone, taken out. */
  readonly dropped: readonly string[];
  readonly path: PathPosition;
}

/** A link or launcher memnox made: a symlink to a memnox binary, or the source launcher script. */
export function isMemnoxLink(path: string): boolean {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return basename(readlinkSync(path)).startsWith("memnox");
    return st.isFile() && st.size < 4096 && readFileSync(path, "utf8").startsWith("#!/bin/sh\nMEMNOX_ARGV0=");
  } catch {
    return false;
  }
}

/** Where ~/.memnox/bin stands on `pathVar` for `names`. */
export function pathPosition(pathVar: string | undefined, dir: string, names: readonly string[]): PathPosition {
  const dirs = (pathVar ?? "").split(":").filter(Boolean);
  const at = dirs.findIndex((d) => realOr(d) === realOr(dir));
  const before = at === -1 ? dirs : dirs.slice(0, at);
  const behind = names.flatMap((name) => {
    const hit = before.find((d) => isExecutable(join(d, name)) && realOr(join(d, name)) !== realOr(join(dir, name)));
    return hit ? [{ name, path: join(hit, name) }] : [];
  });
  return { onPath: at !== -1, ahead: at !== -1 && behind.length === 0, behind };
}

/** Links every intercepted CLI this machine has, and memnox's own faces; a second run adds nothing. */
export function installInterceptors(ctx: Context, tables: readonly VerbTable[]): InterceptorReport {
  const dir = ctx.paths.bin;
  const installed: string[] = [];
  const added: string[] = [];
  const absent: string[] = [];
  const dropped: string[] = [];
  const real: Record<string, string> = {};
  for (const name of interceptedNames(tables)) {
    const link = join(dir, name);
    const found = findRealBinary(name, ctx.env.PATH, [dir], ctx.execPath);
    if (!found) {
      absent.push(name);
      if (isMemnoxLink(link)) {
        rmSync(link, { force: true });
        dropped.push(name);
      }
      continue;
    }
    real[name] = found;
    const before = snapshot(link);
    ensureLink(ctx, dir, name);
    installed.push(name);
    if (snapshot(link) !== before) added.push(name);
  }
  for (const name of OWN_LINKS) ensureLink(ctx, dir, name);
  // memnox's own git runs this one, never an interceptor (src/adapters/proc.ts).
  writeJsonAtomic(ctx.paths.realBinaries, real);
  return { dir, installed, added, absent, dropped, path: pathPosition(ctx.env.PATH, dir, installed) };
}

/** What a link points at (or a launcher says), to tell whether a run changed it. */
function snapshot(path: string): string {
  try {
    return lstatSync(path).isSymbolicLink() ? `->${readlinkSync(path)}` : readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

export interface InterceptorRemoval {
  readonly dir: string;
  readonly removed: readonly string[];
  /** Files in the directory that are not memnox's, left where they are. */
  readonly kept: readonly string[];
}

/** Every memnox link out of ~/.memnox/bin; the directory goes too when nothing else is in it. */
export function removeInterceptors(ctx: Pick<Context, "paths">): InterceptorRemoval {
  const dir = ctx.paths.bin;
  const removed: string[] = [];
  const kept: string[] = [];
  for (const name of listDir(dir)) {
    if (isMemnoxLink(join(dir, name))) {
      rmSync(join(dir, name), { force: true });
      removed.push(name);
    } else kept.push(name);
  }
  rmSync(ctx.paths.realBinaries, { force: true });
  if (kept.length === 0) {
    try {
      rmdirSync(dir);
    } catch {
      // Already gone.
    }
  }
  return { dir, removed, kept };
}

export interface InterceptorState {
  readonly dir: string;
  /** Intercepted CLIs linked now (memnox's own faces not counted). */
  readonly links: readonly string[];
  /** Links whose target is gone: the interceptor would not start. */
  readonly broken: readonly string[];
  readonly path: PathPosition;
}

export function interceptorState(ctx: Pick<Context, "paths" | "env">): InterceptorState {
  const dir = ctx.paths.bin;
  const mine = listDir(dir).filter((n) => isMemnoxLink(join(dir, n)));
  const links = mine.filter((n) => !OWN_LINKS.includes(n));
  const broken = mine.filter((n) => !isExecutable(join(dir, n)));
  return { dir, links, broken, path: pathPosition(ctx.env.PATH, dir, links) };
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}
