// MCP tools -> action classes: the tool's own name decides first; annotations (untrusted) only ever add caution.
import { type ActionClass, heavierClass } from "../core/action.ts";

import { isRecord } from "../core/record.ts";
/** How a class was reached: by a verb in the name, by the server's annotations, or neither (unknown). */
export type ToolBasis = "name" | "annotations" | "none";

interface ToolClass {
  readonly class: ActionClass;
  readonly basis: ToolBasis;
  /** The name word that decided, when one did. */
  readonly verb?: string;
}

/** The four behaviour hints, kept only when the server sent a boolean. */
export interface ToolHints {
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

type Table = Readonly<Record<string, ActionClass>>;

// Verbs that mean the same wherever they stand in a name (`get_or_create_user` creates).
const VERBS: Table = words({
  read: "get list read search find fetch query describe inspect browse retrieve lookup grep glob summarize summarise analyze analyse",
  write:
    "create add update edit write insert modify rename move copy save append apply replace upsert enable disable toggle configure",
  destructive:
    "delete remove rm del destroy purge truncate wipe erase kill terminate revoke uninstall prune shred unlink discard force overwrite evict deprovision",
  communication: "send publish notify broadcast announce",
  unknown: "execute exec spawn",
});

// Words that are verbs only at the head of a name (`tag_release` tags; `get_tag` reads a tag).
const HEAD_VERBS: Table = words({
  read: "show view count check stat status info peek preview diff compare echo ping scan tree explain validate verify recall discover explore calculate compute lint",
  write:
    "set put patch change tag label assign unassign mark star unstar pin unpin lock unlock approve close reopen archive commit merge fork clone import init initialize make generate start stop restart sync schedule book reserve subscribe unsubscribe follow unfollow react vote push install register download",
  destructive: "drop reset clear cancel pay transfer purchase buy charge refund withdraw",
  communication:
    "message comment email mail reply post tweet chat dm sms share invite mention release submit review forward upload deploy",
  unknown: "run eval evaluate script invoke call trigger",
});

// Nouns that turn a write into communication (`add_issue_comment` posts something people read).
const OUTWARD_NOUNS = new Set("message comment email mail reply post tweet chat dm sms invite review".split(" "));

function words(byClass: Partial<Record<ActionClass, string>>): Table {
  const out: Record<string, ActionClass> = {};
  for (const [cls, list] of Object.entries(byClass)) {
    for (const w of (list ?? "").split(/\s+/)) if (w) out[w] = cls as ActionClass;
  }
  return out;
}

/** `getFileContents`, `get_file_contents`, `get-file.contents` and `HTTPRequest` all split into lowercase words. */
export function toolWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .replace(/([a-zA-Z])([0-9])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter((w) => w.length > 0)
    .map((w) => w.toLowerCase());
}

/** The class a tool's name gives, or undefined when no word of it is a verb we know. */
export function classFromName(name: string): { readonly class: ActionClass; readonly verb: string } | undefined {
  const ws = toolWords(name);
  const head = ws.findIndex((w) => VERBS[w] !== undefined || HEAD_VERBS[w] !== undefined);
  const headWord = ws[head];
  if (headWord === undefined) return undefined;
  let cls = VERBS[headWord] ?? HEAD_VERBS[headWord] ?? "unknown";
  let verb = headWord;
  const primary = cls;
  for (const w of ws.slice(head + 1)) {
    const later = VERBS[w];
    if (later !== undefined && heavierClass(cls, later) !== cls) {
      cls = later;
      verb = w;
    } else if (primary === "write" && OUTWARD_NOUNS.has(w) && heavierClass(cls, "communication") !== cls) {
      cls = "communication";
      verb = w;
    }
  }
  return { class: cls, verb };
}

/** Only booleans survive: the object comes from a server we do not trust. */
export function toolHints(annotations: unknown): ToolHints | undefined {
  if (typeof annotations !== "object" || annotations === null) return undefined;
  const a = annotations as Record<string, unknown>;
  const out: Record<string, boolean> = {};
  for (const k of ["readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"]) {
    const v = a[k];
    if (typeof v === "boolean") out[k] = v;
  }
  return out;
}

/**
 * The name decides; annotations can only make a class heavier. Where the name says nothing, the spec's defaults
 * apply to a server that sent annotations (`readOnlyHint` false and `destructiveHint` true unless stated).
 */
export function classifyTool(name: string, annotations?: unknown): ToolClass {
  const fromName = classFromName(name);
  const hints = toolHints(annotations);
  const admitsDestruction = hints?.readOnlyHint !== true && hints?.destructiveHint === true;
  if (fromName) {
    let cls = fromName.class;
    if (admitsDestruction) cls = heavierClass(cls, "destructive");
    else if (cls === "read" && hints?.readOnlyHint === false) cls = "write";
    return cls === fromName.class
      ? { class: cls, basis: "name", verb: fromName.verb }
      : { class: cls, basis: "annotations", verb: fromName.verb };
  }
  if (hints && hints.readOnlyHint !== true && hints.destructiveHint !== false) {
    return { class: "destructive", basis: "annotations" };
  }
  return { class: "unknown", basis: "none" };
}

/** `mcp.<server>.<tool>`: the name rules match calls by. */
export function mcpActionName(server: string, tool: string): string {
  return `mcp.${server}.${tool}`;
}

const MAX_DEPTH = 32;

/** A call's arguments as the engine matches them: nested keys dotted, arrays as several values, scalars as text. */
export function mcpArguments(args: unknown): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  const add = (key: string, value: string) => {
    const list = out[key];
    if (list) list.push(value);
    else out[key] = [value];
  };
  const walk = (value: unknown, key: string, depth: number): void => {
    if (depth > MAX_DEPTH) {
      add(key, "…");
    } else if (Array.isArray(value)) {
      for (const v of value) walk(v, key, depth + 1);
    } else if (typeof value === "object" && value !== null) {
      for (const [k, v] of Object.entries(value)) walk(v, key ? `${key}.${k}` : k, depth + 1);
    } else if (typeof value === "string") {
      add(key, value);
    } else if (value !== undefined) {
      add(key, String(value));
    }
  };
  if (isRecord(args)) walk(args, "", 0);
  return out;
}
