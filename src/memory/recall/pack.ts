// Token budgets: a deterministic estimate, and packing that keeps the top hit whole and skips what does not fit.
export const DEFAULT_MAX_TOKENS = 4096;

export function estimateTokens(text: string): number {
  return Math.floor(text.length / 4) + 1;
}

interface Packed<T> {
  readonly kept: T[];
  readonly skipped: T[];
  readonly used: number;
}

export function packToBudget<T>(items: readonly T[], cost: (item: T) => number, maxTokens: number): Packed<T> {
  const kept: T[] = [];
  const skipped: T[] = [];
  let used = 0;
  for (const item of items) {
    const c = cost(item);
    if (kept.length > 0 && used + c > maxTokens) {
      skipped.push(item);
      continue;
    }
    kept.push(item);
    used += c;
  }
  return { kept, skipped, used };
}
