// What installing or removing memnox's hook changes in one agent's parsed settings: list edits, no I/O. Items are
// memnox's when every command in them is memnox's hook for that agent; everything else is the person's.
import { MemnoxError } from "../../core/errors.ts";
import { isRecord } from "../../core/record.ts";
import { sameValue } from "../edit/document.ts";
import type { Edit } from "../edit/edits.ts";
import type { JsonValue } from "../edit/jsonc.ts";
import { memnoxHookIn } from "./command.ts";
import type { HookTarget } from "./targets.ts";

type HookPlanStatus = "add" | "repoint" | "unchanged";

interface HookPlan {
  readonly edits: readonly Edit[];
  readonly status: HookPlanStatus;
}

/** The command lines in one item of an event's list. */
export function commandsOf(target: HookTarget, item: unknown): unknown[] {
  if (!isRecord(item)) return [];
  if (!target.nested) return [item[target.commandKey ?? "command"]];
  return Array.isArray(item.hooks) ? item.hooks.map((h) => (isRecord(h) ? h.command : undefined)) : [];
}

/** Whether one item of an event's list is memnox's hook for this agent. */
export function isMemnoxItem(target: HookTarget, item: unknown): boolean {
  const commands = commandsOf(target, item);
  return commands.length > 0 && commands.every((c) => typeof c === "string" && memnoxHookIn(c, target.agent));
}

/** The event map (`hooks`), undefined when absent; anything else there is refused rather than overwritten. */
export function hookMap(doc: unknown, file: string): Record<string, unknown> | undefined {
  const map = isRecord(doc) ? doc.hooks : undefined;
  if (map === undefined) return undefined;
  if (!isRecord(map)) {
    throw new MemnoxError("unsafe_edit", `\`hooks\` in \`${file}\` is not an object, so memnox leaves the file alone`);
  }
  return map;
}

function ourIndexes(target: HookTarget, list: readonly unknown[]): number[] {
  return list.flatMap((item, i) => (isMemnoxItem(target, item) ? [i] : []));
}

/** memnox's items for every event in `desired`, and none anywhere else; a second run changes nothing. */
export function planInstall(
  target: HookTarget,
  doc: unknown,
  desired: Readonly<Record<string, JsonValue[]>>,
  file: string,
): HookPlan {
  const map = hookMap(doc, file) ?? {};
  const edits: Edit[] = [];
  let had = false;
  for (const event of new Set([...Object.keys(map), ...Object.keys(desired)])) {
    const list = map[event];
    const want = desired[event] ?? [];
    if (list !== undefined && !Array.isArray(list)) {
      if (want.length === 0) continue;
      throw new MemnoxError(
        "unsafe_edit",
        `\`hooks.${event}\` in \`${file}\` is not a list, so memnox leaves it alone`,
      );
    }
    const ours = ourIndexes(target, list ?? []);
    had ||= ours.length > 0;
    if (
      sameValue(
        ours.map((i) => list?.[i]),
        want,
      )
    )
      continue;
    for (const i of [...ours].reverse()) edits.push({ op: "removeItem", path: ["hooks", event], index: i });
    for (const item of want) edits.push({ op: "append", path: ["hooks", event], value: item });
  }
  return { edits, status: edits.length === 0 ? "unchanged" : had ? "repoint" : "add" };
}

/** memnox's items out of every event; a list or map that only memnox's items made (per the backup) goes too. */
export function planRemove(target: HookTarget, doc: unknown, original: unknown, file: string): Edit[] {
  const map = hookMap(doc, file);
  if (!map) return [];
  const before = isRecord(original) && isRecord(original.hooks) ? original.hooks : undefined;
  const edits: Edit[] = [];
  let left = 0;
  for (const [event, list] of Object.entries(map)) {
    if (!Array.isArray(list)) {
      left++;
      continue;
    }
    const ours = ourIndexes(target, list);
    if (ours.length === list.length && ours.length > 0 && before?.[event] === undefined) {
      edits.push({ op: "remove", path: ["hooks", event] });
      continue;
    }
    left++;
    for (const i of [...ours].reverse()) edits.push({ op: "removeItem", path: ["hooks", event], index: i });
  }
  const madeByUs = isRecord(original) ? original.hooks === undefined : true;
  if (left === 0 && edits.length > 0 && madeByUs) return [{ op: "remove", path: ["hooks"] }];
  return edits;
}
