// log.md: the append-only record of which types a project declared, proposed or withdrew, one fixed-shape line each.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Kind } from "./kinds.ts";

export type TypeAction = "declared" | "proposed" | "withdrawn";

export interface TypeEvent {
  readonly at: string;
  readonly action: TypeAction;
  readonly type: string;
  readonly kind: "catalogue" | "custom" | "draft";
  readonly project: string;
  readonly by: string;
  readonly note: string;
}

const LINE =
  /^- (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z) (declared|proposed|withdrawn) ([a-z0-9][a-z0-9-]*) kind=(catalogue|custom|draft) project=(\S+) by=(\S+)(?: — (.*))?$/;

export function formatEvent(e: TypeEvent): string {
  const note = e.note.replace(/\s+/g, " ").trim();
  return `- ${e.at} ${e.action} ${e.type} kind=${e.kind} project=${e.project} by=${e.by}${note ? ` — ${note}` : ""}`;
}

/** Only lines of the fixed shape count; anything else in the file is a note and can neither forge nor hide. */
export function parseEvents(text: string, type: string): TypeEvent[] {
  const out: TypeEvent[] = [];
  for (const line of text.split("\n")) {
    const m = LINE.exec(line);
    if (!m || m[3] !== type) continue;
    const [, at, action, name, kind, project, by, note] = m;
    if (!at || !action || !name || !kind || !project || !by) continue;
    out.push({
      at,
      action: action as TypeAction,
      type: name,
      kind: kind as TypeEvent["kind"],
      project,
      by,
      note: note ?? "",
    });
  }
  return out;
}

export function readEvents(typeDir: string, type: string): TypeEvent[] {
  const file = join(typeDir, "log.md");
  if (!existsSync(file)) return [];
  return parseEvents(readFileSync(file, "utf8"), type);
}

/** One short O_APPEND write per event: the log is append-only by contract, so it is never rewritten. */
export function appendEvent(typeDir: string, e: TypeEvent): void {
  const file = join(typeDir, "log.md");
  const head = existsSync(file) ? "" : `# ${e.type} log\n\n`;
  appendFileSync(file, `${head}${formatEvent(e)}\n`, { mode: 0o644 });
}

export interface TypeState {
  readonly kind: Kind;
  readonly description: string;
  readonly project?: string;
}

/** What the history says a project directory's type is now; a bare directory is a declaration too. */
export function stateOf(events: readonly TypeEvent[], catalogue: boolean): TypeState {
  let state: TypeState = { kind: catalogue ? "catalogue" : "custom", description: "" };
  for (const e of events) {
    const kind: Kind = e.action === "withdrawn" ? "withdrawn" : e.action === "proposed" ? "draft" : e.kind;
    state = { kind, description: e.action === "withdrawn" ? state.description : e.note, project: e.project };
  }
  if (state.kind === "custom" && catalogue) return { ...state, kind: "catalogue" };
  return state;
}
