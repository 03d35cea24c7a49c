// Granted and never used: the allow rules in force and the grants given that no decision in the window was let
// through by. Standing permission nothing exercises is reach nobody would miss (29-operate-coverage).
import type { Entry } from "./entries.ts";
import type { Window } from "./window.ts";

interface AllowRule {
  readonly name: string;
  readonly file: string;
}

interface GrantGiven {
  readonly kind: string;
  readonly subject: string;
  readonly setAt: string;
  readonly expiresAt: string;
  readonly liftedAt?: string;
  readonly by?: string;
  readonly reason?: string;
}

interface GrantedUnused {
  readonly rules: readonly AllowRule[];
  readonly grants: readonly { scope: string; setAt: string; until: string; by: string | null; reason: string | null }[];
  /** How many allow rules and grants were in force, beside how many of them nothing used. */
  readonly of: { readonly rules: number; readonly grants: number };
}

/** Which allow rules and grants a decision that proceeded in `entries` named as what let it through. */
export function grantedUnused(
  entries: readonly Entry[],
  rules: readonly AllowRule[],
  grants: readonly GrantGiven[],
  w: Window,
): GrantedUnused {
  const through = entries.filter((e) => e.row.kind === "decision" && e.row.effect === "allow");
  const usedRules = new Set(through.map((e) => `${e.row.ruleId ?? ""}\u0000${e.row.ruleFile ?? ""}`));
  const usedFacts = through.filter((e) => e.row.detail?.source === "grant");
  const inWindow = grants.filter(
    (g) =>
      g.kind === "grant" && (!w.since || (g.liftedAt ?? g.expiresAt) >= w.since) && (!w.until || g.setAt < w.until),
  );
  const unusedGrants = inWindow.filter((g) => {
    const end = g.liftedAt ?? g.expiresAt;
    return !usedFacts.some(
      (e) => e.row.detail?.fact === `grant:${g.subject}` && e.row.occurredAt >= g.setAt && e.row.occurredAt <= end,
    );
  });
  return {
    rules: rules.filter((r) => !usedRules.has(`${r.name}\u0000${r.file}`)),
    grants: unusedGrants.map((g) => ({
      scope: g.subject,
      setAt: g.setAt,
      until: g.liftedAt ?? g.expiresAt,
      by: g.by ?? null,
      reason: g.reason ?? null,
    })),
    of: { rules: rules.length, grants: inWindow.length },
  };
}

export function renderUnused(u: GrantedUnused): string[] {
  const lines = [
    "",
    `granted and never used: ${u.rules.length} of ${u.of.rules} allow rule(s), ${u.grants.length} of ${u.of.grants} grant(s) let nothing through in this window`,
  ];
  for (const r of u.rules) lines.push(`  rule  ${r.name} (${r.file})`);
  for (const g of u.grants)
    lines.push(`  grant ${g.scope} (${g.setAt} to ${g.until}${g.reason ? `: ${g.reason}` : ""})`);
  return lines;
}
