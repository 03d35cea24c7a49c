// One shape for every page: GET renders it; POST runs one of its actions (named by the form's `_action`), each a call
// to a /v1/ route, then sends the browser back to the page (303). A refusal re-renders the page with the server's
// own words and status, so a viewer pressing something is told what the API would tell a script.
import { HttpError } from "../http-error.ts";
import type { ConsoleCall } from "./call.ts";
import type { Html } from "./html.ts";
import { page, seeOther } from "./html.ts";
import { meOf, type Said, shell } from "./layout.ts";

/**
 * An action returns where to go next (a path on this console), nothing for the page itself, or what is shown once
 * (a secret, a credential, a receipt): then the page is drawn in answer to the POST, never behind a link to reload.
 */
export type Action = (c: ConsoleCall) => Promise<string | undefined | Said>;

export interface PageDef {
  readonly path: string;
  readonly title: string;
  render(c: ConsoleCall): Promise<Html>;
  readonly actions?: Readonly<Record<string, Action>>;
}

export async function renderPage(def: PageDef, c: ConsoleCall, said?: Said, status = 200): Promise<Response> {
  const [me, main] = await Promise.all([meOf(c), def.render(c)]);
  return page(shell(c, me, def.title, main, said), status);
}

export async function postPage(def: PageDef, c: ConsoleCall): Promise<Response> {
  const name = c.form.get("_action") ?? "";
  const act = def.actions?.[name];
  if (!act) return renderPage(def, c, { error: `this page has no action \`${name}\`` }, 400);
  try {
    const next = await act(c);
    if (typeof next === "object") return renderPage(def, c, next);
    return seeOther(next ?? `${def.path}${c.url.search}`);
  } catch (e) {
    // A 503 is a refusal a person reads (a part not configured), not a failure of this server.
    if (!(e instanceof HttpError) || (e.status >= 500 && e.status !== 503)) throw e;
    return renderPage(def, c, { error: e.message }, e.status);
  }
}

/** A form field that must be there: a missing one is a 400 naming it. */
export function field(c: ConsoleCall, name: string): string {
  const v = (c.form.get(name) ?? "").trim();
  if (v === "") throw new HttpError(400, "bad_request", `the form needs \`${name}\``);
  return v;
}
