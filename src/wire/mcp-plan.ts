// What `mcp wrap` and `mcp unwrap` would change in one parsed file: an outcome per server and the edits, no I/O.
import type { ClientFile } from "./clients.ts";
import type { Edit } from "./edit/edits.ts";
import { describeServer, type ServerInfo } from "./read.ts";
import type { ServerEntry } from "./servers.ts";
import { isSessionServer, unwrapCommand, wrapCommand } from "./wrapping.ts";

export type ServerStatus =
  /** Put behind the proxy by this run. */
  | "wrapped"
  | "already-wrapped"
  /** Was wrapped with a memnox binary that no longer exists, and now points at this one. */
  | "repointed"
  /** http or sse: the proxy speaks stdio, so it is listed and not wrapped. */
  | "remote"
  /** memnox-session: never behind the proxy, which would put memnox in front of itself. */
  | "self"
  /** No command memnox can put the proxy in front of (an extension's server, an odd shape). */
  | "no-command"
  /** In a file memnox reads but does not edit. */
  | "left-alone"
  | "unwrapped"
  | "not-wrapped";

export interface ServerOutcome {
  readonly server: ServerInfo;
  readonly status: ServerStatus;
}

export interface FilePlan {
  readonly edits: readonly Edit[];
  readonly outcomes: readonly ServerOutcome[];
}

function commandEdits(e: ServerEntry, command: string, args: readonly string[]): Edit[] {
  return [
    { op: "set", path: [...e.path, ...e.commandPath], value: command },
    { op: "set", path: [...e.path, ...e.argsPath], value: [...args] },
  ];
}

function wrapStatus(e: ServerEntry, exists: (path: string) => boolean): ServerStatus {
  if (isSessionServer(e.name, e.command, e.args)) return "self";
  if (e.transport === "http" || e.transport === "sse") return "remote";
  if (e.transport !== "stdio" || e.command === undefined) return "no-command";
  if (unwrapCommand(e.command, e.args ?? [])) return exists(e.command) ? "already-wrapped" : "repointed";
  return "wrapped";
}

/** Every stdio server in the file behind the proxy started by `launcher`; running it twice changes nothing. */
export function planWrap(
  file: ClientFile,
  servers: readonly ServerEntry[],
  launcher: readonly string[],
  exists: (path: string) => boolean,
): FilePlan {
  const edits: Edit[] = [];
  const outcomes: ServerOutcome[] = [];
  for (const e of servers) {
    const status = wrapStatus(e, exists);
    outcomes.push({ server: describeServer(file, e), status });
    if (e.command === undefined || (status !== "wrapped" && status !== "repointed")) continue;
    const inner = unwrapCommand(e.command, e.args ?? []);
    const original = inner ?? { command: e.command, args: e.args ?? [] };
    const wrapped = wrapCommand(launcher, e.name, original.command, original.args);
    edits.push(...commandEdits(e, wrapped.command, wrapped.args));
  }
  return { edits, outcomes };
}

/**
 * memnox's wrapping taken off every server that has it; everything else in the file stays. `original` (the
 * servers in the backup) says which entries had no argument list before, so none is left behind.
 */
export function planUnwrap(
  file: ClientFile,
  servers: readonly ServerEntry[],
  original: readonly ServerEntry[] = [],
): FilePlan {
  const edits: Edit[] = [];
  const outcomes: ServerOutcome[] = [];
  const key = (e: ServerEntry) => e.path.join("\u0000");
  const before = new Map(original.map((e) => [key(e), e]));
  for (const e of servers) {
    const inner = e.command !== undefined ? unwrapCommand(e.command, e.args ?? []) : undefined;
    const argless = inner?.args.length === 0 && before.get(key(e))?.args === undefined && before.has(key(e));
    if (inner) edits.push(...commandEdits(e, inner.command, inner.args));
    if (inner && argless) edits.splice(-1, 1, { op: "remove", path: [...e.path, ...e.argsPath] });
    outcomes.push({ server: describeServer(file, e), status: inner ? "unwrapped" : "not-wrapped" });
  }
  return { edits, outcomes };
}

/** A read-only client's servers, listed and said to be left alone. */
export function planLeftAlone(file: ClientFile, servers: readonly ServerEntry[]): FilePlan {
  return { edits: [], outcomes: servers.map((e) => ({ server: describeServer(file, e), status: "left-alone" })) };
}
