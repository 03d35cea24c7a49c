// The walls on disk, under ~/.memnox/guard/ (unwritable from inside every wall): one file per walled session,
// read by the helper that raises it, the boundary block and doctor; and the machine's guard that
// `protect --os-guard` writes, read by the interceptors and the governed shell before they start a program.
import { readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, writeFileAtomic, writeJsonAtomic } from "../io/files.ts";
import type { Paths } from "../ports/paths.ts";
import type { Wall } from "./description.ts";
import type { Claim, Kernel } from "./held.ts";
import type { LandlockPlan } from "./landlock.ts";

/** A walled session: what was asked for, what the kernel holds of it, and the ruleset the helper applies. */
export interface SessionWall {
  readonly version: 1;
  readonly session: string;
  readonly agent: string;
  readonly startedAt: string;
  readonly kernel: Kernel;
  readonly wall: Wall;
  readonly claims: readonly Claim[];
  readonly costs: readonly string[];
  readonly plan?: LandlockPlan;
  /** The seatbelt profile's file, on macOS. */
  readonly seatbelt?: string;
}

/** The machine's kernel guard: the description, and when it was written. */
interface OsGuard {
  readonly version: 1;
  readonly writtenAt: string;
  readonly wall: Wall;
}

const safe = (s: string) => s.replace(/[^\w.-]/g, "_").slice(0, 120);

export const sessionWallFile = (paths: Pick<Paths, "guard">, session: string) =>
  join(paths.guard, "sessions", `${safe(session)}.json`);
export const osGuardFile = (paths: Pick<Paths, "guard">) => join(paths.guard, "os-guard.json");
const osGuardProfile = (paths: Pick<Paths, "guard">) => join(paths.guard, "os-guard.sb");

export function writeSessionWall(paths: Pick<Paths, "guard">, w: SessionWall): string {
  const file = sessionWallFile(paths, w.session);
  writeJsonAtomic(file, w);
  return file;
}

function isWall(v: unknown): v is Wall {
  const w = v as Partial<Wall> | undefined;
  return (
    typeof w === "object" &&
    w !== null &&
    w.version === 1 &&
    (w.kind === "untrusted" || w.kind === "os-guard" || w.kind === "agent") &&
    typeof w.home === "string" &&
    Array.isArray(w.unreadable) &&
    Array.isArray(w.unwritable) &&
    Array.isArray(w.unexpressed)
  );
}

/** A session's wall; a file that is there but not a wall is an error naming it (the helper must not guess). */
export function readSessionWall(file: string): SessionWall | undefined {
  const raw = readJsonIfExists(file) as Partial<SessionWall> | undefined;
  if (raw === undefined) return undefined;
  if (raw.version !== 1 || typeof raw.session !== "string" || !isWall(raw.wall) || !Array.isArray(raw.claims))
    throw new MemnoxError("io", `\`${file}\` is not a memnox wall`);
  return raw as SessionWall;
}

export function removeSessionWall(paths: Pick<Paths, "guard">, session: string): void {
  rmSync(sessionWallFile(paths, session), { force: true });
  rmSync(sessionWallFile(paths, session).replace(/\.json$/, ".sb"), { force: true });
}

export function writeOsGuard(paths: Pick<Paths, "guard">, guard: OsGuard, seatbelt: string): void {
  writeJsonAtomic(osGuardFile(paths), guard);
  writeFileAtomic(osGuardProfile(paths), seatbelt);
}

/** The machine's guard, or undefined when none was written; one that will not read is an error, never "no guard". */
export function readOsGuard(paths: Pick<Paths, "guard">): OsGuard | undefined {
  const file = osGuardFile(paths);
  const raw = readJsonIfExists(file) as Partial<OsGuard> | undefined;
  if (raw === undefined) return undefined;
  if (raw.version !== 1 || typeof raw.writtenAt !== "string" || !isWall(raw.wall))
    throw new MemnoxError(
      "io",
      `the kernel guard \`${file}\` is not one memnox wrote`,
      "memnox protect --os-guard writes it again",
    );
  return raw as OsGuard;
}

export function removeOsGuard(paths: Pick<Paths, "guard">): boolean {
  const had = readdirSafe(paths.guard).includes("os-guard.json");
  rmSync(osGuardFile(paths), { force: true });
  rmSync(osGuardProfile(paths), { force: true });
  return had;
}

function readdirSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
