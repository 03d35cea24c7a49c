// kept.json (written by setup) says what the daemon keeps in place: the agents hooked, the ones a person took out on
// purpose, whether MCP servers installed later are wrapped, and whether the session server stays in. Absent on a
// machine setup never reached, and then left absent: only setup creates it.
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../io/files.ts";

const WRAP_NEW_SERVERS = "wrapNewMcpServers";

export type KeptUpdate = "updated" | "absent";

export interface Kept {
  readonly version: 1;
  /** When setup last ran. */
  readonly setupAt: string;
  /** Agents whose hook memnox keeps in place. */
  readonly hooked: readonly string[];
  /** Agents a person took the hook out of on purpose: nothing puts it back. */
  readonly takenOut: readonly string[];
  readonly wrapNewMcpServers: boolean;
  /** False once a person took the session server out (`mcp session off`). */
  readonly sessionServer: boolean;
}

type Raw = Record<string, unknown>;

function strings(v: unknown): string[] {
  return Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : [];
}

function readRaw(file: string): Raw | undefined {
  const raw = readJsonIfExists(file);
  if (raw === undefined) return undefined;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    throw new MemnoxError("config_invalid", `\`${file}\` is not a JSON object`, "run `memnox setup` again");
  }
  return raw as Raw;
}

function typed(raw: Raw): Kept {
  return {
    version: 1,
    setupAt: typeof raw.setupAt === "string" ? raw.setupAt : "",
    hooked: strings(raw.hooked),
    takenOut: strings(raw.takenOut),
    wrapNewMcpServers: raw[WRAP_NEW_SERVERS] !== false,
    sessionServer: raw.sessionServer !== false,
  };
}

/** Whether `memnox setup` has run here (kept.json can exist before it: `mcp session off` records a choice in it). */
export function setupRan(file: string): boolean {
  try {
    return (readKept(file)?.setupAt ?? "") !== "";
  } catch {
    return true;
  }
}

/** What kept.json says, or undefined before setup. */
export function readKept(file: string): Kept | undefined {
  const raw = readRaw(file);
  return raw ? typed(raw) : undefined;
}

/** Changes kept.json where setup made one (keys it does not know are kept); "absent" before setup. */
export function updateKept(file: string, change: (k: Kept) => Partial<Kept>): KeptUpdate {
  return withLock(file, () => {
    const raw = readRaw(file);
    if (raw === undefined) return "absent";
    writeJsonAtomic(file, { ...raw, ...change(typed(raw)) });
    return "updated";
  });
}

/** Setup's write: creates kept.json or merges into it. */
export function writeKept(file: string, change: (k: Kept | undefined) => Partial<Kept>): Kept {
  return withLock(file, () => {
    const raw = readRaw(file);
    const next = { version: 1, ...raw, ...change(raw ? typed(raw) : undefined) };
    writeJsonAtomic(file, next);
    return typed(next);
  });
}

export function setWrapNewServers(keptFile: string, on: boolean): KeptUpdate {
  return updateKept(keptFile, () => ({ wrapNewMcpServers: on }));
}

/** `list` with `item` added or taken away, order kept. */
export function toggled(list: readonly string[], item: string, present: boolean): string[] {
  const rest = list.filter((x) => x !== item);
  return present ? [...rest, item] : rest;
}
