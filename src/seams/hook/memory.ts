// What the team remembered, beside the boundary and the rule reminders: said only when a page really covers the
// prompt, once per session, within the one limit of two the rule reminders share.
import { existsSync } from "node:fs";
import { decisionSlug } from "../../memory/format/slug.ts";
import { memoryDir } from "../../memory/pages/dir.ts";
import type { Reminder as MemoryReminder } from "../../memory/recall/remind.ts";
import type { Face } from "./deps.ts";
import type { Reminder } from "./reminders.ts";

interface MemoryCandidate extends Reminder {
  readonly memory: MemoryReminder;
}

/** Candidates from the store for this prompt (or, at a session's start, its repository); silence without a store. */
export async function memoryCandidates(
  f: Face,
  cwd: string,
  prompt: string | undefined,
  alreadySaid: readonly string[],
): Promise<MemoryCandidate[]> {
  if (!existsSync(memoryDir(f.ctx.env, f.ctx.paths, cwd))) return [];
  const { sessionReminders } = await import("../../memory/recall/session.ts");
  const found = await sessionReminders(
    { env: f.ctx.env, paths: f.ctx.paths, git: f.ctx.git, cwd, now: () => f.ctx.clock.now() },
    prompt,
    { alreadySaid: new Set(alreadySaid) },
  );
  return found.map((m) => ({ key: m.key, text: m.text, memory: m }));
}

/** Memory candidates minus the decision pages of rules said now or earlier: one decision is never said twice. */
export function besideRules(memories: readonly MemoryCandidate[], ruleKeys: readonly string[]): MemoryCandidate[] {
  const rules = new Set(ruleKeys.map(decisionSlug));
  return memories.filter((m) => !(m.memory.type === "decision" && rules.has(m.memory.slug)));
}

/** Rule reminders as they are; memory notes after them, opened by the preamble that they are evidence. */
export async function renderSaid(said: readonly Reminder[]): Promise<string | undefined> {
  const rules = said.filter((s) => !("memory" in s));
  const memories = said.flatMap((s) => ("memory" in s ? [(s as MemoryCandidate).memory] : []));
  const parts = rules.map((r) => r.text);
  if (memories.length > 0) {
    const { renderReminders } = await import("../../memory/recall/remind.ts");
    parts.push(renderReminders(memories));
  }
  return parts.length > 0 ? parts.join("\n") : undefined;
}
