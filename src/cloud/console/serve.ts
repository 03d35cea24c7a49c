// The console's HTTP wrapper: the session cookie becomes the caller (auth.ts), a page needing one sends the browser to
// sign in, and every POST is checked before any action runs: same origin, a url-encoded form, and the session's own
// token echoed back in `_csrf`. Errors are pages, in the same policy and with no caching.
import { sessionPrincipal } from "../auth.ts";
import { MAX_BODY_BYTES, type ServerConfig } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { sameText } from "../ids.ts";
import { type Guard, RATES, spend } from "../limits.ts";
import { consoleOrigin } from "../signin.ts";
import type { Db } from "../store/db.ts";
import type { ConsoleCall, Uploaded } from "./call.ts";
import { html, page, seeOther } from "./html.ts";
import type { ConsoleRoute } from "./index.ts";
import { bare } from "./layout.ts";

interface ConsoleDeps {
  readonly db: Db;
  readonly config: ServerConfig;
  readonly now: () => number;
  readonly log: (line: string) => void;
  readonly guard?: Guard;
}

const MAX_FORM_BYTES = 64 * 1024;

interface Checked {
  readonly form: URLSearchParams;
  readonly files: ReadonlyMap<string, Uploaded>;
}

/** A form carrying a file (an export to sweep): its fields as text, its files as bytes, within one body's limit. */
async function multipart(req: Request): Promise<Checked> {
  const said = Number(req.headers.get("content-length") ?? "0");
  if (said > MAX_BODY_BYTES) throw new HttpError(413, "too_large", `a file is at most ${MAX_BODY_BYTES} bytes`);
  const data = await req.formData().catch(() => undefined);
  if (!data) throw new HttpError(400, "bad_form", "the form's multipart body could not be read");
  const form = new URLSearchParams();
  const files = new Map<string, Uploaded>();
  for (const [k, v] of data.entries()) {
    if (typeof v === "string") {
      if (v.length > MAX_FORM_BYTES) throw new HttpError(413, "too_large", "the form is too large");
      form.append(k, v);
    } else files.set(k, { name: v.name, type: v.type, bytes: new Uint8Array(await v.arrayBuffer()) });
  }
  return { form, files };
}

/** A form from this console's own pages, or a 403 saying it was not. */
async function checkedForm(req: Request, url: URL, config: ServerConfig, csrf: string): Promise<Checked> {
  const origin = consoleOrigin(config, url);
  const from = req.headers.get("origin");
  const site = req.headers.get("sec-fetch-site");
  if ((from !== null && from !== origin) || (site !== null && site !== "same-origin" && site !== "none"))
    throw new HttpError(403, "cross_origin", "this form came from another site, so it was not acted on");
  const type = (req.headers.get("content-type") ?? "").toLowerCase();
  let checked: Checked;
  if (type.startsWith("multipart/form-data")) checked = await multipart(req);
  else if (type.startsWith("application/x-www-form-urlencoded")) {
    const text = await req.text();
    if (text.length > MAX_FORM_BYTES) throw new HttpError(413, "too_large", "the form is too large");
    checked = { form: new URLSearchParams(text), files: new Map() };
  } else
    throw new HttpError(
      415,
      "bad_form",
      "the console takes forms as application/x-www-form-urlencoded (multipart/form-data with a file)",
    );
  if (!sameText(checked.form.get("_csrf") ?? "", csrf))
    throw new HttpError(
      403,
      "csrf",
      "this form is stale or did not come from this session: reload the page and try again",
    );
  return checked;
}

export function consoleHandler(route: ConsoleRoute, deps: ConsoleDeps) {
  return async (req: Request & { params?: Record<string, string> }): Promise<Response> => {
    const url = new URL(req.url);
    try {
      const signed = await sessionPrincipal(deps.db, req, deps.now());
      // A signed-in person's pages count against them and their workspace, as a token's requests do.
      if (signed && deps.guard) {
        spend(deps.guard.buckets, `caller:${signed.who.tokenId}`, RATES.caller, "from this session");
        spend(deps.guard.buckets, `ws:${signed.who.workspaceId}`, RATES.workspace, "for this workspace");
      }
      if (route.access === "session" && !signed) {
        if (req.method === "GET")
          return seeOther(`/signin?return=${encodeURIComponent(`${url.pathname}${url.search}`)}`);
        return page(
          bare(
            "Signed out",
            html`<p>You are not signed in, so nothing was done.</p><p><a href="/signin">Sign in</a></p>`,
          ),
          401,
        );
      }
      const { form, files } =
        req.method === "POST" && signed
          ? await checkedForm(req, url, deps.config, signed.session.csrf)
          : { form: new URLSearchParams(), files: new Map<string, Uploaded>() };
      const c: ConsoleCall = {
        req,
        url,
        params: req.params ?? {},
        who: signed?.who,
        session: signed?.session,
        form,
        files,
        db: deps.db,
        config: deps.config,
        now: deps.now,
        log: deps.log,
        ...(deps.guard ? { guard: deps.guard } : {}),
      };
      return await route.handler(c);
    } catch (e) {
      if (e instanceof HttpError && e.status < 500) {
        const r = page(
          bare("Not done", html`<p class="said error" role="alert">${e.message}</p><p><a href="/">Back</a></p>`),
          e.status,
        );
        if (e.status === 429) r.headers.set("retry-after", String(e.extra.retryAfter ?? 1));
        return r;
      }
      deps.log(`error ${route.method} ${route.path}: ${(e as Error).stack ?? String(e)}`);
      return page(bare("Something failed", html`<p>The control plane failed on this request; it is logged.</p>`), 500);
    }
  };
}
