// The machine's agent wall on disk: the description (agent-wall.json, written from the rules in force by whoever
// gathers the facts: setup, protect, the daemon) and the plan the applier raises (agent-wall.plan: every Landlock
// rule of that description on this disk, with a stamp of each directory whose entries it listed). Both sit in
// ~/.memnox/guard, which nothing inside any wall can write.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, writeFileAtomic, writeJsonAtomic } from "../io/files.ts";
import { gitDir } from "../io/repo.ts";
import type { Paths } from "../ports/paths.ts";
import { FILE_RIGHTS } from "./abi.ts";
import { beneath, TEMPS, type Wall } from "./description.ts";
import { physical, realDisk } from "./disk.ts";
import type { Claim, Kernel } from "./held.ts";
import { type Disk, type LandlockPlan, landlockPlan } from "./landlock.ts";

export interface AgentWallFile {
  readonly version: 1;
  readonly writtenAt: string;
  readonly kernel: Kernel;
  readonly wall: Wall;
  readonly claims: readonly Claim[];
  readonly costs: readonly string[];
  /** memnox's own commands the applier starts outside the wall, exactly as the agents' settings name them. */
  readonly exempt: readonly string[];
}

export const agentWallFile = (paths: Pick<Paths, "guard">) => join(paths.guard, "agent-wall.json");
export const agentPlanFile = (paths: Pick<Paths, "guard">) => join(paths.guard, "agent-wall.plan");

export function readAgentWall(paths: Pick<Paths, "guard">): AgentWallFile | undefined {
  const file = agentWallFile(paths);
  const raw = readJsonIfExists(file) as Partial<AgentWallFile> | undefined;
  if (raw === undefined) return undefined;
  if (raw.version !== 1 || raw.wall?.kind !== "agent" || !Array.isArray(raw.exempt) || !Array.isArray(raw.claims))
    throw new MemnoxError("io", `\`${file}\` is not a memnox agent wall`, "memnox protect --wall writes it again");
  return raw as AgentWallFile;
}

/** Numbers the applier needs that differ by architecture (open flags, system call numbers). */
interface Arch {
  readonly openat: number;
  readonly close: number;
  readonly prctl: number;
  readonly onofollow: number;
}

const ARCHES: Readonly<Record<string, Arch>> = {
  x64: { openat: 257, close: 3, prctl: 157, onofollow: 0o400000 },
  arm64: { openat: 56, close: 57, prctl: 167, onofollow: 0o100000 },
};

export function archOf(arch: string): Arch | undefined {
  return ARCHES[arch];
}

interface Stamp {
  readonly count: number;
  readonly sum: number;
}

/** The applier's checksum of a directory's names: how many, and their bytes summed (order does not matter). */
function stampOf(names: readonly Uint8Array[]): Stamp {
  let sum = 0;
  for (const n of names) for (const b of n) sum = (sum + b) % 4294967296;
  return { count: names.length, sum };
}

/** The real disk, stamping each directory the planner lists, so the applier knows when a listing went stale. */
function stampingDisk(stamps: Map<string, Stamp>): Disk {
  return {
    list(dir) {
      // Stamped before it is listed: an entry made in between makes the stamp stale, never the plan look fresh.
      try {
        stamps.set(dir, stampOf(readdirSync(dir, { encoding: "buffer" })));
      } catch {
        return [];
      }
      return realDisk.list(dir);
    },
    kind: realDisk.kind,
  };
}

/** The plan as the applier reads it: one fact a line; a path with a line break in it is never granted. */
function planText(
  plan: LandlockPlan,
  stamps: ReadonlyMap<string, Stamp>,
  arch: Arch,
  exempt: readonly string[],
): string {
  const one = (s: string) => !s.includes("\n") && !s.includes("\r");
  const lines = [
    "memnox-wall 1",
    `abi ${plan.abi}`,
    `fs ${plan.handledFs}`,
    `net ${plan.handledNet}`,
    `scoped ${plan.scoped}`,
    `filerights ${FILE_RIGHTS}`,
    `opath ${0o10000000}`,
    `ocloexec ${0o2000000}`,
    `onofollow ${arch.onofollow}`,
    `openat ${arch.openat}`,
    `close ${arch.close}`,
    `prctl ${arch.prctl}`,
  ];
  for (const dir of plan.listed.filter(one)) {
    const s = stamps.get(dir);
    if (s) lines.push(`list ${s.count} ${s.sum} ${dir}`);
  }
  for (const r of plan.paths.filter((p) => one(p.path))) lines.push(`rule ${r.access} ${r.listed ? 1 : 0} ${r.path}`);
  for (const p of plan.ports) lines.push(`port ${p.access} ${p.port}`);
  for (const e of exempt.filter(one)) lines.push(`exempt ${e}`);
  lines.push("end");
  return `${lines.join("\n")}\n`;
}

/** Plan the machine's agent wall on the disk as it is now, and write the plan the applier raises. */
export function writeAgentPlan(paths: Pick<Paths, "guard">, file: AgentWallFile, arch: Arch): LandlockPlan | undefined {
  if (file.kernel.kind !== "landlock") return undefined;
  const stamps = new Map<string, Stamp>();
  const plan = landlockPlan(file.wall, file.kernel.abi, stampingDisk(stamps));
  writeFileAtomic(agentPlanFile(paths), planText(plan, stamps, arch, file.exempt));
  return plan;
}

export function writeAgentWall(paths: Pick<Paths, "guard">, file: AgentWallFile): void {
  writeJsonAtomic(agentWallFile(paths), file);
}

/** The local repositories a checkout pushes to or fetches from (`url = /srv/x.git`, `file://`): other repositories. */
export function localRemotes(root: string): string[] {
  const dir = gitDir(root);
  if (!dir) return [];
  let text = "";
  try {
    text = readFileSync(join(dir, "config"), "utf8");
  } catch {
    return [];
  }
  const out: string[] = [];
  for (const m of text.matchAll(/^\s*(?:push)?url\s*=\s*(.+?)\s*$/gim)) {
    const url = (m[1] ?? "").replace(/^"|"$/g, "");
    const path = url.startsWith("file://") ? url.slice("file://".length) : url;
    if (path.includes("://") || /^[\w.-]+@[\w.-]+:/.test(path)) continue;
    const abs = isAbsolute(path) ? path : resolve(root, path);
    if (existsSync(abs) && !beneath(abs, root)) out.push(physical(abs));
  }
  return out;
}

/**
 * A session starting in a checkout whose local remotes the wall does not hold yet: they join the unwritable places
 * (another repository is never the agent's to rewrite but by a push the gate sees), and the plan is written again.
 * One inside temp cannot be carved out of it without costing temp itself, so it is left to the rules.
 */
export function holdLocalRemotes(paths: Pick<Paths, "guard">, root: string, arch: Arch | undefined): string[] {
  const file = readAgentWall(paths);
  if (file?.kernel.kind !== "landlock") return [];
  const inTemp = (p: string) => TEMPS.some((t) => beneath(p, physical(t)));
  const fresh = localRemotes(root).filter((r) => !inTemp(r) && !file.wall.unwritable.some((u) => beneath(r, u.path)));
  if (fresh.length === 0) return [];
  const next: AgentWallFile = {
    ...file,
    wall: {
      ...file.wall,
      unwritable: [
        ...file.wall.unwritable,
        ...fresh.map((path) => ({ path, why: "another repository (a checkout's local remote)" })),
      ],
    },
  };
  writeAgentWall(paths, next);
  if (arch) writeAgentPlan(paths, next, arch);
  return fresh;
}
