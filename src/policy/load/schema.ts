// The rule file's shape, strict: an unknown field is an error, never ignored.
import * as v from "valibot";
import { ACTION_CLASSES } from "../../core/action.ts";
import { EFFECTS } from "../../core/effect.ts";
import { MATCH_FIELDS } from "../engine/index.ts";

const TOP_KEYS = ["version", "project", "policies"] as const;
const POLICY_KEYS = ["name", "description", "match", "decision"] as const;
const DECISION_KEYS = [
  "effect",
  "reason",
  "approvers",
  "minApprovals",
  "mode",
  "rateLimit",
  "alternative",
  "relaxes",
] as const;
const ALTERNATIVE_KEYS = ["action", "resource", "note"] as const;
const WINDOW_KEYS = ["days", "startHour", "endHour"] as const;
const RATE_LIMIT_KEYS = ["max", "windowSeconds"] as const;
export const RULE_MODES = ["observe", "enforce"] as const;
export const RULE_SCOPES = ["in_scope", "out_of_scope"] as const;

/** Effect names from before the rename, and what each is now. */
export const RENAMED_EFFECTS: Readonly<Record<string, string>> = {
  block: "deny",
  require_approval: "ask",
  escalate: "ask",
  withhold: "deny",
};

// Built on first use: a run whose rule files are cached by content never constructs them.
function buildSchemas() {
  const text = (what: string) => v.pipe(v.string(), v.minLength(1, `${what} is empty`));

  const patterns = v.pipe(
    v.array(text("a pattern")),
    v.minLength(1, "is an empty list, which matches nothing; leave the field out to match everything"),
  );

  const int = (min: number, max: number) =>
    v.pipe(
      v.number(),
      v.integer("must be a whole number"),
      v.minValue(min, `must be ${min} or more`),
      v.maxValue(max, `must be ${max} or less`),
    );

  const WindowSchema = v.strictObject({
    days: v.optional(v.pipe(v.array(int(0, 6)), v.minLength(1, "is an empty list; leave it out for every day"))),
    startHour: v.optional(int(0, 24)),
    endHour: v.optional(int(0, 24)),
  });

  const MatchSchema = v.strictObject({
    actions: v.optional(patterns),
    classes: v.optional(v.pipe(v.array(v.picklist(ACTION_CLASSES)), v.minLength(1, "is an empty list"))),
    targets: v.optional(patterns),
    environments: v.optional(patterns),
    branches: v.optional(patterns),
    workingDirectories: v.optional(patterns),
    agents: v.optional(patterns),
    arguments: v.optional(v.record(v.string(), patterns)),
    windows: v.optional(v.pipe(v.array(WindowSchema), v.minLength(1, "is an empty list; leave it out for any time"))),
    roles: v.optional(patterns),
    principals: v.optional(patterns),
    models: v.optional(patterns),
    providers: v.optional(patterns),
    dataClassifications: v.optional(patterns),
    jurisdictions: v.optional(patterns),
    aboveAmount: v.optional(v.pipe(v.number(), v.minValue(0, "must be 0 or more"))),
    scope: v.optional(v.pipe(v.array(v.picklist(RULE_SCOPES)), v.minLength(1, "is an empty list"))),
    state: v.optional(patterns),
  });

  const AlternativeSchema = v.strictObject({
    action: text("`action`"),
    resource: v.optional(text("`resource`")),
    note: text("`note`"),
  });

  const DecisionSchema = v.strictObject({
    effect: v.picklist(EFFECTS),
    reason: v.optional(text("the reason")),
    approvers: v.optional(v.pipe(v.array(text("an approver")), v.minLength(1, "is an empty list"))),
    minApprovals: v.optional(int(1, 1000)),
    mode: v.optional(v.picklist(RULE_MODES)),
    rateLimit: v.optional(v.strictObject({ max: int(1, 1_000_000), windowSeconds: int(1, 31_536_000) })),
    alternative: v.optional(AlternativeSchema),
    relaxes: v.optional(v.pipe(v.array(text("a rule name")), v.minLength(1, "is an empty list"))),
  });

  const PolicySchema = v.strictObject({
    name: text("the name"),
    description: v.optional(v.string()),
    match: v.optional(MatchSchema),
    decision: DecisionSchema,
  });

  const FileSchema = v.strictObject({
    version: v.literal(1),
    project: v.optional(text("the project")),
    policies: v.optional(v.array(v.unknown())),
  });
  return { PolicySchema, FileSchema };
}

let built: ReturnType<typeof buildSchemas> | undefined;
export function schemas(): ReturnType<typeof buildSchemas> {
  built ??= buildSchemas();
  return built;
}

export type PolicyInput = v.InferOutput<ReturnType<typeof buildSchemas>["PolicySchema"]>;

/** The valid keys of the object at `path` (inside one policy, or the file when `inPolicy` is false). */
export function keysAt(path: readonly (string | number)[], inPolicy: boolean): readonly string[] {
  const last = path[path.length - 1];
  const before = path[path.length - 2];
  if (!inPolicy) return TOP_KEYS;
  if (path.length === 0) return POLICY_KEYS;
  if (last === "match") return MATCH_FIELDS;
  if (last === "decision") return DECISION_KEYS;
  if (last === "alternative") return ALTERNATIVE_KEYS;
  if (last === "rateLimit") return RATE_LIMIT_KEYS;
  if (before === "windows") return WINDOW_KEYS;
  return [];
}
