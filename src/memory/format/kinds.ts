// The three kinds of page type: memex's five built-ins, the catalogue a project turns on, and custom shelves.
export type Kind = "builtin" | "catalogue" | "custom" | "draft" | "withdrawn";

export const BUILTIN_DIRS = {
  entity: "entities",
  preference: "preferences",
  procedure: "procedures",
  summary: "summaries",
  episode: "episodes",
} as const satisfies Record<string, string>;

export type BuiltinType = keyof typeof BUILTIN_DIRS;
export const BUILTIN_TYPES = Object.keys(BUILTIN_DIRS) as BuiltinType[];

export const CATALOGUE: Readonly<Record<string, string>> = {
  domain: "the words the business uses and what each one means",
  architecture: "how the system is put together, and why it is that way",
  rule: "what must always or never happen here",
  policy: "what the organisation requires, and who owns the requirement",
  decision: "what was chosen, when, and why",
};

/** Built-in descriptions, for `types list`. */
export const BUILTIN_DESCRIPTIONS: Readonly<Record<BuiltinType, string>> = {
  entity: "a thing: a tool, a service, a person, a system",
  preference: "how somebody likes things done",
  procedure: "how to do something, step by step",
  summary: "what a stretch of work came to",
  episode: "one session, linked to its transcript",
};

const TYPE_NAME = /^[a-z0-9][a-z0-9-]{0,62}$/;
const RESERVED_NAMES = new Set(["index", "log", ...Object.values(BUILTIN_DIRS)]);

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

/** A name a person may declare: a slug, not a built-in's directory, not a reserved word. */
export function validTypeName(name: string): boolean {
  return TYPE_NAME.test(name) && !RESERVED_NAMES.has(name) && !isBuiltin(name);
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
