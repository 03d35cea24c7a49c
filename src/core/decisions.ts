// A recorded decision as the gate holds it, and the one deterministic test of whether an action touches it: term
// overlap, not embeddings, so the same action meets the same decisions and the reason says which word matched.
import type { Action } from "./action.ts";

/** Where memory keeps the binding decisions for the gate: beside its index, rewritten whenever a decision changes. */
export const DECISIONS_FILE = "memnox-decisions.json";
const DECISIONS_VERSION = 1;

export interface Decision {
  readonly slug: string;
  /** The decision in the team's words (its title, or the body's first sentence when that is where it is said). */
  readonly statement: string;
  /** The page that records it: what `why` names. */
  readonly file: string;
  /** The project it binds (`machine` binds everywhere). */
  readonly project_id: string;
  readonly valid_from: string | null;
  readonly valid_until: string | null;
  /** Its key terms, stemmed: what an action must share with it to be held to it. */
  readonly terms: readonly string[];
}

/** Words that say a statement constrains what may be done; a decision without one (a choice made) binds nothing. */
const BINDING = new Set([
  "not",
  "never",
  "no",
  "nobody",
  "dont",
  "doesnt",
  "mustnt",
  "cannot",
  "cant",
  "must",
  "only",
  "always",
  "forbidden",
  "prohibited",
  "banned",
  "requires",
  "required",
  "needs",
]);

/** Words that carry no subject: the constraint words themselves and prose glue. */
const GLUE = new Set([
  ...BINDING,
  ..."a an and any are as at be been being by can do does done for from has have in into is it its of on or our so that the their them they this those to us was we were will with without would should shall may".split(
    " ",
  ),
]);

/** Words an action's name carries that say nothing about what it touches. */
const GENERIC = new Set(["run", "unknown", "execute", "exec", "cmd", "shell", "command", "call", "mcp"]);

/** A light, deterministic stem: plural and verb endings off, a doubled last letter undone (logging, logged, logs). */
export function stem(word: string): string {
  let w = word.toLowerCase().replace(/'s$/, "");
  if (w.length > 5 && w.endsWith("ing")) w = w.slice(0, -3);
  else if (w.length > 4 && w.endsWith("ied")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && w.endsWith("ed")) w = w.slice(0, -2);
  else if (w.length > 4 && w.endsWith("ies")) w = `${w.slice(0, -3)}y`;
  else if (w.length > 4 && /(ss|x|ch|sh)es$/.test(w)) w = w.slice(0, -2);
  else if (w.length > 3 && w.endsWith("s") && !w.endsWith("ss")) w = w.slice(0, -1);
  if (w.length > 3 && /([b-df-hj-np-tv-z])\1$/.test(w)) w = w.slice(0, -1);
  return w;
}

function words(text: string): string[] {
  return (
    text
      .toLowerCase()
      .replace(/['’]/g, "")
      .match(/[a-z0-9]+/g) ?? []
  ).filter((w) => w.length >= 2);
}

/** Whether a statement constrains (says not, never, only, must…) rather than records a choice. */
export function isBinding(statement: string): boolean {
  return words(statement).some((w) => BINDING.has(w));
}

/** A statement's key terms, stemmed, unique, in order. */
export function decisionTerms(statement: string): string[] {
  return [
    ...new Set(
      words(statement)
        .filter((w) => !GLUE.has(w))
        .map(stem),
    ),
  ].filter((t) => t.length >= 2);
}

/** The words an action carries: its name's parts and its targets' (a path under `cwd` counted from there). */
export function actionTerms(action: Action, cwd: string): Set<string> {
  const out = new Set<string>();
  for (const part of action.name.split(/[.\-_/]+/)) if (part && !GENERIC.has(part)) out.add(stem(part));
  for (const target of action.targets) {
    const inside = target.startsWith(`${cwd}/`) ? target.slice(cwd.length + 1) : target;
    const tail = inside.startsWith("/") ? inside.split("/").slice(-3).join("/") : inside;
    for (const w of words(tail)) out.add(stem(w));
  }
  return out;
}

/** The terms of `decision` an action shares, when it is one that changes something (a read never contradicts). */
export function overlap(decision: Decision, action: Action, cwd: string): string[] {
  if (action.class === "read" || action.name === "shell.execute") return [];
  const have = actionTerms(action, cwd);
  return decision.terms.filter((t) => have.has(t));
}

/** The file's decisions, or none when it is not a file of this version: a broken snapshot binds nothing new. */
export function parseDecisions(text: string): Decision[] {
  let doc: unknown;
  try {
    doc = JSON.parse(text);
  } catch {
    return [];
  }
  const d = doc as { version?: unknown; decisions?: unknown } | null;
  if (!d || d.version !== DECISIONS_VERSION || !Array.isArray(d.decisions)) return [];
  const str = (v: unknown) => (typeof v === "string" ? v : null);
  return d.decisions.flatMap((x): Decision[] => {
    const o = x as Record<string, unknown> | null;
    const slug = str(o?.slug);
    const statement = str(o?.statement);
    const file = str(o?.file);
    const project = str(o?.project_id);
    const terms = Array.isArray(o?.terms) ? o.terms.filter((t): t is string => typeof t === "string") : [];
    if (!slug || !statement || !file || !project || terms.length === 0) return [];
    return [
      {
        slug,
        statement,
        file,
        project_id: project,
        valid_from: str(o?.valid_from),
        valid_until: str(o?.valid_until),
        terms,
      },
    ];
  });
}

export function renderDecisions(decisions: readonly Decision[], generatedAt: string): string {
  return `${JSON.stringify({ version: DECISIONS_VERSION, generated_at: generatedAt, decisions }, null, 2)}\n`;
}
