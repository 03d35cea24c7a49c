// An approved decision as rules in the bundle: term overlap against action names and targets, written as the
// engine's own patterns, so a machine holds agents to it with the rules it already evaluates and `why` names it.
// Deterministic and tighten-only: the rules ask or deny, never allow, and never match a read.
import { decisionTerms, stem } from "../../core/decisions.ts";

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
}

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

/** Slash-free patterns over targets: a path segment or whole value that is one of `words`, or a file of that type. */
function targetPatterns(words: readonly string[]): string[] {
  return [...new Set(words.flatMap((w) => [w, `*.${w}`, `${w}.*`]))].sort();
}

/** The terms a decision binds by: the ones recorded on it, else its statement's. */
export function termsOf(d: Pick<CompilableDecision, "terms" | "statement">): string[] {
  return d.terms.length > 0 ? [...d.terms] : decisionTerms(d.statement);
}

function reasonOf(d: CompilableDecision): string {
  if (!d.quoted) return `a confidential decision of the team applies (${d.id}, approved by ${d.approvedBy}); ask them`;
  return `the team decided: "${d.statement}" (approved by ${d.approvedBy}; ${d.sourceRef})`;
}

/** The rules one decision compiles to: one over action names, one over targets, both named after the decision. */
export function decisionRules(d: CompilableDecision): Record<string, unknown>[] {
  const words = termsOf(d).flatMap(spellings);
  if (words.length === 0) return [];
  const key = d.nodeId.replace(/^decision:/, "");
  const decision = { effect: d.effect, reason: reasonOf(d) };
  const description = `compiled from decision ${d.id} (${d.nodeId})`;
  return [
    {
      name: `decision-${key}-names`,
      description,
      match: { actions: namePatterns(words), classes: [...CHANGING] },
      decision,
    },
    {
      name: `decision-${key}-targets`,
      description,
      match: { targets: targetPatterns(words), classes: [...CHANGING] },
      decision,
    },
  ];
}

/**
 * The published rule document's JSON with every decision in force appended as rules. A published rule set keeps
 * every rule it had (decisions only add); with nothing published the document holds the decisions alone.
 */
export function withDecisions(rulesJson: string, decisions: readonly CompilableDecision[]): string {
  if (decisions.length === 0) return rulesJson;
  const doc = (rulesJson.trim() === "" ? { version: 1 } : JSON.parse(rulesJson)) as Record<string, unknown>;
  const policies = Array.isArray(doc.policies) ? doc.policies : [];
  const added = decisions.flatMap(decisionRules);
  return `${JSON.stringify({ ...doc, policies: [...policies, ...added] }, null, 2)}\n`;
}
