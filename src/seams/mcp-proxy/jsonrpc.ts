// The little of JSON-RPC 2.0 the proxy reads: loose shapes, because both ends may add fields we do not know.
import { isRecord } from "../../core/record.ts";
export type JsonRpcId = string | number;
export type Json = Record<string, unknown>;

/** A parsed message; anything it does not name is kept as it came. */
export interface Message extends Json {
  readonly id?: unknown;
  readonly method?: unknown;
  readonly params?: unknown;
  readonly result?: unknown;
  readonly error?: unknown;
}

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INVALID_PARAMS = -32602;
/** Implementation-defined range: the message was too large to relay. */
export const MESSAGE_TOO_LARGE = -32001;

const MODERN_VERSION_KEY = "io.modelcontextprotocol/protocolVersion";
export const SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo";

export function isId(v: unknown): v is JsonRpcId {
  return typeof v === "string" || (typeof v === "number" && Number.isFinite(v));
}

/** Ids are per sender and `1` is not `"1"`. */
export function idKey(id: JsonRpcId): string {
  return typeof id === "string" ? `s:${id}` : `n:${id}`;
}

export function isResponse(m: Message): boolean {
  return m.method === undefined && isId(m.id) && ("result" in m || "error" in m);
}

export function params(m: Message): Json {
  return isRecord(m.params) ? m.params : {};
}

/** The 2026-07-28 era names its version in every request's `_meta`; the legacy era opened with `initialize`. */
export function isModern(m: Message): boolean {
  const meta = params(m)._meta;
  return isRecord(meta) && typeof meta[MODERN_VERSION_KEY] === "string";
}

export function errorMessage(id: JsonRpcId | null, code: number, message: string): string {
  return JSON.stringify({ jsonrpc: "2.0", id, error: { code, message } });
}

export function resultMessage(id: JsonRpcId, result: Json): string {
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

export function notification(method: string, body: Json): string {
  return JSON.stringify({ jsonrpc: "2.0", method, params: body });
}
