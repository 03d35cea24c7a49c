// `memnox ui`'s server: loopback only, its own Host only (no DNS rebinding), nothing without the random token the
// person was shown (traded once for an HttpOnly, SameSite=Strict cookie), forms only with the page's own CSRF token and
// this origin, the console's one CSP, and no script. A held call is answered exactly as `memnox approve`/`deny` answers.
import { PAGE_HEADERS } from "../../../cloud/console/html.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { withLedger } from "../../../ledger/open.ts";
import { buildTimeline, parseOnly } from "../../../ledger/read/timeline.ts";
import { windowFrom } from "../../../ledger/read/window.ts";
import { loadRuleSet } from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { readConfig } from "../../../state/config.ts";
import { personName } from "../../../state/identity.ts";
import { pausedSessions } from "../../../state/paused.ts";
import { page, rulesView, timelineView, UI_CSS, type UiView, waitingView } from "./_ui-views.ts";
import { answerHeld } from "./approvals.ts";

/** Hosts the page is served as; anything else (a rebinding name, another machine's address) is refused. */
const LOOPBACK = new Set(["127.0.0.1", "localhost", "::1"]);

const TEXT = {
  "content-type": "text/plain; charset=utf-8",
  "cache-control": "no-store",
  "x-content-type-options": "nosniff",
};

function text(body: string, status: number, extra: Record<string, string> = {}): Response {
  return new Response(`${body}\n`, { status, headers: { ...TEXT, ...extra } });
}

function random(bytes: number): string {
  return Buffer.from(crypto.getRandomValues(new Uint8Array(bytes))).toString("base64url");
}

/** Equal strings in time that does not depend on where they differ. */
function same(a: string, b: string): boolean {
  const x = new TextEncoder().encode(a);
  const y = new TextEncoder().encode(b);
  let diff = x.length ^ y.length;
  for (let i = 0; i < Math.max(x.length, y.length); i++) diff |= (x[i] ?? 0) ^ (y[i] ?? 0);
  return diff === 0;
}

interface Session {
  readonly csrf: string;
  flash?: string | undefined;
}

interface UiServer {
  /** The address to open: it carries the token, so it is printed to the person and nowhere else. */
  readonly url: string;
  readonly port: number;
  stop(): Promise<void>;
}

interface UiState {
  readonly token: string;
  port: number;
  readonly sessions: Map<string, Session>;
}

function cookieName(port: number): string {
  // Cookies are shared by every port of a host: the port keeps two pages on one machine apart.
  return `memnox-ui-${port}`;
}

function cookieOf(req: Request, port: number): string | undefined {
  const name = cookieName(port);
  for (const part of (req.headers.get("cookie") ?? "").split(";")) {
    const [k, ...v] = part.trim().split("=");
    if (k === name) return v.join("=");
  }
  return undefined;
}

function hostOk(req: Request, port: number): boolean {
  const h = req.headers.get("host") ?? "";
  const m = /^(\[::1\]|[^:]+):(\d+)$/.exec(h);
  if (!m?.[1] || Number(m[2]) !== port) return false;
  return LOOPBACK.has(m[1].replace(/^\[|\]$/g, ""));
}

function originOk(req: Request, port: number): boolean {
  const origin = req.headers.get("origin");
  if (!origin) return false;
  return [`http://127.0.0.1:${port}`, `http://localhost:${port}`, `http://[::1]:${port}`].includes(origin);
}

const DENIED =
  "memnox ui answers only the address it printed, with its token, in the browser that opened it; run `memnox ui` in your own terminal for a new one";

function html(body: string, status = 200): Response {
  return new Response(body, { status, headers: { ...PAGE_HEADERS } });
}

function frame(ctx: Context, view: UiView, title: string, session: Session, refresh?: number) {
  const flash = session.flash;
  session.flash = undefined;
  let mode = "observe";
  try {
    mode = readConfig(ctx.paths.config).mode;
  } catch {
    mode = "unreadable";
  }
  return {
    view,
    title,
    mode,
    person: personName(ctx.env),
    nowMs: ctx.clock.now(),
    ...(flash ? { flash } : {}),
    ...(refresh ? { refresh } : {}),
  };
}

function render(ctx: Context, url: URL, session: Session): Response | undefined {
  const now = ctx.clock.now();
  switch (url.pathname) {
    case "/":
      return html(
        page(
          frame(ctx, "waiting", "Waiting", session, 10),
          waitingView(pausedSessions(ctx.paths, now), session.csrf, now),
        ),
      );
    case "/timeline": {
      const since = url.searchParams.get("since") ?? "1d";
      const onlyArg = url.searchParams.get("only") ?? undefined;
      const only = onlyArg && onlyArg !== "all" ? parseOnly(onlyArg) : undefined;
      const window = windowFrom(now, since);
      const entries = withLedger(
        ctx,
        (ledger) => buildTimeline(ledger, { window, ...(only ? { only } : {}) }).entries,
        () => undefined,
      );
      return html(page(frame(ctx, "timeline", "Timeline", session), timelineView(entries, since, only)));
    }
    case "/rules": {
      const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
      return html(page(frame(ctx, "rules", "Rules in force", session), rulesView(set, ctx.cwd)));
    }
  }
  return undefined;
}

async function answer(ctx: Context, req: Request, url: URL, session: Session): Promise<Response> {
  const m = /^\/holds\/(a_[0-9a-f]{6,})\/(approve|deny)$/.exec(url.pathname);
  if (!m?.[1] || !m[2]) return text("no such form", 404);
  if (!(req.headers.get("content-type") ?? "").startsWith("application/x-www-form-urlencoded"))
    return text("memnox ui takes its own forms only", 415);
  const form = new URLSearchParams(await req.text());
  if (!same(form.get("_csrf") ?? "", session.csrf)) return text("this form is not one memnox ui drew", 403);
  const grant = m[2] === "approve";
  const scope = grant && form.get("scope") === "session" ? "session" : "once";
  try {
    session.flash = answerHeld(ctx, m[1], grant, scope).words;
  } catch (e) {
    if (!(e instanceof MemnoxError)) throw e;
    session.flash = e.message;
  }
  return new Response(null, { status: 303, headers: { location: "/", "cache-control": "no-store" } });
}

/** One request. Exported for tests; the server wraps it so nothing escapes as a stack trace. */
async function handleUi(ctx: Context, state: UiState, req: Request): Promise<Response> {
  if (!hostOk(req, state.port)) return text("memnox ui answers only as itself on loopback", 421);
  const url = new URL(req.url);
  if (req.method !== "GET" && req.method !== "HEAD" && req.method !== "POST")
    return text("not here", 405, { allow: "GET, HEAD, POST" });
  if (url.pathname.startsWith("/t/") && req.method === "GET") {
    if (!same(url.pathname.slice(3), state.token)) return text(DENIED, 403);
    const id = random(32);
    state.sessions.set(id, { csrf: random(32) });
    return new Response(null, {
      status: 303,
      headers: {
        location: "/",
        "cache-control": "no-store",
        "referrer-policy": "no-referrer",
        "set-cookie": `${cookieName(state.port)}=${id}; Path=/; HttpOnly; SameSite=Strict`,
      },
    });
  }
  const cookie = cookieOf(req, state.port);
  const session = cookie ? state.sessions.get(cookie) : undefined;
  if (!session) return text(DENIED, 403);
  if (req.method === "POST") {
    if (!originOk(req, state.port)) return text("memnox ui takes forms from its own page only", 403);
    return answer(ctx, req, url, session);
  }
  if (url.pathname === "/ui.css")
    return new Response(UI_CSS, { headers: { ...PAGE_HEADERS, "content-type": "text/css; charset=utf-8" } });
  return render(ctx, url, session) ?? text("nothing here", 404);
}

/** Serves until stopped, on loopback only; the token is new every run. */
export function serveUi(ctx: Context, opts: { port: number; host: string }): UiServer {
  if (!LOOPBACK.has(opts.host))
    throw new MemnoxError("refused", `memnox ui listens on loopback only, not \`${opts.host}\``, "use 127.0.0.1");
  const state: UiState = { token: random(32), port: 0, sessions: new Map() };
  const server = Bun.serve({
    hostname: opts.host === "localhost" ? "127.0.0.1" : opts.host,
    port: opts.port,
    fetch: async (req) => {
      try {
        return await handleUi(ctx, state, req);
      } catch (e) {
        const why = e instanceof MemnoxError ? e.message : "memnox ui could not read this machine's state";
        return text(`memnox ui: ${why}`, 500);
      }
    },
  });
  state.port = server.port ?? 0;
  const shown = opts.host === "::1" ? "[::1]" : "127.0.0.1";
  return { url: `http://${shown}:${state.port}/t/${state.token}`, port: state.port, stop: () => server.stop(true) };
}
