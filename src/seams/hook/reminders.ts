// A decision already taken, said again where the agent meets it: at a prompt that names it, or beside a call a rule
// let through. Pure; the once-per-session and two-per-turn budget is kept in notice.ts.
import { effectRank } from "../../core/effect.ts";
import type { RuleSummary } from "../../gate/types.ts";

export interface Reminder {
  /** Said once per session: the rule's name. */
  readonly key: string;
  readonly text: string;
}

const WILD = new Set(["*", "**", "/**", "**/*", "*.*"]);
/** Namespaces that are not a command a prompt would spell out. */
const NOT_SPOKEN = new Set(["filesystem", "http", "mcp", "shell", "memnox", "egress"]);

/** A rule that matches every action decides nothing in particular and is never said. */
export function matchesEverything(r: RuleSummary): boolean {
  const allActions = r.actions.length === 0 || r.actions.every((a) => WILD.has(a));
  const allTargets = r.targets.length === 0 || r.targets.every((t) => WILD.has(t));
  return allActions && allTargets;
}

/** The literal a prompt would name for a target pattern: `**\/.env` -> `.env`, `*main*` -> `main`. */
export function targetLiteral(pattern: string): string | undefined {
  const parts = pattern
    .split("/")
    .map((s) => s.replace(/\[[^\]]*\]|\{[^}]*\}|[*?]/g, ""))
    .filter((s) => s.length >= 2 && /[A-Za-z0-9]/.test(s));
  return parts.at(-1);
}

/** The words a prompt would spell for an action: `git.push-force` -> `git push`. */
export function actionPhrase(pattern: string): string | undefined {
  const m = /^([a-z0-9][a-z0-9-]*)\.([a-z0-9]+)/i.exec(pattern);
  if (!m?.[1] || !m[2] || NOT_SPOKEN.has(m[1])) return undefined;
  return `${m[1]} ${m[2]}`;
}

function mentions(text: string, phrase: string): boolean {
  const body = phrase
    .split(/\s+/)
    .map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"))
    .join("\\s+");
  return new RegExp(`(?<![A-Za-z0-9_])${body}(?![A-Za-z0-9_])`, "i").test(text);
}

/** What the rule is about, in the words a person would use. */
export function subjectOf(r: RuleSummary): string {
  for (const t of r.targets) {
    const lit = targetLiteral(t);
    if (lit) return lit;
  }
  for (const a of r.actions) {
    const phrase = actionPhrase(a);
    if (phrase) return phrase;
  }
  return r.actions[0] ?? r.name;
}

const EFFECT_WORDS = { deny: "it is never run", ask: "a person is asked first", allow: "it is allowed" } as const;

function where(r: RuleSummary): string {
  if (r.source === "team") return "your team's published rules";
  if (r.source === "repository") return "this repository's rules";
  return r.decidedOn ? `decided on this machine on ${r.decidedOn}` : "decided on this machine";
}

export function reminderText(subject: string, r: RuleSummary): string {
  const reason = r.reason.replace(/[.\s]+$/, "");
  const because = reason ? `, because ${reason}` : "";
  return `A previous decision covers ${subject}: ${EFFECT_WORDS[r.effect]}${because} (${where(r)}).`;
}

function sayable(r: RuleSummary): boolean {
  return !r.observeOnly && !matchesEverything(r);
}

/** Every rule the prompt names by a path or an action it covers, strictest first. */
export function promptReminders(prompt: string, rules: readonly RuleSummary[]): Reminder[] {
  const out: Reminder[] = [];
  const ordered = rules.filter(sayable).sort((a, b) => effectRank(b.effect) - effectRank(a.effect));
  for (const r of ordered) {
    const phrases = [...r.targets.map(targetLiteral), ...r.actions.map(actionPhrase)];
    const hit = phrases.find((p): p is string => p !== undefined && mentions(prompt, p));
    if (hit) out.push({ key: r.name, text: reminderText(hit, r) });
  }
  return out;
}

/** Beside an allowed call, a rule this broad (a baseline's list of every read) says nothing about this call. */
const SPECIFIC = 12;

/** The decision behind the rule that let a call through, when there is one worth saying, named by the call's action. */
export function callReminder(ruleName: string, rules: readonly RuleSummary[], action?: string): Reminder | undefined {
  const r = rules.find((x) => x.name === ruleName);
  if (!r || !sayable(r) || r.actions.length + r.targets.length > SPECIFIC) return undefined;
  const subject = (action ? actionPhrase(action) : undefined) ?? subjectOf(r);
  return { key: r.name, text: reminderText(subject, r) };
}
