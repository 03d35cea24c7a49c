// Parsed data to rules: each policy validated on its own, so one bad rule costs only itself, and every problem has a line.
import * as v from "valibot";
import { ACTION_CLASSES } from "../../core/action.ts";
import { EFFECTS } from "../../core/effect.ts";
import { isRecord } from "../../core/record.ts";
import type { KeyPath } from "../../io/toml-lines.ts";
import type { PolicyRule, RuleDecision, RuleMatch, TimeWindow } from "../engine/index.ts";
import type { ParsedText } from "./parse.ts";
import { keysAt, type PolicyInput, RENAMED_EFFECTS, RULE_MODES, RULE_SCOPES, schemas } from "./schema.ts";
import type { RuleProblem } from "./types.ts";

interface ValidatedFile {
  readonly project?: string;
  readonly rules: readonly PolicyRule[];
  readonly problems: readonly RuleProblem[];
}

type Issue = v.BaseIssue<unknown>;
type Located = { readonly path: KeyPath; readonly message: string };

function dotted(path: KeyPath): string {
  return path.map((k, i) => (typeof k === "number" ? `[${k}]` : i === 0 ? k : `.${k}`)).join("");
}

const CHOICES: Readonly<Record<string, readonly string[]>> = {
  effect: EFFECTS,
  mode: RULE_MODES,
  scope: RULE_SCOPES,
  classes: ACTION_CLASSES,
};

const HINTS: Readonly<Record<string, string>> = {
  version: ": add `version = 1` at the top",
  "decision.alternative.action": ": an alternative names the action the agent may take instead",
  "decision.alternative.note": ": the note is the sentence the agent reads, saying what to use instead",
  "decision.effect": ": one of allow, ask, deny",
};

function human(expected: string | null): string {
  const map: Record<string, string> = { string: "text", number: "a number", Array: "a list", Object: "a table" };
  return expected ? (map[expected] ?? expected) : "something else";
}

function choiceMessage(path: KeyPath, issue: Issue): string {
  const field = dotted(path);
  const name = [...path].reverse().find((k) => typeof k === "string") ?? "";
  const got = issue.input;
  if (name === "effect" && typeof got === "string" && RENAMED_EFFECTS[got])
    return `\`${field}\` is \`${got}\`, a name from before the rename: it is now \`${RENAMED_EFFECTS[got]}\``;
  if (name === "scope" && got === "undeclared")
    return `\`${field}\` names \`undeclared\`, which never matches: a request with no declared task never matches a scope-bearing rule, so leave \`scope\` out to cover it`;
  const choices = CHOICES[name] ?? [];
  return `\`${field}\` is ${issue.received}; the valid choices are ${choices.join(", ")}`;
}

function describe(issue: Issue, inPolicy: boolean): Located {
  const path: KeyPath = (issue.path ?? []).map((p) => p.key as string | number);
  const field = dotted(path);
  if (issue.type === "strict_object" && issue.expected === "never") {
    const parent = path.slice(0, -1);
    const where = parent.length ? ` in \`${dotted(parent)}\`` : "";
    const valid = keysAt(parent, inPolicy).join(", ");
    return { path, message: `unknown field \`${String(path[path.length - 1])}\`${where} (valid: ${valid})` };
  }
  if (issue.kind === "schema" && issue.received === "undefined")
    return { path, message: `\`${field}\` is required${HINTS[field] ?? ""}` };
  if (issue.type === "picklist") return { path, message: choiceMessage(path, issue) };
  if (issue.type === "literal") return { path, message: `\`${field}\` must be 1, the only version there is` };
  if (issue.kind === "validation") return { path, message: `\`${field}\` ${issue.message}` };
  return { path, message: `\`${field}\` must be ${human(issue.expected)}; got ${issue.received}` };
}

function compact<T extends object>(o: T): { [K in keyof T]?: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(o).filter(([, x]) => x !== undefined)) as {
    [K in keyof T]?: Exclude<T[K], undefined>;
  };
}

function toRule(input: PolicyInput, file: string, line: number): PolicyRule {
  const { windows: rawWindows, ...m } = input.match ?? {};
  const windows: TimeWindow[] | undefined = rawWindows?.map((w) => ({
    ...(w.days ? { days: w.days } : {}),
    startHour: w.startHour ?? 0,
    endHour: w.endHour ?? 24,
  }));
  const match: RuleMatch = { ...compact(m), ...(windows ? { windows } : {}) };
  const { effect, alternative: alt, ...rest } = input.decision;
  const alternative = alt && {
    action: alt.action,
    note: alt.note,
    ...(alt.resource ? { resource: alt.resource } : {}),
  };
  const decision: RuleDecision = { effect, ...compact(rest), ...(alternative ? { alternative } : {}) };
  const description = input.description ? { description: input.description } : {};
  return { name: input.name, ...description, match, decision, file, line };
}

/** What a valid schema cannot say: a window with no time, approvers on something that never asks. */
function semantic(r: PolicyRule): Located[] {
  const out: Located[] = [];
  const d = r.decision;
  r.match.windows?.forEach((w, i) => {
    if (w.startHour === w.endHour)
      out.push({
        path: ["match", "windows", i],
        message: `\`match.windows[${i}]\` starts and ends at ${w.startHour}, which covers no time; use 0 and 24 for the whole day`,
      });
  });
  if (d.effect !== "ask" && (d.approvers || d.minApprovals !== undefined))
    out.push({
      path: ["decision"],
      message: `\`approvers\` and \`minApprovals\` only apply to an \`ask\`, and this rule's effect is \`${d.effect}\``,
    });
  if (d.approvers && d.minApprovals !== undefined && d.minApprovals > d.approvers.length)
    out.push({
      path: ["decision", "minApprovals"],
      message: `\`decision.minApprovals\` is ${d.minApprovals} but only ${d.approvers.length} approver(s) are named, so it could never be met`,
    });
  if (d.relaxes && d.effect !== "allow")
    out.push({
      path: ["decision", "relaxes"],
      message: `\`relaxes\` lets ask rules through, so only an \`allow\` takes it, and this rule's effect is \`${d.effect}\``,
    });
  if (d.effect === "allow" && d.alternative)
    out.push({
      path: ["decision", "alternative"],
      message: "an `allow` needs no alternative: it names what to use instead of a refusal",
    });
  return out;
}

/** Validates one parsed file: the file's own shape, then each policy on its own. */
export function validateRuleData(file: string, parsed: ParsedText): ValidatedFile {
  const problems: RuleProblem[] = [];
  const at = (path: KeyPath, message: string, rule?: string, field?: string): RuleProblem => {
    const line = parsed.line(path);
    return { file, message, ...(line ? { line } : {}), ...(rule ? { rule } : {}), ...(field ? { field } : {}) };
  };
  const top = v.safeParse(schemas().FileSchema, parsed.data ?? {}, { abortEarly: false });
  if (!top.success) {
    for (const issue of top.issues) {
      const d = describe(issue, false);
      problems.push(at(d.path, d.message, undefined, dotted(d.path)));
    }
  }
  const data = isRecord(parsed.data) ? parsed.data : {};
  const list = Array.isArray(data.policies) ? (data.policies as unknown[]) : [];
  const rules: PolicyRule[] = [];
  list.forEach((raw, i) => {
    const base: KeyPath = ["policies", i];
    const name = typeof raw === "object" && raw !== null && "name" in raw ? String(raw.name) : undefined;
    const res = v.safeParse(schemas().PolicySchema, raw, { abortEarly: false });
    if (!res.success) {
      for (const issue of res.issues) {
        const d = describe(issue, true);
        problems.push(at([...base, ...d.path], d.message, name, dotted(d.path)));
      }
      return;
    }
    const rule = toRule(res.output, file, parsed.line(base) ?? 1);
    const wrong = semantic(rule);
    for (const d of wrong) problems.push(at([...base, ...d.path], d.message, rule.name, dotted(d.path)));
    if (wrong.length === 0) rules.push(rule);
  });
  const seen = new Map<string, PolicyRule>();
  for (const r of rules) {
    const first = seen.get(r.name);
    if (first)
      problems.push({
        file,
        line: r.line,
        rule: r.name,
        field: "name",
        message: `the name is already used by the rule on line ${first.line}; names must be unique`,
      });
    else seen.set(r.name, r);
  }
  // A file of another or no version is read for its problems, so one pass lists them all, but yields no rules.
  if (data.version !== 1) return { rules: [], problems };
  const project = typeof data.project === "string" ? data.project : undefined;
  return { rules, problems, ...(project ? { project } : {}) };
}
