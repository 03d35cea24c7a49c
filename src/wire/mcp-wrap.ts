// `memnox mcp wrap` / `unwrap` over every client file on this machine: plan per file, back up, rewrite, verify,
// and report per file what happened. Setup and uninstall call these two functions.
import { existsSync } from "node:fs";
import { describeError, MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { readBackups, restoreFromBackup, rewriteWithBackup } from "./backup.ts";
import { type ClientFile, type ClientId, clientDef, clientFile, isClientId, type Locations } from "./clients.ts";
import { applyEdits, parseDocument } from "./edit/document.ts";
import type { EditableFormat } from "./edit/edits.ts";
import { ParseFailure } from "./edit/jsonc.ts";
import { readConfigFile } from "./files.ts";
import { type KeptUpdate, setWrapNewServers } from "./kept.ts";
import { linkTarget } from "./links.ts";
import {
  type FilePlan,
  planLeftAlone,
  planUnwrap,
  planWrap,
  type ServerOutcome,
  type ServerStatus,
} from "./mcp-plan.ts";
import { type Problem, readClientFile, readClientFiles, serversIn } from "./read.ts";
import type { ServerEntry } from "./servers.ts";

/** The owner name memnox's wrapping has in the backup manifest. */
const WRAP_OWNER = "mcp-wrap";

type FileStatus =
  | "changed"
  | "would-change"
  | "unchanged"
  | "unparsable"
  | "refused"
  | "left-alone"
  | "restored"
  | "removed"
  | "missing";

export interface FileReport {
  readonly client: ClientId;
  readonly file: string;
  readonly scope: ClientFile["scope"];
  readonly status: FileStatus;
  readonly problem?: Problem;
  /** The copy of the file from before memnox changed it, while one is kept. */
  readonly backup?: string;
  /** On "removed": the other parts of memnox still in the file, the reason its bytes did not come back yet. */
  readonly sharedWith?: readonly string[];
  readonly servers: readonly ServerOutcome[];
}

export interface McpReport {
  readonly action: "wrap" | "unwrap";
  readonly launcher: readonly string[];
  readonly dryRun: boolean;
  readonly files: readonly FileReport[];
  readonly counts: Readonly<Partial<Record<ServerStatus, number>>>;
  /** Whether kept.json now says the daemon wraps servers installed later (absent before setup). */
  readonly kept: KeptUpdate | "not-written";
}

interface McpOptions {
  readonly dryRun?: boolean;
  readonly clients?: readonly ClientId[];
}

type WireContext = Pick<Context, "paths" | "cwd" | "env" | "clock" | "selfArgv">;

function locations(ctx: WireContext): Locations {
  return { home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env };
}

function report(file: ClientFile, status: FileStatus, plan: FilePlan | undefined, extra: Partial<FileReport> = {}) {
  const base = { client: file.client, file: file.path, scope: file.scope, status, servers: plan?.outcomes ?? [] };
  return { ...base, ...extra } satisfies FileReport;
}

function problemOf(e: unknown): Problem {
  if (e instanceof ParseFailure) return { message: e.message, line: e.line, column: e.column };
  return { message: describeError(e) };
}

function failed(file: ClientFile, e: unknown, plan?: FilePlan): FileReport {
  if (e instanceof ParseFailure) return report(file, "unparsable", plan, { problem: problemOf(e) });
  if (e instanceof MemnoxError && e.code !== "internal")
    return report(file, "refused", plan, { problem: problemOf(e) });
  throw e;
}

function withBackup(path: string | null | undefined): { backup?: string } {
  return path ? { backup: path } : {};
}

function shared(owners: readonly string[] | undefined): { sharedWith?: readonly string[] } {
  return owners ? { sharedWith: owners } : {};
}

/** Every stdio MCP server of every client here behind the proxy; a second run changes nothing. */
export async function wrapMcpServers(ctx: WireContext, opts: McpOptions = {}): Promise<McpReport> {
  const launcher = linkTarget(ctx);
  const files: FileReport[] = [];
  for (const r of await readClientFiles(locations(ctx), opts.clients)) {
    if (!r.ok) {
      files.push(report(r.file, "unparsable", undefined, { problem: r.problem }));
      continue;
    }
    const format = r.file.format;
    const readOnly = clientDef(r.file.client).readOnly;
    if (readOnly || format === "yaml") {
      const why = readOnly ?? "memnox does not rewrite YAML";
      files.push(report(r.file, "left-alone", planLeftAlone(r.file, r.servers), { problem: { message: why } }));
      continue;
    }
    files.push(wrapOne(ctx, r.file, format, launcher, opts.dryRun === true));
  }
  const kept = opts.dryRun ? "not-written" : setWrapNewServers(ctx.paths.kept, true);
  return { action: "wrap", launcher, dryRun: opts.dryRun === true, files, counts: countOf(files), kept };
}

function wrapOne(
  ctx: WireContext,
  file: ClientFile,
  format: EditableFormat,
  launcher: readonly string[],
  dryRun: boolean,
): FileReport {
  let plan: FilePlan | undefined;
  const transform = (text: string | undefined): string | undefined => {
    if (text === undefined) return undefined;
    plan = planWrap(file, serversIn(file, parseDocument(format, text)), launcher, existsSync);
    return plan.edits.length ? applyEdits(format, text, plan.edits, file.path) : undefined;
  };
  try {
    if (dryRun) {
      const next = transform(readConfigFile(file.path)?.text);
      return report(file, next === undefined ? "unchanged" : "would-change", plan);
    }
    const r = rewriteWithBackup({
      backupDir: ctx.paths.backup,
      path: file.path,
      owner: WRAP_OWNER,
      note: `${file.client}/${file.scope}`,
      nowMs: ctx.clock.now(),
      transform,
    });
    return report(file, r.changed ? "changed" : "unchanged", plan, withBackup(r.backup));
  } catch (e) {
    return failed(file, e, plan);
  }
}

/** memnox's wrapping taken back out of every file it is in: byte for byte where nothing changed since. */
export async function unwrapMcpServers(ctx: WireContext, opts: McpOptions = {}): Promise<McpReport> {
  const files: FileReport[] = [];
  for (const file of await unwrapTargets(ctx, opts.clients)) {
    const before = await readClientFile(file);
    files.push(unwrapOne(ctx, file, before?.ok ? planUnwrap(file, before.servers) : undefined));
  }
  const kept = setWrapNewServers(ctx.paths.kept, false);
  return { action: "unwrap", launcher: linkTarget(ctx), dryRun: false, files, counts: countOf(files), kept };
}

function unwrapOne(ctx: WireContext, file: ClientFile, plan: FilePlan | undefined): FileReport {
  const format = file.format === "yaml" ? undefined : file.format;
  try {
    const r = restoreFromBackup({
      backupDir: ctx.paths.backup,
      path: file.path,
      owners: [WRAP_OWNER],
      strip: (text, original) => {
        if (!format) return undefined;
        const before = original === undefined ? [] : serversOrNone(file, format, original);
        const stripped = planUnwrap(file, serversIn(file, parseDocument(format, text)), before);
        return stripped.edits.length ? applyEdits(format, text, stripped.edits, file.path) : undefined;
      },
    });
    return report(file, r.outcome, plan, { ...withBackup(r.backup), ...shared(r.sharedWith) });
  } catch (e) {
    return failed(file, e, plan);
  }
}

function serversOrNone(file: ClientFile, format: EditableFormat, text: string): ServerEntry[] {
  try {
    return serversIn(file, parseDocument(format, text));
  } catch {
    return [];
  }
}

/** Files memnox wrapped (from the manifest, wherever they are) and files here that hold a wrapped entry. */
async function unwrapTargets(ctx: WireContext, ids: readonly ClientId[] | undefined): Promise<ClientFile[]> {
  const out = new Map<string, ClientFile>();
  for (const b of readBackups(ctx.paths.backup)) {
    const note = b.owners[WRAP_OWNER];
    const [client, scope] = note?.split("/") ?? [];
    if (!client || !isClientId(client) || (ids && !ids.includes(client))) continue;
    out.set(b.path, clientFile(client, { path: b.path, scope: scope === "project" ? "project" : "user" }));
  }
  for (const r of await readClientFiles(locations(ctx), ids)) {
    const wrapped = r.ok && planUnwrap(r.file, r.servers).edits.length > 0;
    if (wrapped && !out.has(r.file.path)) out.set(r.file.path, r.file);
  }
  return [...out.values()];
}

function countOf(files: readonly FileReport[]): Partial<Record<ServerStatus, number>> {
  const counts: Partial<Record<ServerStatus, number>> = {};
  for (const f of files) for (const s of f.servers) counts[s.status] = (counts[s.status] ?? 0) + 1;
  return counts;
}
