// Path leases: an agent's session (or a person, with `memnox lock`) holds a path while it works on it, so a second
// agent's write waits instead of landing on top. One small file per leased path under ~/.memnox/leases/, named by
// the path's hash, so a write checks its path and each directory above it with one read each and lists nothing.
// Local to this machine: two machines sharing a checkout see each other's leases only through a workspace.
import { readdirSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import { sha256Hex } from "../io/hash.ts";

export interface Lease {
  /** The absolute path held; a directory's lease covers everything inside it. */
  readonly path: string;
  /** The agent session holding it, or `person:<name>` for `memnox lock`. */
  readonly session: string;
  /** Who holds it, as screens name them: the agent, or the person. */
  readonly holder: string;
  readonly since: string;
  readonly until: string;
}

/** How long an agent's first write holds a path, renewed by its later writes. */
export const WRITE_LEASE_MS = 30 * 60_000;
/** A later write renews the lease only once this much of it has passed, so most writes read and do not write. */
const RENEW_AFTER_MS = 10 * 60_000;

function fileFor(dir: string, path: string): string {
  return join(dir, `${sha256Hex(path).slice(0, 32)}.json`);
}

function read(file: string): Lease | undefined {
  let raw: unknown;
  try {
    raw = readJsonIfExists(file);
  } catch {
    return undefined;
  }
  return isLease(raw) ? raw : undefined;
}

/** The path and each directory above it, nearest first. */
function pathAndAbove(path: string): string[] {
  const out = [path];
  for (let p = dirname(path); p !== out[out.length - 1]; p = dirname(p)) out.push(p);
  return out;
}

/** Leases in force on `path`: its own, and any held on a directory above it. */
export function leasesOn(dir: string, path: string, nowMs: number): Lease[] {
  const out: Lease[] = [];
  for (const p of pathAndAbove(path)) {
    const l = read(fileFor(dir, p));
    if (l && l.path === p && Date.parse(l.until) > nowMs) out.push(l);
  }
  return out;
}

/**
 * Takes (or renews) the lease on `path` for `session`; a lease another session holds in force is left alone and
 * returned. Never throws: a home it cannot write (inside a kernel wall) just keeps no lease.
 */
export function takeLease(
  dir: string,
  want: { path: string; session: string; holder: string; forMs: number; always?: boolean },
  nowMs: number,
): Lease | undefined {
  const file = fileFor(dir, want.path);
  const held = read(file);
  const live = held && held.path === want.path && Date.parse(held.until) > nowMs ? held : undefined;
  if (live && live.session !== want.session) return live;
  if (live && !want.always && Date.parse(live.until) - nowMs > want.forMs - RENEW_AFTER_MS) return undefined;
  const lease: Lease = {
    path: want.path,
    session: want.session,
    holder: want.holder,
    since: live?.since ?? new Date(nowMs).toISOString(),
    until: new Date(nowMs + want.forMs).toISOString(),
  };
  try {
    writeJsonAtomic(file, lease);
  } catch {
    // Where memnox's home is read-only the write goes on without a lease; it is a courtesy between agents.
  }
  return undefined;
}

/** Every lease kept, in force or not, oldest first. */
export function listLeases(dir: string): Lease[] {
  let names: string[];
  try {
    names = readdirSync(dir).filter((n) => n.endsWith(".json"));
  } catch {
    return [];
  }
  return names
    .map((n) => read(join(dir, n)))
    .filter((l): l is Lease => l !== undefined)
    .sort((a, b) => (a.since < b.since ? -1 : a.since > b.since ? 1 : 0));
}

/** Releases the lease on exactly `path`; returns it when there was one. */
export function releaseLease(dir: string, path: string): Lease | undefined {
  const file = fileFor(dir, path);
  const held = read(file);
  if (!held || held.path !== path) return undefined;
  rmSync(file, { force: true });
  return held;
}

/** Releases what one session holds (its end); returns how many. */
export function releaseSession(dir: string, session: string): number {
  let n = 0;
  for (const l of listLeases(dir)) if (l.session === session && releaseLease(dir, l.path)) n += 1;
  return n;
}

/** Drops every lease on this machine (after a crash left some behind); returns how many. */
export function forgetLeases(dir: string): number {
  let n = 0;
  for (const l of listLeases(dir)) if (releaseLease(dir, l.path)) n += 1;
  return n;
}

function isLease(v: unknown): v is Lease {
  if (typeof v !== "object" || v === null) return false;
  const l = v as Record<string, unknown>;
  return (
    typeof l.path === "string" &&
    typeof l.session === "string" &&
    typeof l.holder === "string" &&
    typeof l.since === "string" &&
    typeof l.until === "string"
  );
}
