// A /v1/ route called in process as a given caller: the route table's own requirement (roles.ts authorize()) and its
// own handler, exactly as the HTTP face runs them. The console's pages and the chat commands both act through it, so
// neither holds a second copy of what a route does or who may do it.
import type { Call, Route } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { checkRequestText } from "../input.ts";
import { authorize, type Principal } from "../roles.ts";

export type ApiKey = `${"GET" | "POST" | "PUT" | "PATCH" | "DELETE"} /v1/${string}`;

export interface Invoke {
  readonly params?: Readonly<Record<string, string>>;
  readonly query?: Readonly<Record<string, string | undefined>>;
  /** A JSON body, or the raw text for routes that read text (a rule set). */
  readonly body?: Readonly<Record<string, unknown>>;
  readonly text?: string;
  /** Raw bytes for routes that read them (an export to sweep), sent with their content type. */
  readonly bytes?: { readonly data: Uint8Array; readonly type: string };
}

/** The route's path with its parameters filled in, each one encoded. */
function pathOf(path: string, params: Readonly<Record<string, string>>): string {
  return path.replace(/:([a-z]+)/g, (_m, k: string) => {
    const v = params[k];
    if (v === undefined) throw new Error(`no value for :${k} in ${path}`);
    return encodeURIComponent(v);
  });
}

/** The route `key` names in `routes`, or a programming error (a caller naming a route the table does not hold). */
export function routeOf(routes: readonly Route[], key: ApiKey): Route {
  const route = routes.find((r) => `${r.method} ${r.path}` === key);
  if (!route) throw new Error(`${key} is not in the route table`);
  return route;
}

/**
 * Calls `key` ("POST /v1/machines/:id/mode") as `who`: authorize() then the handler. A refusal or failure throws the
 * route's own HttpError; success returns its JSON (typed by the caller, which names the route's own view type).
 */
export async function callRoute<T>(route: Route, c: Call, who: Principal | undefined, opts: Invoke = {}): Promise<T> {
  const params = opts.params ?? {};
  const url = new URL(pathOf(route.path, params), c.url.origin);
  for (const [k, v] of Object.entries(opts.query ?? {})) if (v !== undefined && v !== "") url.searchParams.set(k, v);
  // Fields a person typed become the route's path and query here: held to the same edge a script's request meets.
  checkRequestText(params, url);
  const body = opts.bytes?.data ?? opts.text ?? (opts.body ? JSON.stringify(opts.body) : undefined);
  const req = new Request(url.href, {
    method: route.method,
    headers: opts.bytes ? { "content-type": opts.bytes.type } : opts.body ? { "content-type": "application/json" } : {},
    ...(body !== undefined && route.method !== "GET" ? { body } : {}),
  });
  authorize(who, route);
  const res = await route.handler({ ...c, who, req, url, params });
  const text = await res.text();
  const parsed: unknown = text ? JSON.parse(text) : null;
  if (res.status >= 400) {
    const e = (parsed as { error?: { code?: string; message?: string } } | null)?.error;
    throw new HttpError(res.status, e?.code ?? "failed", e?.message ?? `the control plane answered ${res.status}`);
  }
  return parsed as T;
}
