// An approved decision as rules in the bundle, written as the engine's own patterns so a machine holds agents to it
// with the rules it already evaluates and `why` names it. Deterministic and tighten-only: the rules ask or deny, never
// allow, and never match a read. An action is held to a decision only when it carries every term the decision binds
// by (at most three, chosen by its reviewer): "we do not log PII" stops a write of `logs/pii.csv`, never one of
// `logs/x.txt`. The rules a reviewer was shown are the rules published: an approval carries their hash (matchHash).
import { decisionTerms, stem } from "../../core/decisions.ts";
import { sha256Hex } from "../../io/hash.ts";

export interface CompilableDecision {
  readonly id: string;
  readonly nodeId: string;
  readonly statement: string;
  readonly terms: readonly string[];
  readonly effect: "ask" | "deny";
  readonly approvedBy: string;
  readonly sourceRef: string;
  /** Whether its words may be quoted to whoever is refused: a confidential decision binds without being read out. */
  readonly quoted: boolean;
  /** The terms its reviewer chose to bind machines by; absent for one approved before terms were chosen. */
  readonly boundTerms?: readonly string[] | null;
}

/** The most terms one decision binds by: every one of them must be on the action. */
export const MAX_BOUND_TERMS = 3;

/** Everything but a read: a read never contradicts what the team decided. */
const CHANGING = ["write", "destructive", "communication", "unknown"] as const;

/** The words that stem to `term`, from the endings the gate's stemmer takes off: what a name or target may spell. */
export function spellings(term: string): string[] {
  const last = term.slice(-1);
  const base = term.endsWith("y") ? term.slice(0, -1) : term;
  const candidates = [
    term,
    `${term}s`,
    `${term}es`,
    `${term}ed`,
    `${term}ing`,
    `${term}${last}ed`,
    `${term}${last}ing`,
    `${term}${last}s`,
    `${base}ies`,
    `${base}ied`,
  ];
  return [...new Set(candidates.filter((w) => stem(w) === term))].sort();
}

/** Patterns over an action's name that match exactly when one of its parts is one of `words`. */
function namePatterns(words: readonly string[]): string[] {
  const seps = [".", "-", "_"];
  const out = new Set<string>();
  for (const w of words) {
    out.add(w);
    for (const s of seps) {
      out.add(`${w}${s}*`);
      out.add(`*${s}${w}`);
      for (const t of seps) out.add(`*${s}${w}${t}*`);
    }
  }
  return [...out].sort();
}

/** Slash-free patterns: a path segment, a file name or a host holding one of `words` as a word of its own. */
function wordPatterns(words: readonly string[]): string[] {
  const out = new Set<string>();
  for (const w of words)
    for (const before of ["", "*-", "*_", "*."])
      for (const after of ["", "-*", "_*", ".*"]) out.add(`${before}${w}${after}`);
  return [...out].sort();
}

/** One path segment holding each term's word in this order, each a word of its own (minimatch's extglobs). */
function segment(terms: readonly string[]): string {
  const word = (t: string) => `@(${spellings(t).join("|")})`;
  return `?(*[._-])${terms.map(word).join("[._-]?(*[._-])")}?([._-]*)`;
}

function permutations<T>(xs: readonly T[]): T[][] {
  if (xs.length <= 1) return [[...xs]];
  return xs.flatMap((x, i) => permutations([...xs.slice(0, i), ...xs.slice(i + 1)]).map((rest) => [x, ...rest]));
}

/** Every way to cut an ordered list into runs: each run shares one path segment, the runs are segments in order. */
function groupings<T>(xs: readonly T[]): T[][][] {
  if (xs.length <= 1) return [[[...xs]]];
  const [first, ...rest] = xs as [T, ...T[]];
  return groupings(rest).flatMap((g) => {
    const [head, ...tail] = g as [T[], ...T[][]];
    return [
      [[first], head, ...tail],
      [[first, ...head], ...tail],
    ];
  });
}

/** Targets holding every one of `terms`: one word for a single term, a path carrying all of them for several. */
function targetPatterns(terms: readonly string[]): string[] {
  if (terms.length === 1) return wordPatterns(spellings(terms[0] ?? ""));
  const out = new Set<string>();
  for (const order of permutations(terms))
    for (const runs of groupings(order)) out.add(`**/${runs.map((r) => segment(r)).join("/**/")}`);
  return [...out].sort();
}

/** The terms a decision binds by: the ones its reviewer chose, else its first terms (at most MAX_BOUND_TERMS). */
export function boundTermsOf(d: Pick<CompilableDecision, "terms" | "statement" | "boundTerms">): string[] {
  if (d.boundTerms) return [...d.boundTerms];
  const all = d.terms.length > 0 ? [...d.terms] : decisionTerms(d.statement);
  return all.slice(0, MAX_BOUND_TERMS);
}

function reasonOf(d: CompilableDecision): string {
  if (!d.quoted) return `a confidential decision of the team applies (${d.id}, approved by ${d.approvedBy}); ask them`;
  return `the team decided: "${d.statement}" (approved by ${d.approvedBy}; ${d.sourceRef})`;
}

type CompiledRule = Record<string, unknown> & {
  readonly name: string;
  readonly match: Record<string, unknown>;
  readonly decision: { readonly effect: "ask" | "deny"; readonly reason: string };
};

/**
 * The rules one decision compiles to. Each term may stand in the action's name (one of them at most) or its targets;
 * every term must stand somewhere, so there is a rule per choice of the name's term, or none. Named after the decision.
 */
export function decisionRules(d: CompilableDecision): CompiledRule[] {
  const terms = boundTermsOf(d).filter((t) => spellings(t).length > 0);
  if (terms.length === 0) return [];
  const key = d.nodeId.replace(/^decision:/, "");
  const decision = { effect: d.effect, reason: reasonOf(d) };
  const description = `compiled from decision ${d.id} (${d.nodeId}): every one of ${terms.join(", ")}`;
  const classes = [...CHANGING];
  const rules: CompiledRule[] = [];
  for (const inName of [undefined, ...terms]) {
    const rest = terms.filter((t) => t !== inName);
    const match: Record<string, unknown> = {
      ...(inName ? { actions: namePatterns(spellings(inName)) } : {}),
      ...(rest.length > 0 ? { targets: targetPatterns(rest) } : {}),
      classes,
    };
    rules.push({
      name: `decision-${key}-${inName ? `names-${inName}` : "targets"}`,
      description,
      match,
      decision,
    });
  }
  return rules;
}

/** What the rules match and do, without their names or words: the hash a reviewer approves and an approval checks. */
export function matchHash(rules: readonly CompiledRule[]): string {
  return sha256Hex(JSON.stringify(rules.map((r) => [r.match, r.decision.effect]))).slice(0, 32);
}

/** A decision's rules as its approver approved them (stored), else compiled from its terms. */
function rulesOfDecision(d: CompilableDecision & { readonly rulesJson?: string | null }): CompiledRule[] {
  if (d.rulesJson) {
    const stored = JSON.parse(d.rulesJson) as CompiledRule[];
    // The words in a reason follow the decision (its approver's name); what they match is what was approved.
    return stored.map((r) => ({ ...r, decision: { ...r.decision, reason: reasonOf(d) } }));
  }
  return decisionRules(d);
}

/**
 * The published rule document's JSON with every decision in force appended as rules. A published rule set keeps
 * every rule it had (decisions only add); with nothing published the document holds the decisions alone.
 */
export function withDecisions(
  rulesJson: string,
  decisions: readonly (CompilableDecision & { readonly rulesJson?: string | null })[],
): string {
  return withRules(rulesJson, decisions.flatMap(rulesOfDecision));
}

/** The rule document's JSON with `added` rules appended after its own (none: the text unchanged). */
export function withRules(rulesJson: string, added: readonly object[]): string {
  if (added.length === 0) return rulesJson;
  const doc = (rulesJson.trim() === "" ? { version: 1 } : JSON.parse(rulesJson)) as Record<string, unknown>;
  const policies = Array.isArray(doc.policies) ? doc.policies : [];
  return `${JSON.stringify({ ...doc, policies: [...policies, ...added] }, null, 2)}\n`;
}
