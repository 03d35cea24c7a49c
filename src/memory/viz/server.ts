// `memnox memory viz`: a read-only dashboard on loopback. GET and HEAD only, a Host it answers to only as itself (so
// another site cannot reach it through DNS rebinding), a CSP that allows nothing from elsewhere, htmx from memory.
import htmx from "htmx.org/dist/htmx.min.js" with { type: "text" };
import { MemnoxError } from "../../core/errors.ts";
import type { Store } from "../pages/store.ts";
import { partial, shell, type ViewName } from "./html.ts";
import { STYLE } from "./style.ts";
import {
  healthView,
  memoriesView,
  notFoundView,
  overviewView,
  type Params,
  pageView,
  searchResults,
  searchView,
  sessionsView,
  sessionView,
  tokensView,
} from "./views.ts";

const DEFAULT_PORT = 7171;
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

const HEADERS = {
  "content-security-policy":
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action 'self'; base-uri 'none'; frame-ancestors 'none'",
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "cache-control": "no-store",
  "x-frame-options": "DENY",
};

interface Routed {
  readonly title: string;
  readonly view?: ViewName;
  readonly html: string;
}

/** The fragment for a path (without /view), or undefined when nothing is served there. */
function fragment(store: Store, path: string, p: Params): Routed | undefined {
  const one = (prefix: string) => (path.startsWith(prefix) ? decodeURIComponent(path.slice(prefix.length)) : undefined);
  if (path === "/overview" || path === "/") return { title: "Overview", view: "overview", html: overviewView(store) };
  if (path === "/memories" || path === "/pages")
    return { title: "Memories", view: "memories", html: memoriesView(store, p) };
  if (path === "/search") return { title: "Search", view: "search", html: searchView(store, p) };
  if (path === "/sessions") return { title: "Sessions", view: "sessions", html: sessionsView(store) };
  if (path === "/tokens") return { title: "Token use", view: "tokens", html: tokensView(store) };
  if (path === "/health") return { title: "Health", view: "health", html: healthView(store) };
  const session = one("/session/");
  if (session !== undefined) return { title: "Session", view: "sessions", html: sessionView(store, session) };
  const page = one("/page/");
  if (page !== undefined) return { title: "Memory", view: "memories", html: pageView(store, page, p) };
  return undefined;
}

function respond(body: string, type: string, status = 200, extra: Record<string, string> = {}): Response {
  return new Response(body, { status, headers: { ...HEADERS, "content-type": type, ...extra } });
}

const html = (body: string, status = 200) => respond(body, "text/html; charset=utf-8", status);

/** One request, answered without touching the store's files: every handler reads, none writes. */
function handle(store: Store, req: Request, port: number): Response {
  const url = new URL(req.url);
  const host = (req.headers.get("host") ?? "").replace(/:\d+$/, "").replace(/^\[|\]$/g, "");
  const hostPort = Number((req.headers.get("host") ?? "").match(/:(\d+)$/)?.[1] ?? "80");
  if (!LOOPBACK.has(host) || hostPort !== port)
    return respond("memnox memory viz answers only as itself on loopback\n", "text/plain; charset=utf-8", 403);
  if (req.method !== "GET" && req.method !== "HEAD")
    return respond(
      "memnox memory viz is read-only: it never writes pages or transcripts\n",
      "text/plain; charset=utf-8",
      405,
      {
        allow: "GET, HEAD",
      },
    );
  const path = url.pathname;
  if (path === "/htmx.js") return respond(htmx, "text/javascript; charset=utf-8");
  if (path === "/style.css") return respond(STYLE, "text/css; charset=utf-8");
  if (path === "/favicon.ico") return new Response(null, { status: 204, headers: HEADERS });
  const p = url.searchParams;
  // A search from a form targets #search-results alone; a direct URL gets the whole view.
  if (path === "/search" && req.headers.get("hx-target") === "search-results") return html(searchResults(store, p));
  if (path === "/" || path.startsWith("/view/")) {
    const inner = path === "/" ? "/overview" : path.slice("/view".length);
    const r = fragment(store, inner, p);
    return r ? html(shell(r.view, r.title, r.html)) : html(shell(undefined, "Not found", notFoundView(path)));
  }
  const r = fragment(store, path, p);
  if (!r) return html(shell(undefined, "Not found", notFoundView(path)));
  // A fragment fetched by htmx is swapped into #main; opened directly it still gets the page around it.
  return html(
    req.headers.get("hx-request") === "true" ? partial(r.view, r.title, r.html) : shell(r.view, r.title, r.html),
  );
}

export interface Viz {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

/** Serves until stopped; binds loopback only, refusing any other host. */
export function serveViz(store: Store, opts: { port?: number; host?: string } = {}): Viz {
  const hostname = opts.host ?? "127.0.0.1";
  if (!LOOPBACK.has(hostname))
    throw new MemnoxError(
      "refused",
      `memnox memory viz listens on loopback only, not \`${hostname}\``,
      "use 127.0.0.1",
    );
  // Opened now, so the index's WAL files exist before the first page: a GET never adds a file to the store.
  if (store.hasIndex()) store.index().count();
  let port = 0;
  // Answers requests that arrive; it never makes one.
  const answer = (req: Request): Response => {
    try {
      return handle(store, req, port);
    } catch (e) {
      const why = e instanceof MemnoxError ? e.message : "the dashboard could not read the store";
      return respond(`memnox memory viz: ${why}\n`, "text/plain; charset=utf-8", 500);
    }
  };
  const server = Bun.serve({ hostname, port: opts.port ?? DEFAULT_PORT, fetch: answer });
  port = server.port ?? 0;
  const shown = hostname === "::1" ? "[::1]" : hostname;
  return {
    url: `http://${shown}:${port}/`,
    port,
    stop: () => server.stop(true),
  };
}
