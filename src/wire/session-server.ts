// The `memnox-session` server in every installed agent that reads MCP servers from a file, or taken back out of all
// of them: through the client registry, the span editors and the backups, like every config memnox touches.
// `mcp session on|off` and setup call these; off is kept in kept.json so nothing puts the server back.

import { existsSync } from "node:fs";
import { dirname, join } from "node:path";
import { claudeDir } from "../core/agent-paths.ts";
import { describeError, MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { readBackups, restoreFromBackup, rewriteWithBackup } from "./backup.ts";
import { type ClientFile, type ClientId, clientDef, clientFile, type Locations, type StdioServer } from "./clients.ts";
import { applyEdits, parseDocument } from "./edit/document.ts";
import type { Edit, EditableFormat } from "./edit/edits.ts";
import { ParseFailure } from "./edit/jsonc.ts";
import { addServerEdits } from "./entries.ts";
import { readConfigFile } from "./files.ts";
import { readKept, updateKept, writeKept } from "./kept.ts";
import { linkTarget } from "./links.ts";
import { readClientFile, serversIn } from "./read.ts";
import type { ServerEntry } from "./servers.ts";
import { isSessionServer, SESSION_SERVER } from "./wrapping.ts";

/** The owner name the session server's entries have in the backup manifest. */
const SESSION_OWNER = "mcp-session";
/** The agents that read MCP servers from a file and get the session tools (03-govern-in-your-session). */
export const SESSION_CLIENTS: readonly ClientId[] = ["claude-code", "codex", "cursor", "gemini-cli", "windsurf"];
export type SessionFileStatus =
  | "added"
  | "updated"
  | "present"
  | "would-add"
  | "restored"
  | "removed"
  | "absent"
  | "unparsable"
  | "refused";

interface SessionFileReport {
  readonly client: ClientId;
  readonly file: string;
  readonly status: SessionFileStatus;
  readonly problem?: string;
  /** On "removed": the other parts of memnox still in the file, the reason its bytes did not come back yet. */
  readonly sharedWith?: readonly string[];
}

export interface SessionServerReport {
  readonly action: "on" | "off";
  /** The entry agents start: memnox's stable binary (or this one) with `mcp session serve`. */
  readonly entry: { readonly command: string; readonly args: readonly string[] };
  readonly files: readonly SessionFileReport[];
  /** Clients of SESSION_CLIENTS that are not installed here, and so were not given the server. */
  readonly notInstalled: readonly ClientId[];
}

type WireContext = Pick<Context, "paths" | "cwd" | "env" | "clock" | "selfArgv">;

function locations(ctx: WireContext): Locations {
  return { home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env };
}

/** The entry for `client`: it tells the server which agent launched it, and where memnox keeps its files. */
export function sessionEntry(ctx: WireContext, client: ClientId): StdioServer {
  const [command = "memnox", ...prefix] = linkTarget(ctx);
  const root = ctx.env.MEMNOX_HOME;
  const ownHome = root && root !== join(ctx.paths.home, ".memnox") ? { MEMNOX_HOME: root } : {};
  return { command, args: [...prefix, "mcp", "session", "serve"], env: { MEMNOX_AGENT_NAME: client, ...ownHome } };
}

/** The user-level file of `client`, when the agent is installed: its file or its own directory exists. */
export function installedFile(ctx: WireContext, client: ClientId): ClientFile | undefined {
  const place = clientDef(client)
    .files(locations(ctx))
    .find((p) => p.scope === "user");
  if (!place) return undefined;
  const dir = dirname(place.path);
  const ownDir = dir !== ctx.paths.home && existsSync(dir);
  const claude = client === "claude-code" && existsSync(claudeDir(ctx.paths.home, ctx.env));
  return existsSync(place.path) || ownDir || claude ? clientFile(client, place) : undefined;
}

/** Whether a person turned the session server off (`mcp session off`) and nobody has turned it on since. */
export function sessionServerKeptOff(keptFile: string): boolean {
  return readKept(keptFile)?.sessionServer === false;
}

interface SessionOptions {
  readonly clients?: readonly ClientId[];
  readonly dryRun?: boolean;
  /** Off without recording it as a person's choice (uninstall, which leaves no kept.json behind). */
  readonly unrecorded?: boolean;
}

/** Adds (or repoints) the session server in every installed agent's user file; clears a recorded off. */
export async function sessionServerOn(ctx: WireContext, opts: SessionOptions = {}): Promise<SessionServerReport> {
  const chosen = SESSION_CLIENTS.filter((c) => !opts.clients || opts.clients.includes(c));
  const files: SessionFileReport[] = [];
  const notInstalled: ClientId[] = [];
  for (const client of chosen) {
    const file = installedFile(ctx, client);
    if (!file) notInstalled.push(client);
    else files.push(addOne(ctx, file, sessionEntry(ctx, client), opts.dryRun === true));
  }
  if (!opts.dryRun) setKeptSessionServer(ctx.paths.kept, true);
  const [command = "memnox", ...args] = [...linkTarget(ctx), "mcp", "session", "serve"];
  return { action: "on", entry: { command, args }, files, notInstalled };
}

function addOne(ctx: WireContext, file: ClientFile, entry: StdioServer, dryRun: boolean): SessionFileReport {
  const format = editable(file);
  let status: SessionFileStatus = "present";
  const transform = (text: string | undefined): string | undefined => {
    const current = text ?? (format === "toml" ? "" : "{}\n");
    const mine = serversIn(file, parseDocument(format, current)).filter(isOurs);
    const want = addServerEdits(file, SESSION_SERVER, entry);
    const same = mine.find((e) => e.name === SESSION_SERVER && sameEntry(e, entry));
    if (same && mine.length === 1) return undefined;
    status = mine.length > 0 ? "updated" : dryRun ? "would-add" : "added";
    const drop: Edit[] = mine.filter((e) => e.name !== SESSION_SERVER).map((e) => ({ op: "remove", path: e.path }));
    return applyEdits(format, current, [...drop, ...want], file.path);
  };
  try {
    if (dryRun) {
      transform(readConfigFile(file.path)?.text);
      return { client: file.client, file: file.path, status };
    }
    rewriteWithBackup({
      backupDir: ctx.paths.backup,
      path: file.path,
      owner: SESSION_OWNER,
      note: `${file.client}/${file.scope}`,
      nowMs: ctx.clock.now(),
      transform,
    });
    return { client: file.client, file: file.path, status };
  } catch (e) {
    return failed(file, e);
  }
}

/** Takes every session server entry out of every file that has one: byte for byte where nothing changed since. */
export async function sessionServerOff(ctx: WireContext, opts: SessionOptions = {}): Promise<SessionServerReport> {
  const chosen = SESSION_CLIENTS.filter((c) => !opts.clients || opts.clients.includes(c));
  const files: SessionFileReport[] = [];
  for (const file of offTargets(ctx, chosen)) {
    const r = await readClientFile(file);
    if (!r) continue;
    if (!r.ok) {
      // Only the user file is where `on` writes; a broken project file is the project's business.
      if (file.scope === "user")
        files.push({ client: file.client, file: file.path, status: "unparsable", problem: r.problem.message });
      continue;
    }
    if (!r.servers.some(isOurs) && !ownedByUs(ctx, r.config.target)) continue;
    files.push(removeOne(ctx, file));
  }
  if (!opts.unrecorded) setKeptSessionServer(ctx.paths.kept, false);
  const [command = "memnox", ...args] = [...linkTarget(ctx), "mcp", "session", "serve"];
  return { action: "off", entry: { command, args }, files, notInstalled: [] };
}

function removeOne(ctx: WireContext, file: ClientFile): SessionFileReport {
  const format = editable(file);
  try {
    const ours = (text: string) => serversIn(file, parseDocument(format, text)).filter(isOurs);
    const r = restoreFromBackup({
      backupDir: ctx.paths.backup,
      path: file.path,
      owners: [SESSION_OWNER],
      strip: (text) => {
        const edits: Edit[] = ours(text).map((e) => ({ op: "remove", path: e.path }));
        return edits.length > 0 ? applyEdits(format, text, edits, file.path) : undefined;
      },
      // An original that already held the session server would bring it back: then only removal takes it out.
      bytesOk: (original) => original === undefined || ours(original).length === 0,
    });
    const status: SessionFileStatus =
      r.outcome === "restored" ? "restored" : r.outcome === "removed" ? "removed" : "absent";
    return { client: file.client, file: file.path, status, ...(r.sharedWith ? { sharedWith: r.sharedWith } : {}) };
  } catch (e) {
    return failed(file, e);
  }
}

/** Every candidate file of the chosen clients, and any file the manifest says holds our entry. */
function offTargets(ctx: WireContext, clients: readonly ClientId[]): ClientFile[] {
  const out = new Map<string, ClientFile>();
  for (const client of clients) {
    for (const place of clientDef(client).files(locations(ctx))) out.set(place.path, clientFile(client, place));
  }
  for (const b of readBackups(ctx.paths.backup)) {
    const [client, scope] = b.owners[SESSION_OWNER]?.split("/") ?? [];
    const id = clients.find((c) => c === client);
    if (id && !out.has(b.path))
      out.set(b.path, clientFile(id, { path: b.path, scope: scope === "project" ? "project" : "user" }));
  }
  return [...out.values()];
}

function ownedByUs(ctx: WireContext, target: string): boolean {
  return readBackups(ctx.paths.backup).some((b) => b.target === target && b.owners[SESSION_OWNER] !== undefined);
}

function isOurs(e: ServerEntry): boolean {
  return isSessionServer(e.name, e.command, e.args ?? []);
}

function sameEntry(e: ServerEntry, want: StdioServer): boolean {
  const args = e.args ?? [];
  return e.command === want.command && args.length === want.args.length && args.every((a, i) => a === want.args[i]);
}

function editable(file: ClientFile): EditableFormat {
  if (file.format === "yaml") throw new MemnoxError("refused", `memnox does not rewrite YAML (\`${file.path}\`)`);
  return file.format;
}

function failed(file: ClientFile, e: unknown): SessionFileReport {
  if (e instanceof ParseFailure) {
    return { client: file.client, file: file.path, status: "unparsable", problem: `line ${e.line}: ${e.message}` };
  }
  if (e instanceof MemnoxError && e.code !== "internal") {
    return { client: file.client, file: file.path, status: "refused", problem: describeError(e) };
  }
  throw e;
}

/** Records on or off in kept.json, creating the file for an off so the choice outlives everything else. */
export function setKeptSessionServer(keptFile: string, on: boolean): void {
  if (on) updateKept(keptFile, () => ({ sessionServer: true }));
  else writeKept(keptFile, () => ({ sessionServer: false }));
}
