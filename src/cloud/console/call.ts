// The console holds no logic of its own: every page reads, and every form writes, by calling a /v1/ route in process as
// the signed-in person, through the same role check (roles.ts) and the same handler a script's request meets.
import type { Session } from "../auth.ts";
import type { Call } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { checkRequestText } from "../input.ts";
import { authorize } from "../roles.ts";
import { ROUTES } from "../routes/index.ts";

/** A console request: the API's call plus the browser session and, on a POST, the form it sent. */
export interface ConsoleCall extends Call {
  readonly session: Session | undefined;
  readonly form: URLSearchParams;
  /** The server's log: what a person is not shown (why a sign-in was refused) goes here. */
  readonly log: (line: string) => void;
}

type ApiKey = `${"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} /v1/${string}`;

const byKey = new Map(ROUTES.map((r) => [`${r.method} ${r.path}`, r]));

interface Invoke {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** A JSON body, or the raw text for routes that read text (a rule set). */
  readonly body?: Readonly<Record<string, unknown>>;
  readonly text?: string;
}

/** The route's path with its parameters filled in, each one encoded. */
function pathOf(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([a-z]+)/g, (_m, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`no value for :${k} in ${path}`);
    return encodeURIComponent(v);
  });
}

/**
 * Calls `key` ("POST /v1/machines/:id/mode") as `c.who`: authorize() then the handler, exactly as the HTTP face does.
 * A refusal or failure throws the route's own HttpError, which the page shows; success returns its JSON (typed by
 * the caller, which names the route's own view type).
 */
export async function invoke<T>(c: ConsoleCall, key: ApiKey, opts: Invoke = {}): Promise<T> {
  const route = byKey.get(key);
  if (!route) throw new Error(`the console calls ${key}, which is not in the route table`);
  const params = opts.params ?? {};
  const url = new URL(pathOf(route.path, params), c.url.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== "") url.searchParams.set(k, v);
  // A form's fields become the route's path and query here: held to the same edge a script's request meets.
  checkRequestText(params, url);
  const body = opts.text ?? (opts.body ? JSON.stringify(opts.body) : undefined);
  const req = new Request(url.href, {
    method: route.method,
    headers: opts.body ? { "content-type": "application/json" } : {},
    ...(body !== undefined && route.method !== "GET" ? { body } : {}),
  });
  authorize(c.who, route);
  const res = await route.handler({ ...c, req, url, params });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (res.status >= 400) {
    const e = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new HttpError(res.status, e?.code ?? "failed", e?.message ?? `the control plane answered ${res.status}`);
  }
  return parsed as T;
}

/** Whether `c.who` could call `key`: what decides if a page draws a control (the server still checks on the call). */
export function may(c: ConsoleCall, key: ApiKey): boolean {
  const route = byKey.get(key);
  if (!route) return false;
  try {
    authorize(c.who, route);
    return true;
  } catch {
    return false;
  }
}
