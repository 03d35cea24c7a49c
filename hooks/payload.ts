// Reading foreign payloads loosely: fields we need are checked, everything else an agent adds is ignored.
import * as v from "valibot";
import { HookInputError } from "./types.ts";

export { v };

const optString = v.optional(v.string());

/** Throws a HookInputError naming the field and what it should be, never the value (it may be a secret). */
export function read<const S extends v.GenericSchema>(schema: S, value: unknown, what: string): v.InferOutput<S> {
  const r = v.safeParse(schema, value);
  if (r.success) return r.output;
  const issue = r.issues[0];
  const at = issue ? v.getDotPath(issue) : null;
  const expected =
    issue?.received === "undefined" ? "is missing" : issue?.expected ? `is not ${issue.expected}` : "does not fit";
  throw new HookInputError(`${what}: ${at ? `\`${at}\`` : "the payload"} ${expected}`);
}

/** The event name most agents put in the payload. */
export function payloadEvent(payload: unknown, key = "hook_event_name"): string | undefined {
  if (typeof payload !== "object" || payload === null) return undefined;
  const e = (payload as Record<string, unknown>)[key];
  return typeof e === "string" ? e : undefined;
}

export const Path = v.looseObject({ file_path: v.string() });
export const Search = v.looseObject({ pattern: optString, path: optString });

/** A number, or undefined when it is not one. */
export function num(x: unknown): number | undefined {
  return typeof x === "number" && Number.isFinite(x) ? x : undefined;
}

/** `Exit code 3` (Claude Code's failed Bash) -> 3. */
export function exitCodeIn(text: unknown): number | undefined {
  if (typeof text !== "string") return undefined;
  const m = /exit code (\d+)/i.exec(text);
  return m?.[1] ? Number(m[1]) : undefined;
}

/** The most of a tool's result read for instruction-shaped text: a page or a log is long, a question is not. */
const RESULT_MAX = 64 * 1024;

/** The text a tool handed back into the session (every string in its result, in order), capped. */
export function resultText(response: unknown): string | undefined {
  const parts: string[] = [];
  let size = 0;
  const walk = (x: unknown, depth: number): void => {
    if (size >= RESULT_MAX || depth > 6) return;
    if (typeof x === "string") {
      parts.push(x.slice(0, RESULT_MAX - size));
      size += x.length;
    } else if (Array.isArray(x)) for (const y of x) walk(y, depth + 1);
    else if (typeof x === "object" && x !== null) for (const y of Object.values(x)) walk(y, depth + 1);
  };
  walk(response, 0);
  const text = parts.join("\n");
  return text.trim() ? text : undefined;
}
