// Generated rules into a rule file: created, or merged by appending what is missing; a person's rule is never dropped.
import { MemnoxError } from "../core/errors.ts";
import { readTextIfExists, writeFileAtomic } from "../io/files.ts";
import type { RuleSpec } from "./baseline.ts";
import type { PolicyRule } from "./engine/index.ts";
import { checkText, formatProblem, isYamlPath } from "./load/index.ts";
import { renderRule, renderRuleFile, ruleData } from "./render.ts";

export interface MergeResult {
  readonly path: string;
  readonly created: boolean;
  /** Rules written now. */
  readonly added: readonly string[];
  /** Rules already there exactly as generated. */
  readonly unchanged: readonly string[];
  /** Rules already there under the same name but different: the person's version is kept. */
  readonly keptYours: readonly string[];
}

interface MergeOptions {
  /** Comment lines for a new file. */
  readonly header: readonly string[];
  /** File mode for a new file (0644 for a repository's, 0600 for the machine's). */
  readonly mode: number;
  /** Called with the path before an existing file is rewritten, so it can be copied aside. */
  readonly backup?: (path: string) => void;
  /** Comment lines written above a rule, saying why it is there. */
  readonly comments?: (name: string) => readonly string[];
}

/** JSON with keys and lists sorted: a rule's lists are any-of, so their order (which render may regroup) is no content. */
function canonical(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(canonical).sort().join(",")}]`;
  if (typeof v === "object" && v !== null)
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${canonical((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

/** Two rules say the same thing: match and decision alike, whatever the order of their lists. */
export const sameRule = (a: Pick<PolicyRule, "match" | "decision">, b: Pick<PolicyRule, "match" | "decision">) =>
  canonical(a.match) === canonical(b.match) && canonical(a.decision) === canonical(b.decision);

function appendYaml(text: string, rules: readonly RuleSpec[]): string {
  const Y: typeof import("yaml") = require("yaml");
  const doc = Y.parseDocument(text);
  const list = doc.get("policies", true);
  if (Y.isSeq(list)) for (const r of rules) list.add(doc.createNode(ruleData(r)));
  else doc.set("policies", doc.createNode(rules.map(ruleData)));
  return doc.toString({ lineWidth: 0 });
}

function appendToml(text: string, rules: readonly RuleSpec[], comments: (name: string) => readonly string[]): string {
  const sep = text.endsWith("\n") ? "\n" : "\n\n";
  return `${text}${sep}${rules.map((r) => renderRule(r, comments(r.name))).join("\n")}`;
}

/** Every rule that was there is still there, unchanged, and the new ones read back as written. */
function verify(path: string, before: readonly PolicyRule[], afterText: string, added: readonly RuleSpec[]): void {
  const after = checkText(path, "repository", afterText);
  const fail = (why: string) => {
    throw new MemnoxError("unsafe_edit", `refusing to write \`${path}\`: ${why}`, "nothing was changed");
  };
  if (after.problems.length > 0)
    fail(`the result would not read back (${formatProblem(after.problems[0] ?? { file: path, message: "" })})`);
  for (const r of [...before, ...added]) {
    if (!after.rules.some((x) => x.name === r.name && sameRule(x, r))) fail(`the rule \`${r.name}\` would not survive`);
  }
}

/** What a merge would write: the file's text before (undefined when absent) and after, read back and checked. */
export interface MergePlan {
  readonly result: MergeResult;
  readonly before: string | undefined;
  readonly after: string;
}

/** Creates `path` with `rules`, or appends the ones whose names it lacks. A file with problems is refused, untouched. */
export function mergeRules(path: string, rules: readonly RuleSpec[], opts: MergeOptions): MergeResult {
  const plan = planMerge(path, rules, opts);
  if (plan.before === plan.after) return plan.result;
  if (plan.before !== undefined) opts.backup?.(path);
  writeFileAtomic(path, plan.after, opts.mode);
  return plan.result;
}

/** The merge `mergeRules` would make, computed and read back, with nothing written: what a diff is shown from. */
export function planMerge(
  path: string,
  rules: readonly RuleSpec[],
  opts: Pick<MergeOptions, "header" | "comments">,
): MergePlan {
  const comments = opts.comments ?? (() => []);
  const text = readTextIfExists(path);
  if (text === undefined) {
    const fresh = renderRuleFile(opts.header, rules, comments);
    verify(path, [], fresh, rules);
    const result = { path, created: true, added: rules.map((r) => r.name), unchanged: [], keptYours: [] };
    return { result, before: undefined, after: fresh };
  }
  const existing = checkText(path, "repository", text);
  if (existing.problems.length > 0) {
    const first = existing.problems[0];
    throw new MemnoxError(
      "policy_invalid",
      `\`${path}\` has problems, so memnox will not add to it: ${first ? formatProblem(first) : ""}`,
      "fix it (memnox policy check lists every problem), then run memnox protect --yes again; nothing was written",
    );
  }
  const have = new Map(existing.rules.map((r) => [r.name, r]));
  const missing = rules.filter((r) => !have.has(r.name));
  const present = rules.filter((r) => have.has(r.name));
  const unchanged = present.filter((r) => {
    const mine = have.get(r.name);
    return mine !== undefined && sameRule(mine, r);
  });
  const result = {
    path,
    created: false,
    added: missing.map((r) => r.name),
    unchanged: unchanged.map((r) => r.name),
    keptYours: present.filter((r) => !unchanged.includes(r)).map((r) => r.name),
  };
  if (missing.length === 0) return { result, before: text, after: text };
  const next = isYamlPath(path) ? appendYaml(text, missing) : appendToml(text, missing, comments);
  verify(path, existing.rules, next, missing);
  return { result, before: text, after: next };
}
