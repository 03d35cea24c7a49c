// The console's routes, flat (the workspace a page answers for is the session's selection, never a path segment):
// every page, its form posts, signing in and out, and the two assets served from the binary. The HTTP wrapper is
// serve.ts; what each page shows and does goes through the /v1/ routes (call.ts).

import htmxSource from "htmx.org/dist/htmx.min.js" with { type: "text" };
import { SESSION_COOKIE } from "../auth.ts";
import { clearCookie } from "../signin.ts";
import { endSession, switchOrg } from "../store/sessions.ts";
import type { ConsoleCall } from "./call.ts";
import css from "./console.css" with { type: "text" };
import { html, page, seeOther } from "./html.ts";
import { bare, type Me, meOf } from "./layout.ts";
import { field, type PageDef, postPage, renderPage } from "./page.ts";
import { agents } from "./pages/agents.ts";
import { autonomy } from "./pages/autonomy.ts";
import { caught } from "./pages/caught.ts";
import { device } from "./pages/device.ts";
import { home } from "./pages/home.ts";
import { connectors, files, knowledge, meetings, memory, sources } from "./pages/inputs.ts";
import { machines } from "./pages/machines.ts";
import { map } from "./pages/map.ts";
import { billing, onboarding, settings } from "./pages/org.ts";
import { people } from "./pages/people.ts";
import { searchPage } from "./pages/search.ts";
import { waiting } from "./pages/waiting.ts";
import { signInCallback, signInPage, signInStart } from "./signin-pages.ts";

export interface ConsoleRoute {
  readonly method: "GET" | "POST";
  readonly path: string;
  /** `session`: signed in, else sent to sign in (a GET) or refused (a POST); `open`: anybody. */
  readonly access: "session" | "open";
  readonly handler: (c: ConsoleCall) => Promise<Response>;
}

export const PAGES: readonly PageDef[] = [
  home,
  machines,
  agents,
  map,
  waiting,
  autonomy,
  memory,
  caught,
  connectors,
  sources,
  knowledge,
  files,
  meetings,
  people,
  billing,
  settings,
  device,
  onboarding,
  searchPage,
];

/** A new organization's admin finishes onboarding before anything else. */
async function firstTime(c: ConsoleCall, def: PageDef): Promise<Response | undefined> {
  if (def === onboarding) return undefined;
  const me: Me = await meOf(c);
  return !me.org.onboarded && me.role === "admin" && def === home ? seeOther("/onboarding") : undefined;
}

const asset = (body: string, type: string) => async () =>
  new Response(body, {
    headers: { "content-type": type, "cache-control": "public, max-age=300", "x-content-type-options": "nosniff" },
  });

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [
  ...PAGES.flatMap((def): ConsoleRoute[] => [
    {
      method: "GET",
      path: def.path,
      access: "session",
      handler: async (c) => (await firstTime(c, def)) ?? renderPage(def, c),
    },
    { method: "POST", path: def.path, access: "session", handler: (c) => postPage(def, c) },
  ]),
  { method: "GET", path: "/signin", access: "open", handler: signInPage },
  { method: "GET", path: "/signin/start", access: "open", handler: signInStart },
  { method: "GET", path: "/auth/callback", access: "open", handler: signInCallback },
  {
    method: "POST",
    path: "/signout",
    access: "session",
    async handler(c) {
      if (c.session) await endSession(c.db, c.session.id, c.who?.kind === "person" ? c.who.email : "session");
      return seeOther("/signin?out=1", { "set-cookie": clearCookie(SESSION_COOKIE) });
    },
  },
  {
    method: "POST",
    path: "/workspace",
    access: "session",
    async handler(c) {
      const org = field(c, "org");
      const who = c.who;
      const switched = c.session && who?.kind === "person" && (await switchOrg(c.db, c.session.id, who.memberId, org));
      if (!switched)
        return page(
          bare("Not yours", html`<p>That organization is not one you belong to.</p><p><a href="/">Back</a></p>`),
          403,
        );
      return seeOther("/");
    },
  },
  // Browsers ask for it unprompted: nothing, rather than a 404 in every console.
  { method: "GET", path: "/favicon.ico", access: "open", handler: async () => new Response(null, { status: 204 }) },
  { method: "GET", path: "/htmx.js", access: "open", handler: asset(htmxSource, "text/javascript; charset=utf-8") },
  { method: "GET", path: "/console.css", access: "open", handler: asset(css, "text/css; charset=utf-8") },
];
