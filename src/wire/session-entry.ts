// The `memnox-session` MCP server in an agent's own user-level MCP config, in the entry shape its own tools write,
// through the same editors and backups as everything else memnox changes. Never behind the proxy (mcp-plan skips it).
import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import type { AgentName } from "../../hooks/types.ts";
import { describeError, MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { restoreFromBackup, rewriteWithBackup } from "./backup.ts";
import { type ClientFile, clientDef, clientFile, type StdioServer } from "./clients.ts";
import { applyEdits, type Edit, type EditableFormat, parseDocument } from "./edit/document.ts";
import { ParseFailure } from "./edit/jsonc.ts";
import { addServerEdits } from "./entries.ts";
import { linkTarget } from "./links.ts";
import type { Problem } from "./read.ts";
import { serversIn } from "./read.ts";
import { isSessionServer, SESSION_SERVER } from "./wrapping.ts";

/** The owner name the session server has in the backup manifest. */
export const SESSION_OWNER = "session-server";

export type SessionStatus =
  | "added"
  | "repointed"
  | "unchanged"
  | "restored"
  | "removed"
  | "missing"
  | "refused"
  | "unparsable";

export interface SessionReport {
  readonly agent: AgentName;
  readonly file: string;
  readonly status: SessionStatus;
  readonly problem?: Problem;
}

type WireContext = Pick<Context, "paths" | "env" | "cwd" | "clock" | "selfArgv">;

/** The stable binary serving the session tools. */
export function sessionServer(ctx: Pick<Context, "paths" | "selfArgv">): StdioServer {
  const [command = "memnox", ...rest] = linkTarget(ctx);
  return { command, args: [...rest, "mcp", "session", "serve"] };
}

/** The agent's user-level MCP file (Claude Code: the top-level servers of ~/.claude.json). */
export function sessionFile(ctx: Pick<Context, "paths" | "env" | "cwd">, agent: AgentName): ClientFile {
  const def = clientDef(agent);
  const place = def.files({ home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env }).find((p) => p.scope === "user");
  if (!place || def.format === "yaml")
    throw new MemnoxError("internal", `${def.label} has no user MCP file memnox edits`);
  return clientFile(agent, place);
}

function sessionEntries(file: ClientFile, doc: unknown) {
  return serversIn(file, doc).filter((e) => e.scope === "user" && isSessionServer(e.name, e.command, e.args));
}

function report(agent: AgentName, file: string, e: unknown): SessionReport {
  if (e instanceof ParseFailure) {
    return { agent, file, status: "unparsable", problem: { message: e.message, line: e.line, column: e.column } };
  }
  if (e instanceof MemnoxError && e.code !== "internal") {
    return { agent, file, status: "refused", problem: { message: describeError(e) } };
  }
  throw e;
}

/** The session server in `agent`'s MCP config, pointing at the stable binary; a second run changes nothing. */
export function addSessionServer(ctx: WireContext, agent: AgentName): SessionReport {
  const file = sessionFile(ctx, agent);
  const format = file.format as EditableFormat;
  const server = sessionServer(ctx);
  let status: SessionStatus = "unchanged";
  const transform = (text: string | undefined): string | undefined => {
    const current = text ?? (format === "toml" ? "" : "{}\n");
    const existing = sessionEntries(file, parseDocument(format, current));
    let edits: Edit[] = [];
    if (existing.length === 0) {
      edits = addServerEdits(file, SESSION_SERVER, server);
      status = "added";
    } else {
      edits = existing.flatMap((e) =>
        e.command === server.command && JSON.stringify(e.args ?? []) === JSON.stringify(server.args)
          ? []
          : [
              { op: "set" as const, path: [...e.path, ...e.commandPath], value: server.command },
              { op: "set" as const, path: [...e.path, ...e.argsPath], value: [...server.args] },
            ],
      );
      if (edits.length) status = "repointed";
    }
    return edits.length ? applyEdits(format, current, edits, file.path) : undefined;
  };
  try {
    mkdirSync(dirname(file.path), { recursive: true, mode: 0o700 });
    rewriteWithBackup({
      backupDir: ctx.paths.backup,
      path: file.path,
      owner: SESSION_OWNER,
      note: `${agent}/user`,
      nowMs: ctx.clock.now(),
      transform,
    });
    return { agent, file: file.path, status };
  } catch (e) {
    return report(agent, file.path, e);
  }
}

/** The session server out of `agent`'s MCP config: the bytes back while nothing else changed, else its entry. */
export function removeSessionServer(ctx: WireContext, agent: AgentName): SessionReport {
  const file = sessionFile(ctx, agent);
  const format = file.format as EditableFormat;
  try {
    const r = restoreFromBackup({
      backupDir: ctx.paths.backup,
      path: file.path,
      owners: [SESSION_OWNER],
      strip: (text) => {
        const edits: Edit[] = sessionEntries(file, parseDocument(format, text)).map((e) => ({
          op: "remove",
          path: e.path,
        }));
        return edits.length ? applyEdits(format, text, edits, file.path) : undefined;
      },
    });
    return { agent, file: file.path, status: r.outcome };
  } catch (e) {
    return report(agent, file.path, e);
  }
}

/** Whether `agent`'s MCP config has the session server now. */
export function hasSessionServer(
  ctx: Pick<Context, "paths" | "env" | "cwd">,
  agent: AgentName,
  read: (path: string) => string | undefined,
): boolean {
  const file = sessionFile(ctx, agent);
  const text = read(file.path);
  if (text === undefined) return false;
  try {
    return sessionEntries(file, parseDocument(file.format as EditableFormat, text)).length > 0;
  } catch {
    return false;
  }
}
