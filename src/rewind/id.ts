// Milestone ids: sortable by time, short enough to type, never derived from anything secret.
export function milestoneId(nowMs: number, random: Uint8Array): string {
  const hex = [...random.slice(0, 2)].map((b) => b.toString(16).padStart(2, "0")).join("");
  return `mst_${Math.max(0, Math.floor(nowMs)).toString(36)}${hex.padEnd(4, "0")}`;
}

/** A milestone id generator on a clock, with the platform's random source. */
export function idGenerator(now: () => number): () => string {
  return () => milestoneId(now(), crypto.getRandomValues(new Uint8Array(2)));
}
