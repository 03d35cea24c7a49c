// What every `memnox memory` subcommand shares: the store it opens, the project it means, and how it reports.
import type { ArgsDef } from "citty";
import { MemnoxError } from "../../../../core/errors.ts";
import { explicitProject, type ProjectRef, projectFromCwd } from "../../../../memory/format/project.ts";
import { memoryDir } from "../../../../memory/pages/dir.ts";
import { openStore, type Selector, type Store } from "../../../../memory/pages/store.ts";
import type { ScopeFilter } from "../../../../memory/search/search.ts";
import type { Context } from "../../../../ports/context.ts";
import { emit } from "../../output.ts";

/** State the parent command hands its subcommands: the `--dir` given before them, and the exit code they chose. */
export interface MemoryCli {
  readonly ctx: Context;
  dir?: string;
  code: number;
  ran: boolean;
}

export const common = {
  dir: { type: "string", description: "the memory store (default ~/.memnox/memory, or MEMNOX_MEMORY_DIR)" },
  "data-dir": { type: "string", description: "memex's name for --dir" },
  json: { type: "boolean", description: "print JSON (the contract)" },
} as const satisfies ArgsDef;

export const projectArgs = {
  "project-id": { type: "string", description: "the project's opaque id (default: derived from this directory)" },
  "project-label": { type: "string", description: "display label for a project written for the first time" },
  "project-locator": { type: "string", description: "folder under docs/projects/ for a new project" },
} as const satisfies ArgsDef;

export const selectorArgs = {
  scope: { type: "string", description: "global or project, when a slug names more than one page" },
  "project-id": { type: "string", description: "the project, with --scope project" },
} as const satisfies ArgsDef;

type Flags = Record<string, unknown>;

function text(args: Flags, name: string): string | undefined {
  const v = args[name];
  if (Array.isArray(v)) return v.length ? String(v.at(-1)) : undefined;
  return typeof v === "string" && v !== "" ? v : undefined;
}

export function flag(args: Flags, name: string): string | undefined {
  return text(args, name);
}

/** Every value of a repeatable flag, also split on commas. */
export function many(rawArgs: readonly string[], name: string): string[] {
  const out: string[] = [];
  for (let i = 0; i < rawArgs.length; i++) {
    const a = rawArgs[i] ?? "";
    let value: string | undefined;
    if (a === `--${name}`) value = rawArgs[++i];
    else if (a.startsWith(`--${name}=`)) value = a.slice(name.length + 3);
    if (value !== undefined) out.push(value);
  }
  return out;
}

export function list(rawArgs: readonly string[], name: string): string[] {
  return many(rawArgs, name)
    .flatMap((v) => v.split(","))
    .map((v) => v.trim())
    .filter(Boolean);
}

export function number(args: Flags, name: string): number | undefined {
  const v = text(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!Number.isFinite(n)) throw new MemnoxError("refused", `--${name} must be a number, not \`${v}\``);
  return n;
}

export function integer(args: Flags, name: string): number | undefined {
  const n = number(args, name);
  if (n !== undefined && !Number.isInteger(n)) throw new MemnoxError("refused", `--${name} must be a whole number`);
  return n;
}

export function oneOf<T extends string>(args: Flags, name: string, allowed: readonly T[]): T | undefined {
  const v = text(args, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v))
    throw new MemnoxError("refused", `--${name} must be one of ${allowed.join(", ")}, not \`${v}\``);
  return v as T;
}

/** The store a command names: --dir, or memex's --data-dir. */
export function storeFlag(args: Flags): string | undefined {
  return text(args, "dir") ?? text(args, "data-dir");
}

export function open(cli: MemoryCli, args: Flags): Store {
  const dir = memoryDir(cli.ctx.env, cli.ctx.paths, cli.ctx.cwd, storeFlag(args) ?? cli.dir);
  return openStore({ dir, now: () => cli.ctx.clock.now(), env: cli.ctx.env });
}

/** The project named by flags, else the one this working directory belongs to. */
export async function project(cli: MemoryCli, args: Flags): Promise<ProjectRef> {
  const id = text(args, "project-id");
  if (id) return explicitProject(id, text(args, "project-label"), text(args, "project-locator"));
  const derived = await projectFromCwd(cli.ctx.git, cli.ctx.cwd);
  const label = text(args, "project-label");
  return label ? { ...derived, label } : derived;
}

export async function selector(cli: MemoryCli, args: Flags): Promise<Selector> {
  const scope = oneOf(args, "scope", ["global", "project"] as const);
  const id = text(args, "project-id");
  if (scope === "project") return { scope, projectId: id ?? (await project(cli, args)).id };
  if (scope === "global") return { scope };
  return id ? { projectId: id } : {};
}

export async function scopeFilter(cli: MemoryCli, args: Flags): Promise<ScopeFilter> {
  const scope = oneOf(args, "scope", ["all", "global", "project"] as const);
  if (scope === "project") return { kind: "project", projectId: (await project(cli, args)).id };
  if (scope === "global") return { kind: "global" };
  const id = text(args, "project-id");
  return id ? { kind: "project", projectId: id } : { kind: "all" };
}

/** Runs one subcommand against its store, records its exit code for the parent, always closes the store. */
export async function run(
  cli: MemoryCli,
  args: Flags,
  fn: (store: Store) => Promise<number> | number,
): Promise<number> {
  cli.ran = true;
  const store = open(cli, args);
  try {
    cli.code = await fn(store);
    return cli.code;
  } finally {
    store.close();
  }
}

export function say(cli: MemoryCli, args: Flags, value: unknown, human: () => readonly string[]): void {
  emit(cli.ctx, args.json === true, value, human);
}
