// `memnox collisions`: two agents in one file, and two agents building one thing (writing in the same directories
// within an hour of each other). Read from the ledger after the fact; reported, never refereed.
import { dirname } from "node:path";
import type { LedgerRow } from "../row.ts";
import { type Entry, joinEntries } from "./entries.ts";
import { clock } from "./format.ts";
import type { Window } from "./window.ts";

const WRITES = new Set(["filesystem.write", "filesystem.delete"]);
/** Two sessions writing the same directory this close together are building the same thing. */
const OVERLAP_MS = 60 * 60_000;

interface Writer {
  readonly agent: string;
  readonly session: string | null;
  readonly doing: "writing" | "deleting";
  readonly at: string;
  readonly eventId: string;
}

interface FileCollision {
  readonly path: string;
  readonly writers: readonly Writer[];
}

interface BuildCollision {
  readonly agents: readonly [string, string];
  readonly sessions: readonly [string | null, string | null];
  readonly since: string;
  /** The directories both wrote in, and the files in them either wrote. */
  readonly places: readonly string[];
}

interface Collisions {
  readonly range: { readonly since: string | null; readonly until: string | null };
  readonly files: readonly FileCollision[];
  readonly building: readonly BuildCollision[];
}

interface Write {
  readonly path: string;
  readonly who: string;
  readonly w: Writer;
}

/** A writer is a session (or, without one, an agent): two sessions of one product are two agents at work. */
function whoOf(r: LedgerRow): string {
  return `${r.agent ?? "unknown"}\u0000${r.agentSessionId ?? ""}`;
}

/** Writes that ran: decided and let through (or answered yes), never one that was refused or is still held. */
function writes(entries: readonly Entry[]): Write[] {
  const out: Write[] = [];
  for (const e of entries) {
    const r = e.row;
    if (r.kind !== "decision" || !WRITES.has(r.operation)) continue;
    if (e.final !== "proceeded" && e.final !== "failed") continue;
    for (const path of r.request?.targets ?? []) {
      out.push({
        path,
        who: whoOf(r),
        w: {
          agent: r.agent ?? "unknown",
          session: r.agentSessionId ?? null,
          doing: r.operation === "filesystem.delete" ? "deleting" : "writing",
          at: r.occurredAt,
          eventId: r.id,
        },
      });
    }
  }
  return out;
}

function fileCollisions(all: readonly Write[]): FileCollision[] {
  const byPath = new Map<string, Map<string, Writer>>();
  for (const x of all) {
    const m = byPath.get(x.path) ?? new Map<string, Writer>();
    // Each writer once, at its first write to the file.
    if (!m.has(x.who)) m.set(x.who, x.w);
    byPath.set(x.path, m);
  }
  return [...byPath.entries()]
    .filter(([, m]) => m.size > 1)
    .map(([path, m]) => ({ path, writers: [...m.values()].sort((a, b) => (a.at < b.at ? -1 : 1)) }))
    .sort((a, b) => ((a.writers[0]?.at ?? "") < (b.writers[0]?.at ?? "") ? -1 : 1));
}

function buildingTogether(all: readonly Write[]): BuildCollision[] {
  const dirs = new Map<string, Write[]>();
  for (const x of all) dirs.set(dirname(x.path), [...(dirs.get(dirname(x.path)) ?? []), x]);
  const pairs = new Map<string, { a: Writer; b: Writer; since: string; places: Set<string> }>();
  for (const [dir, list] of dirs) {
    for (const x of list)
      for (const y of list) {
        if (x.who >= y.who || Math.abs(Date.parse(x.w.at) - Date.parse(y.w.at)) > OVERLAP_MS) continue;
        const key = `${x.who}\u0001${y.who}`;
        const since = [x.w.at, y.w.at].sort()[0] ?? x.w.at;
        const p = pairs.get(key) ?? { a: x.w, b: y.w, since, places: new Set<string>() };
        if (since < p.since) p.since = since;
        p.places.add(dir);
        p.places.add(x.path);
        p.places.add(y.path);
        pairs.set(key, p);
      }
  }
  return [...pairs.values()]
    .map((p) => ({
      agents: [p.a.agent, p.b.agent] as const,
      sessions: [p.a.session, p.b.session] as const,
      since: p.since,
      places: [...p.places].sort(),
    }))
    .sort((a, b) => (a.since < b.since ? -1 : 1));
}

export function buildCollisions(rows: readonly LedgerRow[], children: readonly LedgerRow[], w: Window): Collisions {
  const all = writes(joinEntries(rows, children));
  return {
    range: { since: w.since ?? null, until: w.until ?? null },
    files: fileCollisions(all),
    building: buildingTogether(all),
  };
}

function named(agent: string, session: string | null, twin: boolean): string {
  return twin && session ? `${agent} (${session})` : agent;
}

export function renderCollisions(c: Collisions): string[] {
  if (c.files.length === 0 && c.building.length === 0)
    return [`no two agents wrote in one file or one place${c.range.since ? ` since ${clock(c.range.since)}` : ""}`];
  const out: string[] = [];
  if (c.files.length > 0) {
    out.push("TWO AGENTS IN ONE FILE");
    for (const f of c.files) {
      const twin = new Set(f.writers.map((w) => w.agent)).size < f.writers.length;
      out.push(`! ${f.path}`);
      for (const w of f.writers) out.push(`  ${named(w.agent, w.session, twin).padEnd(24)} ${w.doing} ${w.at}`);
    }
  }
  if (c.building.length > 0) {
    out.push("TWO AGENTS BUILDING ONE THING");
    for (const b of c.building) {
      const twin = b.agents[0] === b.agents[1];
      const [a, z] = [named(b.agents[0], b.sessions[0], twin), named(b.agents[1], b.sessions[1], twin)];
      out.push(`! ${a} and ${z} since ${b.since}`, `  ${b.places.join(", ")}`);
    }
  }
  out.push("Reported, not refereed — which one should stop is your call.");
  return out;
}
