// The HTTP face of the control plane: Bun's server over the route table. Each request is checked in the same order:
// its path and query for control characters, the public routes' limits by address (before any query), the credential
// (a refused one counted and audited), the role and kind of act, the caller's, machine's and workspace's limits, then a
// turn in its workspace's lane, and only then the handler. Stateless apart from the limits, so any number of these
// can serve one database.
import { authenticate, bearer, type Refused } from "./auth.ts";
import { CONSOLE_ROUTES, type ConsoleRoute } from "./console/index.ts";
import { consoleHandler } from "./console/serve.ts";
import { Detections } from "./detection.ts";
import { type Call, errorResponse, json, MAX_BODY_BYTES, type Route, type ServerConfig } from "./http.ts";
import { HttpError } from "./http-error.ts";
import { checkRequestText } from "./input.ts";
import { type Guard, newGuard, RATES, type Rate, spend, tooMany } from "./limits.ts";
import type { Principal } from "./roles.ts";
import { authorize } from "./roles.ts";
import { ROUTES } from "./routes/index.ts";
import type { Db } from "./store/db.ts";
import { audit } from "./store/people.ts";

interface ServerOptions {
  readonly db: Db;
  readonly config: ServerConfig;
  readonly hostname: string;
  /** 0: any free port. */
  readonly port: number;
  readonly now: () => number;
  readonly log: (line: string) => void;
  readonly routes?: readonly Route[];
  readonly console?: readonly ConsoleRoute[];
  /** Every rate limit multiplied by this (a load test's fleet from one address); 1 unless said. */
  readonly rateScale?: number;
  /** The database connections this process holds: the fair gate keeps turns below it. */
  readonly pool?: number;
}

export interface RunningServer {
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

type BunRequest = Request & { params?: Record<string, string> };
type BunHandler = (req: BunRequest, server: { requestIP(r: Request): { address: string } | null }) => Promise<Response>;

/** The limits a public route spends by address before anything else: the enrolment's, the inbound route's, health's. */
function publicRates(route: Route): readonly (readonly [string, Rate, boolean])[] {
  const key = `${route.method} ${route.path}`;
  if (key === "POST /v1/devices")
    return [
      ["device-request", RATES.deviceRequest, true],
      ["device-request-all", RATES.deviceRequestAll, false],
    ];
  if (key === "POST /v1/devices/token") return [["device-poll", RATES.devicePoll, true]];
  if (key === "POST /v1/inbound/:workspace/:source" || key === "POST /v1/inbound/:workspace/slack/commands")
    return [["inbound", RATES.inbound, true]];
  return [[`health:${route.path}`, RATES.health, true]];
}

/** A machine's limit by what it asks. */
function machineRate(route: Route): Rate {
  if (route.path === "/v1/heartbeat") return RATES.heartbeat;
  if (route.path === "/v1/events") return RATES.batch;
  return RATES.pull;
}

/** Audits a refused credential, at most once a minute per address (with how many were refused since). */
async function auditRefused(opts: ServerOptions, guard: Guard, ip: string, route: Route, r: Refused): Promise<void> {
  const now = opts.now();
  const seen = guard.refusedSeen.get(ip);
  if (seen && now - seen.at < 60_000) {
    seen.count += 1;
    return;
  }
  if (guard.refusedSeen.size > 10_000) guard.refusedSeen.clear();
  guard.refusedSeen.set(ip, { at: now, count: 0 });
  opts.log(`refused credential (${r.why}) from ${ip} on ${route.method} ${route.path}`);
  await audit(opts.db, {
    orgId: r.orgId,
    actor: `address:${ip}`,
    action: `auth.${r.why}_credential`,
    severity: r.why === "unknown" ? "critical" : "warning",
    detail: { route: `${route.method} ${route.path}`, refusedSinceLast: seen?.count ?? 0 },
  }).catch((e: Error) => opts.log(`error auditing a refused credential: ${e.message}`));
}

/**
 * The limit a credential spends before it is even looked up, keyed by the credential itself: a machine's (by what it
 * asks) or a person's or an operator's. A flood past it costs the database nothing.
 */
function spendCredential(guard: Guard, token: string, route: Route): void {
  const key = `tok:${Bun.hash(token).toString(36)}`;
  if (token.startsWith("mnx_m_")) spend(guard.buckets, `${key}:${route.path}`, machineRate(route), "from this machine");
  else spend(guard.buckets, key, RATES.caller, "from this credential");
}

function wrap(route: Route, opts: ServerOptions, guard: Guard, detections: Detections): BunHandler {
  const publicOnly = route.needs.length === 1 && route.needs[0] === "public";
  return async (req, server) => {
    let leave: (() => void) | undefined;
    try {
      const url = new URL(req.url);
      const params = req.params ?? {};
      checkRequestText(params, url);
      const ip = server.requestIP(req)?.address ?? "unknown";
      if (publicOnly)
        for (const [name, rate, perAddress] of publicRates(route))
          spend(guard.buckets, perAddress ? `${name}:${ip}` : name, rate, "from this address");
      let who: Principal | undefined;
      if (!publicOnly) {
        // A credential that keeps failing from one address is refused before it is even looked up.
        const wait = guard.buckets.peek(`refused:${ip}`, RATES.refused);
        if (wait > 0) throw tooMany("with credentials that do not hold", wait);
        const token = bearer(req);
        if (token) spendCredential(guard, token, route);
        const found = await authenticate(opts.db, req, opts.now());
        if ("refusal" in found) {
          guard.buckets.take(`refused:${ip}`, RATES.refused);
          await auditRefused(opts, guard, ip, route, found);
          throw found.refusal;
        }
        who = found.who;
      }
      authorize(who, route);
      if (who) spend(guard.buckets, `ws:${who.workspaceId}`, RATES.workspace, "for this workspace");
      // A workspace already past its rate of stored events waits for no turn to be told so.
      if (who?.kind === "machine" && route.path === "/v1/events") {
        const wait =
          guard.buckets.peek(`rows:${who.machineId}`, RATES.machineRows) ||
          guard.buckets.peek(`rows:${who.workspaceId}`, RATES.rows);
        if (wait > 0) throw tooMany("events from this machine or workspace", wait);
      }
      // Turns go round the workspaces (a delivery's is the workspace it names); a public request's is its address's.
      const line = who ? `ws:${who.workspaceId}` : params.workspace ? `ws:${params.workspace}` : `ip:${ip}`;
      leave = await guard.gate.enter(line);
      if (!leave) throw tooMany(who ? "in flight for this workspace" : "in flight from this address", 1);
      const call: Call = {
        req,
        url,
        params,
        who,
        db: opts.db,
        config: opts.config,
        now: opts.now,
        guard,
        address: ip,
        detections,
      };
      return await route.handler(call);
    } catch (e) {
      if (e instanceof HttpError) return errorResponse(e);
      opts.log(`error ${route.method} ${route.path}: ${(e as Error).stack ?? String(e)}`);
      return errorResponse(new HttpError(500, "internal", "the control plane failed on this request; it is logged"));
    } finally {
      leave?.();
    }
  };
}

/** The console's pages under the same first checks: the path, and a limit by address (signing in far lower). */
function wrapConsole(route: ConsoleRoute, opts: ServerOptions, guard: Guard): BunHandler {
  const inner = consoleHandler(route, { ...opts, guard });
  const signingIn = route.path === "/signin/start" || route.path === "/auth/callback";
  return async (req, server) => {
    try {
      checkRequestText(req.params ?? {}, new URL(req.url));
      const ip = server.requestIP(req)?.address ?? "unknown";
      spend(guard.buckets, `console:${ip}`, RATES.console, "from this address");
      if (signingIn) spend(guard.buckets, `sign-in:${ip}`, RATES.signIn, "signing in from this address");
    } catch (e) {
      if (e instanceof HttpError)
        return new Response(`${e.message}\n`, {
          status: e.status,
          headers: {
            "content-type": "text/plain; charset=utf-8",
            "cache-control": "no-store",
            ...(e.status === 429 ? { "retry-after": String(e.extra.retryAfter ?? 1) } : {}),
          },
        });
      throw e;
    }
    return inner(req);
  };
}

export function startServer(opts: ServerOptions): RunningServer {
  const guard = newGuard(opts.now, opts.rateScale ?? 1, opts.pool);
  const detections = new Detections(opts.db, opts.log);
  const table: Record<string, Record<string, BunHandler>> = {};
  const add = (path: string, method: string, h: BunHandler) => {
    table[path] ??= {};
    const methods = table[path];
    if (methods) methods[method] = h;
  };
  for (const r of opts.routes ?? ROUTES) add(r.path, r.method, wrap(r, opts, guard, detections));
  // The console: the same API underneath, a browser session as the caller.
  for (const r of opts.console ?? CONSOLE_ROUTES) add(r.path, r.method, wrapConsole(r, opts, guard));
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
  // Rows a server stored and never looked at (it stopped first) are looked at now.
  void detections
    .sweep((opts.config.publicUrl ?? `http://${host}:${port}`).replace(/\/+$/, ""))
    .catch((e: Error) => opts.log(`error sweeping what was not yet detected: ${e.message}`));
  return {
    url: `http://${host}:${port}`,
    port,
    stop: async () => {
      await server.stop(true);
    },
  };
}
