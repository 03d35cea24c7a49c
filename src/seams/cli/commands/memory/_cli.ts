// What every `memnox memory` subcommand shares: the store it opens, the project it means, and how it reports.
import type { ArgsDef } from "citty";
import { MemnoxError } from "../../../../core/errors.ts";
import { explicitProject, type ProjectRef, projectFromCwd } from "../../../../memory/format/project.ts";
import { type OpsDeps, selectorOf } from "../../../../memory/ops.ts";
import { memoryDir } from "../../../../memory/pages/dir.ts";
import { openStore, type Selector, type Store } from "../../../../memory/pages/store.ts";
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
  dir: {
    type: "string",
    description: "the memory store (default ~/.memnox/memory, or MEMNOX_MEMORY_DIR, or memex's MEMEX_DATA_DIR)",
  },
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

/**
 * A comma-separated flag item by item, an empty item kept so the write can refuse it (`a, ,b` is not two tags);
 * a flag given empty means none.
 */
export function csv(rawArgs: readonly string[], name: string): string[] {
  return many(rawArgs, name).flatMap((v) => (v.trim() ? v.split(",").map((x) => x.trim()) : []));
}

/** A flag's value that is not of its type is a usage error (exit 2), in argparse's words as memex prints them. */
function badValue(name: string, kind: string, v: string): never {
  throw new MemnoxError("invalid_value", `argument --${name}: invalid ${kind} value: '${v}'`);
}

export function number(args: Flags, name: string): number | undefined {
  const v = text(args, name);
  if (v === undefined) return undefined;
  const n = Number(v);
  if (!v.trim() || !Number.isFinite(n)) badValue(name, "float", v);
  return n;
}

export function integer(args: Flags, name: string): number | undefined {
  const v = text(args, name);
  if (v === undefined) return undefined;
  if (!/^\s*[-+]?\d+\s*$/.test(v)) badValue(name, "int", v);
  return Number(v);
}

export function oneOf<T extends string>(args: Flags, name: string, allowed: readonly T[]): T | undefined {
  const v = text(args, name);
  if (v === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(v))
    throw new MemnoxError(
      "invalid_value",
      `argument --${name}: invalid choice: '${v}' (choose from ${allowed.map((a) => `'${a}'`).join(", ")})`,
    );
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

/** What the shared operations need: the store, and this directory's project worked out once, when needed. */
export function opsDeps(cli: MemoryCli, store: Store): OpsDeps;
export function opsDeps(cli: MemoryCli, store: undefined): Pick<OpsDeps, "currentProject">;
export function opsDeps(cli: MemoryCli, store: Store | undefined): Pick<OpsDeps, "currentProject"> & { store?: Store } {
  let derived: Promise<ProjectRef> | undefined;
  return {
    ...(store ? { store } : {}),
    currentProject: () => {
      derived ??= projectFromCwd(cli.ctx.git, cli.ctx.cwd);
      return derived;
    },
  };
}

/** The project named by flags, else the one this working directory belongs to. */
export async function project(cli: MemoryCli, args: Flags): Promise<ProjectRef> {
  const id = text(args, "project-id");
  if (id) return explicitProject(id, text(args, "project-label"), text(args, "project-locator"));
  const derived = await projectFromCwd(cli.ctx.git, cli.ctx.cwd);
  const label = text(args, "project-label");
  return label ? { ...derived, label } : derived;
}

/** The page a slug means when several have it: --scope, and --project-id with it (the same reading MCP's). */
export async function selector(cli: MemoryCli, args: Flags): Promise<Selector> {
  const scope = oneOf(args, "scope", ["global", "project"] as const);
  const id = text(args, "project-id");
  return selectorOf(opsDeps(cli, undefined), { ...(scope ? { scope } : {}), ...(id ? { project_id: id } : {}) });
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
