// `memnox check 'deploy payments'`: a phrase read as every action it could mean. Its verbs are looked up in the verb
// tables (with the few words people use for the same act), its other words are what the actions act on, so a
// freeze on `payments` or a rule about a target meets them. Words, tables and nothing else: no model reads a phrase.
import type { Action } from "../../../core/action.ts";
import { actionPattern } from "../../../resolve/tables/match.ts";
import type { VerbTable } from "../../../resolve/types.ts";

/** The act a word names, and the verb-table words that do it. */
const ACTS: Readonly<Record<string, readonly string[]>> = {
  deploy: ["deploy", "up", "promote", "release", "rollout", "redeploy", "apply"],
  ship: ["deploy", "up", "promote", "release", "publish"],
  release: ["release", "publish", "promote"],
  publish: ["publish", "release"],
  merge: ["merge"],
  push: ["push"],
  delete: ["delete", "destroy", "drop", "remove", "rm", "purge", "truncate"],
  remove: ["delete", "destroy", "remove", "rm"],
  destroy: ["destroy", "delete", "drop"],
  drop: ["drop", "delete", "truncate"],
  migrate: ["migrate", "migration"],
  rollback: ["rollback", "undo"],
  restart: ["restart"],
  scale: ["scale"],
  test: ["test"],
  build: ["build"],
  install: ["install", "add"],
  comment: ["comment"],
  close: ["close"],
  create: ["create"],
};

/** Words that carry no act and name nothing. */
const FILLER = new Set([
  "the",
  "a",
  "an",
  "to",
  "of",
  "on",
  "in",
  "for",
  "and",
  "then",
  "our",
  "my",
  "this",
  "that",
  "it",
  "please",
  "service",
  "app",
  "now",
  "with",
  "from",
  "into",
  "all",
]);

interface PhraseReading {
  /** The acts and the names, in the phrase's order: what the phrase was read as. */
  readonly acts: readonly string[];
  readonly names: readonly string[];
  /** Every action the acts could mean, acting on the names. */
  readonly actions: readonly Action[];
}

/** The verb words of an action name: `gh.pr-merge` -> pr, merge. */
function verbWords(action: string): string[] {
  const verb = action.slice(action.indexOf(".") + 1);
  return verb.split(/[-_.*]+/).filter(Boolean);
}

export function readPhrase(phrase: string, tables: readonly VerbTable[]): PhraseReading {
  const words = phrase
    .toLowerCase()
    .split(/[^a-z0-9/_-]+/)
    .filter((w) => w && !FILLER.has(w));
  const acts = words.filter((w) => ACTS[w] !== undefined);
  const clis = new Set(tables.map((t) => t.cli));
  const only = words.filter((w) => clis.has(w));
  const names = words.filter((w) => ACTS[w] === undefined && !clis.has(w));
  const wanted = new Set(acts.flatMap((a) => ACTS[a] ?? []));
  const seen = new Map<string, Action>();
  for (const t of tables) {
    if (only.length > 0 && !only.includes(t.cli)) continue;
    for (const e of t.verbs) {
      const name = actionPattern(e);
      // An act changes something: the reads a verb shares a word with (`gh release list`) are not what it means.
      if (seen.has(name) || e.class === "read" || !verbWords(name).some((w) => wanted.has(w))) continue;
      seen.set(name, { name, class: e.class, targets: [...names], arguments: {}, cli: t.cli });
    }
  }
  return { acts, names, actions: [...seen.values()] };
}
