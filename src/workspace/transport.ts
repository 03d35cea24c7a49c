// Every call to a control plane goes through here, and here alone is decided what may be called: https, or plain
// http to this machine's own loopback. A hand-edited account file cannot get past it, and neither can a redirect.
import { MemnoxError } from "../core/errors.ts";

const LOOPBACK_V4 = /^127(?:\.\d{1,3}){3}$/;

function isLoopback(hostname: string): boolean {
  const h = hostname.toLowerCase().replace(/^\[|\]$/g, "");
  return h === "localhost" || h === "::1" || LOOPBACK_V4.test(h);
}

/** The control plane's base URL, refused unless https (or http on loopback), with no credentials or query in it. */
export function checkedBase(raw: string): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new MemnoxError("usage", `\`${raw}\` is not a URL`, "--url https://your-control-plane");
  }
  const plainLoopback = url.protocol === "http:" && isLoopback(url.hostname);
  if (url.protocol !== "https:" && !plainLoopback)
    throw new MemnoxError(
      "refused",
      `memnox talks to a control plane over https only (loopback aside), and \`${url.origin}\` is not that`,
      "the bundle carries no signature of its own, so TLS is what vouches for it: use an https:// URL",
    );
  if (url.username || url.password) throw new MemnoxError("refused", "a control plane URL carries no credentials");
  url.search = "";
  url.hash = "";
  return url;
}

interface Reply {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
  /** The body as JSON when it is JSON. */
  readonly json: unknown;
}

interface CallOptions {
  readonly token?: string;
  readonly json?: unknown;
  readonly bytes?: Uint8Array;
  readonly headers?: Readonly<Record<string, string>>;
  readonly timeoutMs?: number;
  /** Hand a 429 back as a reply (the caller waits as told) instead of failing the call as a busy server. */
  readonly tolerate429?: boolean;
}

/** One request; a network failure, a 5xx or a 429 is `unreachable`, a revoked credential is `revoked`. */
export async function call(base: string, method: string, path: string, opts: CallOptions = {}): Promise<Reply> {
  const url = new URL(path.replace(/^\/+/, ""), `${checkedBase(base).href.replace(/\/?$/, "/")}`);
  const headers: Record<string, string> = { accept: "application/json", ...(opts.headers ?? {}) };
  if (opts.token) headers.authorization = `Bearer ${opts.token}`;
  let body: string | Uint8Array | undefined;
  if (opts.bytes) body = opts.bytes;
  else if (opts.json !== undefined) body = JSON.stringify(opts.json);
  if (body !== undefined) headers["content-type"] ??= "application/json";
  let r: Response;
  try {
    r = await fetch(url, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      // A redirect could lead anywhere, plain http included: it is refused, not followed.
      redirect: "manual",
      signal: AbortSignal.timeout(opts.timeoutMs ?? 20_000),
    });
  } catch (e) {
    throw new MemnoxError("unreachable", `could not reach the control plane at ${url.origin}: ${(e as Error).message}`);
  }
  const text = await r.text().catch(() => "");
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (r.status >= 300 && r.status < 400 && r.status !== 304)
    throw new MemnoxError("refused", `the control plane at ${url.origin} redirected; memnox does not follow redirects`);
  if (r.status >= 500)
    throw new MemnoxError("unreachable", `the control plane at ${url.origin} failed (HTTP ${r.status})`);
  // Too many requests: the same as a busy server to a pass, which the loop backs off from.
  if (r.status === 429 && !opts.tolerate429)
    throw new MemnoxError(
      "unreachable",
      `the control plane at ${url.origin} asked to slow down (retry after ${r.headers.get("retry-after") ?? "?"}s)`,
    );
  const err = errorOf(parsed);
  if (r.status === 401 && err?.code === "revoked")
    throw new MemnoxError("revoked", `the workspace revoked this machine's credential${err.by ? ` (${err.by})` : ""}`);
  return { status: r.status, headers: r.headers, text, json: parsed };
}

function errorOf(v: unknown): { code: string; message: string; by?: string } | undefined {
  if (typeof v !== "object" || v === null || !("error" in v)) return undefined;
  const e = (v as { error: unknown }).error;
  if (typeof e !== "object" || e === null) return undefined;
  const o = e as Record<string, unknown>;
  return {
    code: String(o.code ?? ""),
    message: String(o.message ?? ""),
    ...(typeof o.revokedBy === "string" ? { by: o.revokedBy } : {}),
  };
}

/** A reply that is not what was asked for, as one readable error. */
export function unexpected(what: string, r: Reply): MemnoxError {
  const err = errorOf(r.json);
  return new MemnoxError("refused", `${what}: HTTP ${r.status}${err ? ` ${err.code}: ${err.message}` : ""}`);
}
