// The HTTP face of the control plane: Bun's server over the route table; each request authenticated, checked against
// its route's requirement, then handled. Stateless, so any number of these can serve one database.
import { principalOf } from "./auth.ts";
import { CONSOLE_ROUTES, type ConsoleRoute } from "./console/index.ts";
import { consoleHandler } from "./console/serve.ts";
import { type Call, errorResponse, HttpError, json, MAX_BODY_BYTES, type Route, type ServerConfig } from "./http.ts";
import { authorize } from "./roles.ts";
import { ROUTES } from "./routes/index.ts";
import type { Db } from "./store/db.ts";

export interface ServerOptions {
  readonly db: Db;
  readonly config: ServerConfig;
  readonly hostname: string;
  /** 0: any free port. */
  readonly port: number;
  readonly now: () => number;
  readonly log: (line: string) => void;
  readonly routes?: readonly Route[];
  readonly console?: readonly ConsoleRoute[];
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

type BunHandler = (req: Request & { params?: Record<string, string> }) => Promise<Response>;

function wrap(route: Route, opts: ServerOptions): BunHandler {
  const publicOnly = route.needs.length === 1 && route.needs[0] === "public";
  return async (req) => {
    try {
      const who = publicOnly ? undefined : await principalOf(opts.db, req);
      authorize(who, route.needs);
      const call: Call = {
        req,
        url: new URL(req.url),
        params: req.params ?? {},
        who,
        db: opts.db,
        config: opts.config,
        now: opts.now,
      };
      return await route.handler(call);
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e);
      opts.log(`error ${route.method} ${route.path}: ${(e as Error).stack ?? String(e)}`);
      return errorResponse(new HttpError(500, "internal", "the control plane failed on this request; it is logged"));
    }
  };
}

export function startServer(opts: ServerOptions): RunningServer {
  const table: Record<string, Record<string, BunHandler>> = {};
  const add = (path: string, method: string, h: BunHandler) => {
    table[path] ??= {};
    const methods = table[path];
    if (methods) methods[method] = h;
  };
  for (const r of opts.routes ?? ROUTES) add(r.path, r.method, wrap(r, opts));
  // The console: the same API underneath, a browser session as the caller.
  for (const r of opts.console ?? CONSOLE_ROUTES) add(r.path, r.method, consoleHandler(r, opts));
  const server = Bun.serve({
    hostname: opts.hostname,
    port: opts.port,
    maxRequestBodySize: MAX_BODY_BYTES,
    routes: table,
    fetch: () => json({ error: { code: "not_found", message: "no such route" } }, 404),
    error: (e) => {
      opts.log(`error: ${e.stack ?? String(e)}`);
      return json({ error: { code: "internal", message: "the control plane failed on this request" } }, 500);
    },
  });
  const port = server.port ?? opts.port;
  const host = opts.hostname.includes(":") ? `[${opts.hostname}]` : opts.hostname;
  return {
    url: `http://${host}:${port}`,
    port,
    stop: async () => {
      await server.stop(true);
    },
  };
}
