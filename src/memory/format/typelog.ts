// log.md: the append-only record of which types a project declared, proposed or removed, in memex's line shape:
// `<ISO-UTC> <verb> <type> by <actor>[: <text>]`. A line of any other shape is a note and can neither forge nor hide.
import { appendFileSync, existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import { isCatalogue, type Kind } from "./kinds.ts";

type TypeVerb = "declare" | "propose" | "remove";

interface TypeEvent {
  readonly at: string;
  readonly verb: TypeVerb;
  readonly type: string;
  readonly by: string;
  readonly text: string;
  /** Only lines memnox wrote before it used memex's shape name the project; memex's own lines never do. */
  readonly project?: string;
}

const VERBS: ReadonlySet<string> = new Set(["declare", "propose", "remove"]);
const STAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/;
// What Python's str.splitlines() breaks on, so a line reads here exactly as memex reads it.
// biome-ignore lint/suspicious/noControlCharactersInRegex: the separators Python breaks lines on are the point.
const LINE_BREAK = /\r\n|[\n\r\v\f\x1c-\x1e\x85\u2028\u2029]/;
// The shape memnox wrote before it wrote memex's, still read so such a store keeps its declarations.
const LEGACY =
  /^- (\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z) (declared|proposed|withdrawn) ([a-z0-9][a-z0-9-]*) kind=(?:catalogue|custom|draft) project=(\S+) by=(\S+)(?: — (.*))?$/;
const LEGACY_VERB: Readonly<Record<string, TypeVerb>> = {
  declared: "declare",
  proposed: "propose",
  withdrawn: "remove",
};

const MAX_DECLARATION_BYTES = 512;

/** Declaration text is one line of at most 512 bytes, or a forged line could reach the file; never echoed back. */
export function checkDeclarationText(text: string): void {
  if (!text) return;
  const oneLine = text.split(LINE_BREAK).length === 1 && ![...text].some((c) => c < " " || c === "\x7f");
  if (!oneLine || new TextEncoder().encode(text).length > MAX_DECLARATION_BYTES)
    throw new MemnoxError("refused", "declaration text must be one line of at most 512 bytes");
}

function formatEvent(e: Omit<TypeEvent, "project">): string {
  return `${e.at} ${e.verb} ${e.type} by ${e.by}${e.text ? `: ${e.text}` : ""}`;
}

/** The lines of `text` that are events for `type`, in file order. */
function parseEvents(text: string, type: string): TypeEvent[] {
  const out: TypeEvent[] = [];
  for (const line of text.split(LINE_BREAK)) {
    const legacy = LEGACY.exec(line);
    if (legacy) {
      const [, at = "", verb = "", name, project, by = "", note] = legacy;
      if (name === type && project)
        out.push({ at, verb: LEGACY_VERB[verb] ?? "declare", type, by, text: note ?? "", project });
      continue;
    }
    // Python's line.split(" ", 4): four cuts, the rest of the line in the fifth part.
    const parts = line.split(" ");
    if (parts.length < 5) continue;
    const [at = "", verb = "", target = "", by = ""] = parts;
    if (!VERBS.has(verb) || target !== type || by !== "by" || !STAMP.test(at)) continue;
    const colon = line.indexOf(": ");
    const rest = parts.slice(4).join(" ");
    const actor = colon === -1 ? rest : rest.slice(0, Math.max(0, rest.indexOf(": ")));
    out.push({ at, verb: verb as TypeVerb, type, by: actor, text: colon === -1 ? "" : line.slice(colon + 2) });
  }
  return out;
}

export function readEvents(typeDir: string, type: string): TypeEvent[] {
  const file = join(typeDir, "log.md");
  if (!existsSync(file)) return [];
  return parseEvents(readFileSync(file, "utf8"), type);
}

/** One short O_APPEND write per event: the log is append-only by contract, so it is never rewritten. */
export function appendEvent(typeDir: string, e: Omit<TypeEvent, "project">): void {
  checkDeclarationText(e.text);
  appendFileSync(join(typeDir, "log.md"), `${formatEvent(e)}\n`, { mode: 0o644 });
}

interface TypeState {
  /** `undeclared` for a directory whose log holds no line of the shape: a stray folder declares nothing. */
  readonly kind: Kind | "undeclared";
  readonly description: string;
  readonly project?: string;
}

/** What the history says a project directory's type is now. */
export function stateOf(events: readonly TypeEvent[], type: string): TypeState {
  let verb: TypeVerb | undefined;
  let description = "";
  let project: string | undefined;
  for (const e of events) {
    verb = e.verb;
    if (e.verb !== "remove" && e.text) description = e.text;
    if (e.project) project = e.project;
  }
  const kind: TypeState["kind"] =
    verb === undefined
      ? "undeclared"
      : verb === "remove"
        ? "withdrawn"
        : verb === "propose"
          ? "draft"
          : isCatalogue(type)
            ? "catalogue"
            : "custom";
  return { kind, description, ...(project ? { project } : {}) };
}
