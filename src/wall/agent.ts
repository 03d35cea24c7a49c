// The machine's agent wall on disk: the description (agent-wall.json, written from the rules in force by whoever
// gathers the facts: setup, protect, the daemon) and the plan the applier raises (agent-wall.plan: every Landlock
// rule of that description on this disk, with a stamp of each directory whose entries it listed). Both sit in
// ~/.memnox/guard, which nothing inside any wall can write.
import { spawnSync } from "node:child_process";
import { type Dirent, existsSync, readdirSync, readFileSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, writeFileAtomic, writeJsonAtomic } from "../io/files.ts";
import { gitDir } from "../io/repo.ts";
import { pathMatcher } from "../policy/engine/pattern.ts";
import type { Paths } from "../ports/paths.ts";
import { FILE_RIGHTS } from "./abi.ts";
import { beneath, TEMPS, type Wall, type WallPath } from "./description.ts";
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
  readonly unshare: number;
  readonly mount: number;
  readonly mknodat: number;
}

const ARCHES: Readonly<Record<string, Arch>> = {
  x64: { openat: 257, close: 3, prctl: 157, onofollow: 0o400000, unshare: 272, mount: 165, mknodat: 259 },
  arm64: { openat: 56, close: 57, prctl: 167, onofollow: 0o100000, unshare: 97, mount: 40, mknodat: 33 },
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

export interface Hidden {
  /** Hidden where they exist: a folder under an empty tmpfs, anything else under the placeholder. */
  readonly paths: readonly string[];
  /** Variables whose value is a socket's path, hidden where it is one. */
  readonly env: readonly string[];
}

/** What the applier hides from each command, where this system gives a command a mount namespace of its own. */
export function hidden(file: Pick<AgentWallFile, "kernel" | "wall">): Hidden | undefined {
  if (file.kernel.kind !== "landlock" || file.kernel.namespaces !== true) return undefined;
  const w = file.wall;
  const paths = [...new Set([...(w.servers?.paths ?? []), ...(w.names?.found ?? [])].map((p) => p.path))];
  const out = { paths, env: w.servers?.env ?? [] };
  return out.paths.length + out.env.length > 0 ? out : undefined;
}

/** A socket inode no process listens on: opening a file it covers fails (ENXIO), for root too. */
export const placeholderFile = (paths: Pick<Paths, "guard">) => join(paths.guard, "hidden.sock");

/** The plan as the applier reads it: one fact a line; a path with a line break in it is never granted. */
function planText(
  plan: LandlockPlan,
  stamps: ReadonlyMap<string, Stamp>,
  arch: Arch,
  exempt: readonly string[],
  hide?: Hidden,
  placeholder?: string,
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
    `unshare ${arch.unshare}`,
    `mount ${arch.mount}`,
  ];
  for (const dir of plan.listed.filter(one)) {
    const s = stamps.get(dir);
    if (s) lines.push(`list ${s.count} ${s.sum} ${dir}`);
  }
  for (const r of plan.paths.filter((p) => one(p.path))) lines.push(`rule ${r.access} ${r.listed ? 1 : 0} ${r.path}`);
  for (const p of plan.ports) lines.push(`port ${p.access} ${p.port}`);
  for (const e of exempt.filter(one)) lines.push(`exempt ${e}`);
  for (const h of (hide?.paths ?? []).filter(one)) lines.push(`hide ${h}`);
  for (const v of hide?.env ?? []) if (/^\w+$/.test(v)) lines.push(`hideenv ${v}`);
  if (hide && placeholder && one(placeholder)) lines.push(`placeholder ${placeholder}`);
  lines.push("end");
  return `${lines.join("\n")}\n`;
}

/** Plan the machine's agent wall on the disk as it is now, and write the plan the applier raises. */
export function writeAgentPlan(paths: Pick<Paths, "guard">, file: AgentWallFile, arch: Arch): LandlockPlan | undefined {
  if (file.kernel.kind !== "landlock") return undefined;
  const stamps = new Map<string, Stamp>();
  const plan = landlockPlan(file.wall, file.kernel.abi, stampingDisk(stamps));
  writeFileAtomic(
    agentPlanFile(paths),
    planText(plan, stamps, arch, file.exempt, hidden(file), placeholderFile(paths)),
  );
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

/** Folders a walk for named files never enters: what a build or a package manager made, and git's own. */
const UNWALKED = new Set([".git", "node_modules", "vendor", "target", "dist", "build", ".venv", "venv", "__pycache__"]);

/**
 * The files beneath a checkout that carry a name the rules deny reading (`.env`), a bounded walk. One git tracks is
 * left out: covering it would show git a changed file and fail a commit, and its content is in the history anyway.
 */
export function namedIn(root: string, globs: readonly { glob: string; why: string }[]): WallPath[] {
  const matchers = globs.map((g) => ({ matches: pathMatcher(`**/${g.glob}`), why: g.why }));
  const found: WallPath[] = [];
  let budget = 4000;
  const walk = (dir: string, depth: number) => {
    let entries: Dirent[] = [];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const e of entries) {
      if (--budget < 0) return;
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (depth < 4 && !UNWALKED.has(e.name)) walk(path, depth + 1);
        continue;
      }
      const hit = matchers.find((m) => m.matches(path));
      if (hit) found.push({ path: physical(path), why: hit.why });
    }
  };
  walk(root, 0);
  if (found.length === 0) return [];
  const git = spawnSync("git", ["-C", root, "ls-files", "-z", "--full-name", "--", ...found.map((f) => f.path)], {
    encoding: "utf8",
    timeout: 5000,
  });
  const top = spawnSync("git", ["-C", root, "rev-parse", "--show-toplevel"], { encoding: "utf8", timeout: 5000 });
  const base = top.status === 0 ? physical(top.stdout.trim()) : undefined;
  const tracked = new Set(
    git.status === 0 && base
      ? git.stdout
          .split("\0")
          .filter(Boolean)
          .map((n) => join(base, n))
      : [],
  );
  return found.filter((f) => !tracked.has(f.path));
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
  // The checkout's .env files the wall does not cover yet: covered from this session on.
  const names = file.wall.names;
  const named =
    names && file.kernel.namespaces
      ? namedIn(root, names.globs).filter((n) => !names.found.some((f) => f.path === n.path))
      : [];
  if (fresh.length === 0 && named.length === 0) return [];
  const next: AgentWallFile = {
    ...file,
    wall: {
      ...file.wall,
      unwritable: [
        ...file.wall.unwritable,
        ...fresh.map((path) => ({ path, why: "another repository (a checkout's local remote)" })),
      ],
      ...(names ? { names: { ...names, found: [...names.found, ...named] } } : {}),
    },
  };
  writeAgentWall(paths, next);
  if (arch) writeAgentPlan(paths, next, arch);
  return fresh;
}
