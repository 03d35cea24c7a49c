// A rule somebody chose, remembered as a `decision` page with where it was decided, by whom, and the rule it produced.
import { MemnoxError } from "../core/errors.ts";
import { MACHINE_PROJECT, type ProjectRef } from "./format/project.ts";
import { decisionSlug } from "./format/slug.ts";
import { isoSeconds } from "./format/time.ts";
import type { Store } from "./pages/store.ts";
import { existingLocator, typeInfo } from "./pages/store.ts";
import { type WriteResult, writePage } from "./pages/write.ts";
import { enableType } from "./types/manage.ts";

export type DecisionWhere = "machine" | "repository" | "workspace";

interface DecisionInput {
  /** The rule's name (or id), as the rule file spells it. */
  readonly rule: string;
  /** The rule's reason, in its own words. */
  readonly reason: string;
  readonly effect?: "deny" | "ask" | "allow";
  readonly actions?: readonly string[];
  readonly targets?: readonly string[];
  readonly where: DecisionWhere;
  /** Who decided: a person's name, never a service account. */
  readonly by: string;
  /** The rule file it lives in. */
  readonly file?: string;
  /** The repository's project, for repository and workspace rules; machine rules go to `machine`. */
  readonly project?: ProjectRef;
  readonly decidedAt?: number;
}

const WHERE: Record<DecisionWhere, string> = {
  machine: "decided on this machine",
  repository: "this repository's rules",
  workspace: "your team's published rules",
};

const VERB = { deny: "Never", ask: "Ask a person before", allow: "Allowed without asking:" } as const;

function clip(text: string, max: number): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

export function rememberDecision(store: Store, input: DecisionInput): WriteResult {
  const rule = input.rule.trim();
  const reason = input.reason.trim();
  if (!rule || !reason) throw new MemnoxError("refused", "a decision needs the rule and its reason");
  if (!input.by.trim()) throw new MemnoxError("refused", "a decision needs the name of who decided it");
  const project = input.where === "machine" ? MACHINE_PROJECT : input.project;
  if (!project) throw new MemnoxError("refused", `a ${input.where} decision needs the repository's project`);
  if (typeInfo(store, existingLocator(store, project), "decision").kind !== "catalogue")
    enableType(store, project, "decision", input.by);
  const actions = input.actions ?? [];
  const subject =
    actions.length > 0
      ? `${actions.join(", ")}${input.targets?.length ? ` on ${input.targets.join(", ")}` : ""}`
      : rule;
  const title = clip(input.effect ? `${VERB[input.effect]} ${subject}` : subject, 200);
  const decidedAt = input.decidedAt ?? store.now();
  const body = [
    reason,
    "",
    `- Rule: \`${rule}\`${input.effect ? ` (${input.effect})` : ""}`,
    ...(actions.length > 0 ? [`- Acts on: ${subject}`] : []),
    `- Decided by: ${input.by}`,
    `- Where: ${WHERE[input.where]}`,
    ...(input.file ? [`- Rule file: ${input.file}`] : []),
    `- Decided at: ${isoSeconds(decidedAt)}`,
  ].join("\n");
  const description = clip(`${title}: ${reason}`.replace(/\s+/g, " "), 300);
  return writePage(store, {
    type: "decision",
    title,
    body: `${body}\n`,
    description,
    scope: "project",
    project,
    slug: decisionSlug(rule),
    tags: ["decision", "rule", ...(input.effect ? [input.effect] : [])],
    importance: 0.8,
    source: `memnox:${input.where}`,
    confidence: "confirmed",
    occurredAt: isoSeconds(decidedAt),
    ...(input.file ? { resource: input.file } : {}),
    author: "person",
  });
}
