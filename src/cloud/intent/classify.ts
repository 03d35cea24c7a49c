// Classification on arrival: patterns over the event's own words, no model in the path. Each rule names a level, the
// audience it admits (if any) and its terms (words or phrases, matched whole and case-blind). The strongest matching
// level wins; nothing matching is internal, the default. Patterns over-classify, which is the direction to fail in.
import type { Level } from "./clearance.ts";
import { levelRank } from "./clearance.ts";

export interface SensitivityRule {
  readonly level: Level;
  readonly audience?: string;
  readonly terms: readonly string[];
}

/** What a workspace classifies by until an admin sets its own rules. */
export const DEFAULT_RULES: readonly SensitivityRule[] = [
  {
    level: "restricted",
    audience: "people",
    terms: ["salary", "salaries", "compensation", "payroll", "termination", "layoff", "layoffs", "disciplinary"],
  },
  {
    level: "restricted",
    terms: ["medical", "diagnosis", "social security number", "passport number", "board only", "acquisition talks"],
  },
  { level: "confidential", audience: "finance", terms: ["revenue", "margin", "margins", "forecast", "burn rate"] },
  { level: "confidential", audience: "legal", terms: ["lawsuit", "litigation", "legal hold", "nda", "settlement"] },
  {
    level: "confidential",
    terms: ["confidential", "unreleased", "vulnerability", "security incident", "customer list", "do not share"],
  },
  { level: "public", terms: ["press release", "publicly available", "public announcement", "published pricing"] },
];

function normalise(text: string): string {
  return ` ${text
    .toLowerCase()
    .replace(/['’]/g, "")
    .replace(/[^a-z0-9]+/g, " ")
    .trim()} `;
}

interface Classification {
  readonly level: Level;
  readonly audiences: readonly string[];
}

/**
 * The level of `text` under `rules`: the strongest level any rule's term appears at, with the audiences of every rule
 * matching at that level. A public rule only decides when nothing stronger than internal matched.
 */
export function classify(text: string, rules: readonly SensitivityRule[]): Classification {
  const words = normalise(text);
  const hits = rules.filter((r) => r.terms.some((t) => words.includes(normalise(t))));
  let level: Level = "internal";
  const strong = hits.filter((r) => r.level !== "public");
  for (const r of strong) if (levelRank(r.level) > levelRank(level)) level = r.level;
  if (strong.length === 0 && hits.some((r) => r.level === "public")) level = "public";
  const audiences = [...new Set(hits.filter((r) => r.level === level && r.audience).map((r) => r.audience as string))];
  return { level, audiences: audiences.sort() };
}
