// The three effects and the modes that decide whether they bite.
export const EFFECTS = ["allow", "ask", "deny"] as const;
export type Effect = (typeof EFFECTS)[number];

export const MODES = ["off", "observe", "advise", "enforce"] as const;
export type Mode = (typeof MODES)[number];

const RANK: Record<Effect, number> = { allow: 0, ask: 1, deny: 2 };

/** deny > ask > allow */
export function stricter(a: Effect, b: Effect): Effect {
  return RANK[a] >= RANK[b] ? a : b;
}

export function effectRank(e: Effect): number {
  return RANK[e];
}

export function isEffect(v: unknown): v is Effect {
  return typeof v === "string" && (EFFECTS as readonly string[]).includes(v);
}

export function isMode(v: unknown): v is Mode {
  return typeof v === "string" && (MODES as readonly string[]).includes(v);
}
