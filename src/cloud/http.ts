// JSON in and out, errors as `{error: {code, message}}`, and the shape every route handler has.

import type { GenericSchema } from "valibot";
import { isRecord } from "../core/record.ts";
import type { Detections } from "./detection.ts";
import { HttpError } from "./http-error.ts";
import type { Guard } from "./limits.ts";
import type { Acts, Need, Principal } from "./roles.ts";
import type { Db } from "./store/db.ts";

/** OpenID Connect for the console: one issuer and one audience (the client id) per deployment. */
export interface SignInConfig {
  readonly issuer: string;
  readonly clientId: string;
  /** Absent for a public client; never printed, never in a page. */
  readonly clientSecret?: string;
  /** An unknown verified identity gets a new organization of its own; otherwise it is refused. */
  readonly selfService: boolean;
}

export interface ServerConfig {
  /** How machines and people reach this server (the base of `verification_uri`); else the request's own origin. */
  readonly publicUrl?: string;
  /** Seconds a device code is good for, and between a machine's polls (RFC 8628 `expires_in`, `interval`). */
  readonly deviceTtlS: number;
  readonly deviceIntervalS: number;
  readonly version: string;
  /** The console's sign-in; without it the console says sign-in is not configured. */
  readonly signIn?: SignInConfig;
  /** The one secret every connected system's deliveries are signed with; without it the inbound route refuses all. */
  readonly webhookSecret?: string;
  /** The deployment's model credential for extraction; without it extraction answers 503 and nothing else changes. */
  readonly model?: ModelConfig;
}

export interface ModelConfig {
  /** Never printed, never in a row: sent only as the provider's own header. */
  readonly apiKey: string;
  readonly baseUrl: string;
  /** The deployment's default model, offered whatever else is. */
  readonly model: string;
  /** The model ids the deployment offers (MEMNOX_MODELS); absent: every model the adapter constructs. */
  readonly offered?: readonly string[];
}

export interface Call {
  readonly req: Request;
  readonly url: URL;
  readonly params: Readonly<Record<string, string>>;
  readonly who: Principal | undefined;
  readonly db: Db;
  readonly config: ServerConfig;
  readonly now: () => number;
  /** The server's limits, for what a handler counts itself (a batch's rows, a source's deliveries). */
  readonly guard?: Guard;
  /** The address the request came from, as the server saw it. */
  readonly address?: string;
  /** The server's passes of the detectors, shared by the batches of one workspace. */
  readonly detections?: Detections;
}

type Handler = (c: Call) => Promise<Response>;

export interface Route {
  readonly method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  /** Bun's route syntax: `/v1/machines/:id`. */
  readonly path: string;
  /** Checked before the handler runs, in roles.ts and nowhere else. */
  readonly needs: readonly Need[];
  /** What kind of act it is (roles.ts): reading is automation's, changing a person's, unless said here. */
  readonly by?: Acts;
  /** The one schema its JSON body is held to before the handler reads it; `text` for a body read as text. */
  readonly body?: GenericSchema<unknown, unknown> | "text";
  readonly handler: Handler;
}

const JSON_HEADERS = { "content-type": "application/json; charset=utf-8", "cache-control": "no-store" };

export function json(value: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(`${JSON.stringify(value)}\n`, { status, headers: { ...JSON_HEADERS, ...headers } });
}

export function errorResponse(e: HttpError): Response {
  const retry = e.status === 429 || e.status === 503 ? e.extra.retryAfter : undefined;
  return json(
    { error: { code: e.code, message: e.message, ...e.extra } },
    e.status,
    typeof retry === "number" ? { "retry-after": String(retry) } : {},
  );
}

export const MAX_BODY_BYTES = 4 * 1024 * 1024;

/** The body as JSON; a body that is not a JSON object is a 400 naming the problem. */
export async function bodyJson(c: Call): Promise<Record<string, unknown>> {
  const text = await c.req.text();
  if (text.trim() === "") return {};
  let v: unknown;
  try {
    v = JSON.parse(text);
  } catch (e) {
    throw new HttpError(400, "bad_json", `the body is not JSON: ${(e as Error).message}`);
  }
  if (!isRecord(v)) throw new HttpError(400, "bad_request", "the body must be a JSON object");
  return v;
}

export function str(body: Record<string, unknown>, key: string, opts: { optional: true }): string | undefined;
export function str(body: Record<string, unknown>, key: string): string;
export function str(body: Record<string, unknown>, key: string, opts?: { optional: true }): string | undefined {
  const v = body[key];
  if (v === undefined || v === null) {
    if (opts?.optional) return undefined;
    throw new HttpError(400, "bad_request", `\`${key}\` is required`);
  }
  if (typeof v !== "string" || v === "") throw new HttpError(400, "bad_request", `\`${key}\` must be non-empty text`);
  if (v.length > 4096) throw new HttpError(400, "bad_request", `\`${key}\` is longer than 4096 characters`);
  return v;
}
