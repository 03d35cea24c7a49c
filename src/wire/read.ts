// Reading a client's file into its servers. A file that does not parse grants nothing and is named with the
// place it fails; what leaves this module is the masked ServerInfo, never an env value.
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { maskArgv, maskSecrets } from "../core/secrets.ts";
import type { ClientFile, ClientId, Locations } from "./clients.ts";
import { CLIENT_IDS, candidateFiles, serverMaps } from "./clients.ts";
import { parseDocument } from "./edit/document.ts";
import { ParseFailure } from "./edit/jsonc.ts";
import { type ConfigBytes, readConfigFile } from "./files.ts";
import { readEntry, type ServerEntry, type ServerFacts } from "./servers.ts";
import { unwrapCommand } from "./wrapping.ts";

interface ReadOk {
  readonly ok: true;
  readonly file: ClientFile;
  readonly config: ConfigBytes;
  readonly doc: unknown;
  readonly servers: readonly ServerEntry[];
}

export interface Problem {
  readonly message: string;
  readonly line?: number;
  readonly column?: number;
}

interface ReadBad {
  readonly ok: false;
  readonly file: ClientFile;
  readonly problem: Problem;
}

type ReadResult = ReadOk | ReadBad;

/** The servers in one parsed document of `file`'s client. */
export function serversIn(file: ClientFile, doc: unknown): ServerEntry[] {
  const out: ServerEntry[] = [];
  for (const where of serverMaps(file, doc)) {
    let node: unknown = doc;
    for (const key of where.path) node = isRecord(node) ? node[key] : undefined;
    if (!isRecord(node)) continue;
    for (const [name, raw] of Object.entries(node)) {
      const entry = readEntry(name, raw, where);
      if (entry) out.push(entry);
    }
  }
  return out;
}

async function parseClientText(file: ClientFile, text: string): Promise<unknown> {
  if (file.format !== "yaml") return parseDocument(file.format, text);
  const { parse, YAMLParseError } = await import("yaml");
  try {
    return parse(text);
  } catch (e) {
    if (!(e instanceof YAMLParseError)) throw e;
    const at = e.linePos?.[0];
    throw new ParseFailure(e.message.split("\n")[0] ?? "invalid YAML", at?.line ?? 1, at?.col ?? 1);
  }
}

/** One file, or undefined when it does not exist. */
export async function readClientFile(file: ClientFile): Promise<ReadResult | undefined> {
  let config: ConfigBytes | undefined;
  try {
    config = readConfigFile(file.path);
  } catch (e) {
    if (!(e instanceof MemnoxError)) throw e;
    return { ok: false, file, problem: { message: e.message } };
  }
  if (!config) return undefined;
  if (config.text === undefined) return { ok: false, file, problem: { message: "it is not UTF-8 text" } };
  try {
    const doc = await parseClientText(file, config.text);
    return { ok: true, file, config, doc, servers: serversIn(file, doc) };
  } catch (e) {
    if (e instanceof ParseFailure) {
      return { ok: false, file, problem: { message: e.message, line: e.line, column: e.column } };
    }
    throw e;
  }
}

/** Every existing file of the chosen clients, each real file once even when reached through a symlink. */
export async function readClientFiles(loc: Locations, ids: readonly ClientId[] = CLIENT_IDS): Promise<ReadResult[]> {
  const out: ReadResult[] = [];
  const targets = new Set<string>();
  for (const f of candidateFiles(loc, ids)) {
    const r = await readClientFile(f);
    if (!r) continue;
    const target = r.ok ? r.config.target : f.path;
    if (targets.has(target)) continue;
    targets.add(target);
    out.push(r);
  }
  return out;
}

/** What may be printed about a server: env keys only, credential-shaped arguments and URL secrets masked. */
export interface ServerInfo extends ServerFacts {
  readonly client: ClientId;
  readonly file: string;
  readonly name: string;
  /** Whether the entry runs through memnox's proxy; command and args are then the server behind it. */
  readonly wrapped: boolean;
}

export function describeServer(file: ClientFile, e: ServerEntry): ServerInfo {
  const inner = e.command !== undefined ? unwrapCommand(e.command, e.args ?? []) : undefined;
  const command = inner?.command ?? e.command;
  const args = inner?.args ?? e.args;
  return {
    client: file.client,
    file: file.path,
    scope: e.scope,
    ...(e.project !== undefined ? { project: e.project } : {}),
    name: e.name,
    transport: e.transport,
    ...(command !== undefined ? { command } : {}),
    ...(args !== undefined ? { args: maskArgv(args) } : {}),
    envKeys: e.envKeys,
    ...(e.url !== undefined ? { url: maskSecrets(e.url) } : {}),
    disabled: e.disabled,
    wrapped: inner !== undefined,
  };
}
