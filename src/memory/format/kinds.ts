// The three kinds of page type: memex's five built-ins, the catalogue a project turns on, and custom shelves.
export type Kind = "builtin" | "catalogue" | "custom" | "draft" | "withdrawn";

export const BUILTIN_DIRS = {
  entity: "entities",
  preference: "preferences",
  procedure: "procedures",
  summary: "summaries",
  episode: "episodes",
} as const satisfies Record<string, string>;

type BuiltinType = keyof typeof BUILTIN_DIRS;
export const BUILTIN_TYPES = Object.keys(BUILTIN_DIRS) as BuiltinType[];

/** The catalogue and what each type answers, in memex's words (its `types list` descriptions). */
export const CATALOGUE: Readonly<Record<string, string>> = {
  domain: "what exists in the business and what its words mean",
  architecture: "how the system is put together and why",
  rule: "a constraint that can be checked",
  policy: "a principle that guides judgment",
  decision: "what was chosen, when, and why",
};

/** What each built-in holds, for the human listing (memex's JSON gives built-ins no description). */
export const BUILTIN_DESCRIPTIONS: Readonly<Record<BuiltinType, string>> = {
  entity: "a thing: a tool, a service, a person, a system",
  preference: "how somebody likes things done",
  procedure: "how to do something, step by step",
  summary: "what a stretch of work came to",
  episode: "one session, linked to its transcript",
};

/** memex's type-name shape: a letter, then letters, digits and `-`, at most 64 in all. */
export const TYPE_NAME = /^[a-z][a-z0-9-]{0,63}$/;
const TYPE_NAME_RULE = "[a-z][a-z0-9-]{0,63}";
/** Names no declared type may take: built-ins, their directories, the catalogue, reserved files, a heading. */
const TAKEN = new Set(["index", "log", "subdirectories", ...Object.keys(BUILTIN_DIRS), ...Object.values(BUILTIN_DIRS)]);

export function isBuiltin(type: string): type is BuiltinType {
  return Object.hasOwn(BUILTIN_DIRS, type);
}

export function isCatalogue(type: string): boolean {
  return Object.hasOwn(CATALOGUE, type);
}

/** The directory a type's pages live in: built-ins keep memex's plural names, the rest use their own. */
export function typeDir(type: string): string {
  return isBuiltin(type) ? BUILTIN_DIRS[type] : type;
}

/** The type a directory name holds, when it is a built-in plural. */
export function builtinForDir(dir: string): BuiltinType | undefined {
  return BUILTIN_TYPES.find((t) => BUILTIN_DIRS[t] === dir);
}

/** A name bounded for an error message: an untrusted name may be any length. */
function echo(name: string): string {
  return name.length <= 64 ? name : `${name.slice(0, 64)}…`;
}

/** Why `name` cannot be a type, in memex's words; `declared` also keeps it off every taken name. */
export function typeNameProblem(name: string, declared = false): string | undefined {
  if (!TYPE_NAME.test(name)) return `type name '${echo(name)}' must match ${TYPE_NAME_RULE}`;
  if (declared && (TAKEN.has(name) || isCatalogue(name)))
    return `type name '${name}' is already a built-in, catalogue, or reserved name`;
  return undefined;
}

/** A name a directory under a project may declare: the shape, not a built-in or reserved name. */
export function validTypeName(name: string): boolean {
  return TYPE_NAME.test(name) && !TAKEN.has(name);
}

/** Episodes and summaries are memory (always active); everything else is knowledge, governed on model writes. */
export function isAutomaticMemory(type: string): boolean {
  return type === "episode" || type === "summary";
}

/** The heading a type's pages sit under in a generated index.md. */
export function sectionHeading(type: string): string {
  const dir = typeDir(type);
  return dir.charAt(0).toUpperCase() + dir.slice(1);
}
