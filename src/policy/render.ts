// Rules as TOML a person reads in a diff: one table per part, long lists wrapped and grouped by CLI.

import type { RuleSpec } from "./baseline.ts";
import { MATCH_FIELDS, type RuleMatch } from "./engine/index.ts";

const WIDTH = 100;

function key(k: string): string {
  return /^[A-Za-z0-9_-]+$/.test(k) ? k : JSON.stringify(k);
}

function str(s: string): string {
  return JSON.stringify(s);
}

function group(items: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const item of items) {
    const head = item.includes(".") ? item.slice(0, item.indexOf(".")) : "";
    const list = out.get(head);
    if (list) list.push(item);
    else out.set(head, [item]);
  }
  return out;
}

function wrap(items: readonly string[], indent: string): string[] {
  const lines: string[] = [];
  let line = "";
  for (const s of items.map(str)) {
    const next = line ? `${line} ${s},` : `${indent}${s},`;
    if (next.length > WIDTH && line) {
      lines.push(line);
      line = `${indent}${s},`;
    } else line = next;
  }
  if (line) lines.push(line);
  return lines;
}

/** A short list on one line; a long one wrapped, with a `# cli` comment before each group of action names. */
function renderList(name: string, items: readonly string[]): string[] {
  const inline = `${key(name)} = [${items.map(str).join(", ")}]`;
  if (inline.length <= WIDTH) return [inline];
  const groups = group(items);
  const lines = [`${key(name)} = [`];
  for (const [head, list] of groups) {
    if (groups.size > 1 && head) lines.push(`  # ${head}`);
    lines.push(...wrap(list, "  "));
  }
  lines.push("]");
  return lines;
}

function renderMatch(m: RuleMatch): string[] {
  const lines: string[] = [];
  for (const f of MATCH_FIELDS) {
    const value = m[f];
    if (value === undefined || f === "arguments" || f === "windows") continue;
    if (typeof value === "number") lines.push(`${f} = ${value}`);
    else if (Array.isArray(value)) lines.push(...renderList(f, value as readonly string[]));
  }
  if (m.windows) {
    const ws = m.windows.map((w) => {
      const days = w.days ? `days = [${w.days.join(", ")}], ` : "";
      return `{ ${days}startHour = ${w.startHour}, endHour = ${w.endHour} }`;
    });
    lines.push(`windows = [${ws.join(", ")}]`);
  }
  if (m.arguments) {
    const parts = Object.entries(m.arguments).map(([k, ps]) => `${key(k)} = [${ps.map(str).join(", ")}]`);
    lines.push(`arguments = { ${parts.join(", ")} }`);
  }
  return lines;
}

/** A rule as TOML, after the comment lines that say why it is there (each `# `-prefixed). */
export function renderRule(r: RuleSpec, comment: readonly string[] = []): string {
  const lines = [...comment.map((c) => `# ${c}`), "[[policies]]", `name = ${str(r.name)}`];
  if (r.description) lines.push(`description = ${str(r.description)}`);
  const match = renderMatch(r.match);
  if (match.length > 0) lines.push("", "[policies.match]", ...match);
  const { alternative, approvers, rateLimit, ...d } = r.decision;
  lines.push("", "[policies.decision]", `effect = ${str(d.effect)}`);
  if (d.reason) lines.push(`reason = ${str(d.reason)}`);
  if (approvers) lines.push(`approvers = [${approvers.map(str).join(", ")}]`);
  if (d.minApprovals !== undefined) lines.push(`minApprovals = ${d.minApprovals}`);
  if (d.mode) lines.push(`mode = ${str(d.mode)}`);
  if (rateLimit) lines.push(`rateLimit = { max = ${rateLimit.max}, windowSeconds = ${rateLimit.windowSeconds} }`);
  if (d.relaxes) lines.push(`relaxes = [${d.relaxes.map(str).join(", ")}]`);
  if (alternative) {
    lines.push("", "[policies.decision.alternative]", `action = ${str(alternative.action)}`);
    if (alternative.resource) lines.push(`resource = ${str(alternative.resource)}`);
    lines.push(`note = ${str(alternative.note)}`);
  }
  return `${lines.join("\n")}\n`;
}

/** A whole new rule file: a comment saying what it is, the version, and the rules, each after its own comment. */
export function renderRuleFile(
  header: readonly string[],
  rules: readonly RuleSpec[],
  comments: (name: string) => readonly string[] = () => [],
): string {
  const top = [...header.map((h) => (h ? `# ${h}` : "#")), "version = 1", ""].join("\n");
  return `${top}\n${rules.map((r) => renderRule(r, comments(r.name))).join("\n")}`;
}

/** The same rule as plain data, the shape a YAML file holds. */
export function ruleData(r: RuleSpec): Record<string, unknown> {
  return {
    name: r.name,
    ...(r.description ? { description: r.description } : {}),
    ...(Object.keys(r.match).length > 0 ? { match: r.match } : {}),
    decision: r.decision,
  };
}
