// A wall as a Landlock ruleset. Landlock only allows (a rule grants rights to a path and everything beneath it), so
// "everything but ~/.ssh" is granted as every sibling along the way down to ~/.ssh, and a right that belongs to a
// directory (making or removing its entries) cannot be granted above something that must stay unwritable. Pure:
// the directories on the way down are listed by the caller, at the moment the wall goes up.
import {
  FILE_RIGHTS,
  FS,
  fsRightsOf,
  NET,
  netRightsOf,
  READ,
  SCOPE,
  scopesOf,
  WRITE,
  WRITE_DIR_LEVEL,
  WRITE_FILE_LEVEL,
} from "./abi.ts";
import { beneath, TERMINALS, type Wall, type WallPath } from "./description.ts";

interface Entry {
  readonly path: string;
  readonly dir: boolean;
}

/** The disk as the planner sees it, read by the caller at the moment the wall goes up. */
export interface Disk {
  /** The entries of a directory (symlinks left out: a rule on one would land on its target). */
  list(dir: string): readonly Entry[];
  /** Whether a path is a directory, another file, or not there (no rule is needed for what is not there). */
  kind(path: string): "dir" | "file" | undefined;
}

interface PathRule {
  readonly path: string;
  readonly access: number;
  /** Found by listing a directory, so opened without following a link that appeared since. */
  readonly listed?: true;
}

export interface LandlockPlan {
  readonly abi: number;
  readonly handledFs: number;
  readonly handledNet: number;
  readonly scoped: number;
  readonly paths: readonly PathRule[];
  readonly ports: readonly { readonly port: number; readonly access: number }[];
  /** Directories that lost the right to make or remove entries directly in them, and why. */
  readonly costs: readonly { readonly path: string; readonly because: string }[];
  /** The directories whose entries were listed: an entry made in one since is not in this plan. */
  readonly listed: readonly string[];
}

interface Carve {
  readonly path: string;
  readonly rights: number;
  readonly why: string;
}

interface Placing {
  readonly disk: Disk;
  readonly listed: Set<string>;
  readonly rules: Map<string, { access: number; listed: boolean }>;
  readonly costs: Map<string, string>;
  readonly mask: number;
}

function emit(p: Placing, path: string, access: number, dir: boolean, listed: boolean): void {
  const a = access & p.mask & (dir ? ~0 : FILE_RIGHTS);
  if (a === 0) return;
  const had = p.rules.get(path);
  p.rules.set(path, { access: (had?.access ?? 0) | a, listed: (had?.listed ?? true) && listed });
}

/** Grant `rights` on `path`'s hierarchy, except what the carves beneath it withhold. */
function place(p: Placing, path: string, dir: boolean, rights: number, carves: readonly Carve[], listed: boolean) {
  let r = rights;
  for (const c of carves) if (c.path === path) r &= ~c.rights;
  if (r === 0) return;
  const below = carves.filter((c) => c.path !== path && beneath(c.path, path) && (c.rights & r) !== 0);
  if (below.length === 0 || !dir) {
    emit(p, path, r, dir, listed);
    return;
  }
  const withheld = below.reduce((a, c) => a | c.rights, 0) & r;
  emit(p, path, r & ~withheld, dir, listed);
  const lost = withheld & WRITE_DIR_LEVEL & p.mask;
  if (lost !== 0 && !p.costs.has(path)) p.costs.set(path, below.find((c) => c.rights & lost)?.why ?? "");
  p.listed.add(path);
  for (const child of p.disk.list(path)) place(p, child.path, child.dir, withheld, below, true);
}

/** The ruleset for `wall` on a kernel of `abi`: what is not handled there is not held, and the screen says so. */
export function landlockPlan(wall: Wall, abi: number, disk: Disk): LandlockPlan {
  const fsKnown = fsRightsOf(abi);
  const walledWrites = wall.writable !== undefined;
  const handledFs =
    fsKnown & (walledWrites ? READ | FS.READ_DIR | WRITE | FS.MAKE_CHAR | FS.MAKE_BLOCK | FS.IOCTL_DEV : READ);
  const p: Placing = { disk, listed: new Set(), rules: new Map(), costs: new Map(), mask: handledFs };
  const carve = (paths: readonly WallPath[], rights: number): Carve[] =>
    paths.map((w) => ({ path: w.path, rights, why: w.why }));
  // Reading: every directory may be listed; the bytes of everything but the unreadable may be read and run.
  emit(p, "/", FS.READ_DIR, true, false);
  place(p, "/", true, READ, carve(wall.unreadable, READ), false);
  if (walledWrites) {
    const kept = carve(wall.unwritable, WRITE);
    const grant = (path: string, rights: number) => {
      const kind = disk.kind(path);
      if (kind) place(p, path, kind === "dir", rights, kept, false);
    };
    for (const w of wall.writable ?? []) grant(w.path, WRITE);
    for (const d of wall.devices ?? []) grant(d, WRITE_FILE_LEVEL | (TERMINALS.includes(d) ? FS.IOCTL_DEV : 0));
  }
  const handledNet = wall.tcp ? netRightsOf(abi) & NET.CONNECT_TCP : 0;
  return {
    abi,
    handledFs,
    handledNet,
    scoped: wall.scoped ? scopesOf(abi) : wall.scopedSockets ? scopesOf(abi) & SCOPE.ABSTRACT_UNIX_SOCKET : 0,
    paths: [...p.rules].map(([path, r]) => ({
      path,
      access: r.access,
      ...(r.listed ? { listed: true as const } : {}),
    })),
    ports: handledNet ? (wall.tcp?.connect ?? []).map((port) => ({ port, access: NET.CONNECT_TCP })) : [],
    costs: [...p.costs].map(([path, because]) => ({ path, because })),
    listed: [...p.listed].sort(),
  };
}
