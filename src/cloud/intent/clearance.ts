// Need to know: four levels, a reader's clearance (a ceiling, the audiences that admit them, whether they are a person),
// an agent's clearance narrowed to its principal's on both axes, and the one filter every answer goes through, which
// counts what it held back. Pure: the facts and the reader arrive as arguments.

export const LEVELS = ["public", "internal", "confidential", "restricted"] as const;
export type Level = (typeof LEVELS)[number];

export function isLevel(v: unknown): v is Level {
  return typeof v === "string" && (LEVELS as readonly string[]).includes(v);
}

export function levelRank(l: Level | null | undefined): number {
  // A fact classified before classification existed reads as internal, never as hidden.
  return LEVELS.indexOf(l ?? "internal");
}

/** The stronger of two levels. */
export function stronger(a: Level, b: Level): Level {
  return levelRank(a) >= levelRank(b) ? a : b;
}

export interface Reader {
  /** The highest level the reader's ceiling admits; `none` reads nothing at all. */
  readonly ceiling: Level | "none";
  /** Audiences that admit the reader to a confidential or restricted fact named for them. */
  readonly audiences: readonly string[];
  /** Restricted facts reach people only, never a machine or an agent. */
  readonly person: boolean;
}

export interface Classified {
  readonly classification: Level | null;
  readonly audiences: readonly string[];
}

const NOBODY: Reader = { ceiling: "none", audiences: [], person: false };

/** What a member reads by default: an admin reaches confidential, everybody else internal; restricted is granted. */
export function defaultCeiling(role: string): Level {
  return role === "admin" ? "confidential" : "internal";
}

function ceilingRank(r: Reader): number {
  return r.ceiling === "none" ? -1 : levelRank(r.ceiling);
}

function shares(a: readonly string[], b: readonly string[]): boolean {
  return a.some((x) => b.includes(x));
}

/**
 * Whether `reader` may see `fact`. Public and internal: the ceiling. Confidential: its named audience, plus whoever
 * the ceiling admits. Restricted: people only, and of them its named audience, or org-wide access (a restricted ceiling)
 * when it names none.
 */
export function canRead(reader: Reader, fact: Classified): boolean {
  if (reader.ceiling === "none") return false;
  const level = fact.classification ?? "internal";
  if (level === "restricted") {
    if (!reader.person) return false;
    return fact.audiences.length > 0 ? shares(reader.audiences, fact.audiences) : reader.ceiling === "restricted";
  }
  if (level === "confidential")
    return ceilingRank(reader) >= levelRank("confidential") || shares(reader.audiences, fact.audiences);
  return ceilingRank(reader) >= levelRank(level);
}

/** What `reader` may see of `facts`, and how many bearing facts it was not entitled to: every answer carries both. */
export function filtered<T extends Classified>(reader: Reader, facts: readonly T[]): { shown: T[]; withheld: number } {
  const shown = facts.filter((f) => canRead(reader, f));
  return { shown, withheld: facts.length - shown.length };
}

interface Grant {
  readonly ceiling: Level;
  readonly audiences: readonly string[];
}

/**
 * An agent's effective clearance: the weaker of its own grant and its principal's on both axes (the lower ceiling,
 * only the audiences both are in), never a person's. A principal who is no longer a member narrows it to nothing; an
 * agent with no principal named reads by its grant alone.
 */
export function agentReader(grant: Grant, principal: Reader | "gone" | undefined): Reader {
  if (principal === "gone") return NOBODY;
  const own: Reader = { ceiling: cap(grant.ceiling), audiences: grant.audiences, person: false };
  if (principal === undefined) return own;
  const ceiling =
    principal.ceiling === "none"
      ? "none"
      : levelRank(own.ceiling as Level) <= levelRank(principal.ceiling)
        ? own.ceiling
        : principal.ceiling;
  return {
    ceiling: ceiling === "none" ? "none" : cap(ceiling),
    audiences: own.audiences.filter((a) => principal.audiences.includes(a)),
    person: false,
  };
}

/** Restricted never reaches a machine: whatever a grant says, an agent's ceiling stops at confidential. */
function cap(l: Level): Level {
  return levelRank(l) > levelRank("confidential") ? "confidential" : l;
}

/** What a suggestion drawn from `evidence` is: its strongest level, and every audience named at that level. */
export function inherited(evidence: readonly Classified[]): { classification: Level; audiences: string[] } {
  let level: Level = "public";
  for (const e of evidence) level = stronger(level, e.classification ?? "internal");
  const audiences = new Set<string>();
  for (const e of evidence)
    if ((e.classification ?? "internal") === level) for (const a of e.audiences) audiences.add(a);
  return { classification: level, audiences: [...audiences].sort() };
}

/** The weaker of two readers on both axes: what an answer given to one on behalf of the other may hold. */
export function narrower(a: Reader, b: Reader): Reader {
  const ceiling =
    a.ceiling === "none" || b.ceiling === "none"
      ? "none"
      : levelRank(a.ceiling) <= levelRank(b.ceiling)
        ? a.ceiling
        : b.ceiling;
  return { ceiling, audiences: a.audiences.filter((x) => b.audiences.includes(x)), person: a.person && b.person };
}
