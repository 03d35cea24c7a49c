// Talking to the console as a browser would, without one: a session made directly (as a sign-in makes it), pages
// fetched with its cookie, and every form a page offers read out of its HTML, to be sent as it is or as somebody else.
import { SESSION_COOKIE } from "../../src/cloud/auth.ts";
import type { Db } from "../../src/cloud/store/db.ts";
import { createSession } from "../../src/cloud/store/sessions.ts";

/** Every table a person's action can change: a refused form must leave each of them exactly as it was. */
const CHANGED_BY_ACTIONS = [
  "orgs",
  "members",
  "machines",
  "bundles",
  "conditions",
  "holds",
  "mode_changes",
  "proposals",
  "agents",
  "mcp_servers",
  "incidents",
  "audit",
  "elevations",
  "candidates",
  "decisions",
  "decision_confirmations",
];

/** What the organization's state is, as text, to compare before and after something that must change nothing. */
export async function organizationState(db: Db): Promise<string> {
  const parts: string[] = [];
  for (const t of CHANGED_BY_ACTIONS) parts.push(JSON.stringify(await db.unsafe(`SELECT * FROM ${t} ORDER BY 1`)));
  // Which credentials exist and whether they hold; when one was last used moves with any use, so it is left out.
  parts.push(JSON.stringify(await db`SELECT id, kind, member_id, role, name, revoked_at FROM tokens ORDER BY id`));
  return parts.join("\n");
}

export interface Browser {
  readonly cookie: string;
  readonly csrf: string;
  get(path: string): Promise<{ status: number; headers: Headers; html: string }>;
  /** Posts a form (fields as given, this session's own `_csrf` unless `csrf` is given) without following redirects. */
  post(
    path: string,
    fields: Readonly<Record<string, string>>,
    opts?: { csrf?: string | null; headers?: Record<string, string> },
  ): Promise<{ status: number; headers: Headers; html: string }>;
}

export async function sessionFor(db: Db, url: string, memberId: string): Promise<Browser> {
  const s = await createSession(db, memberId, Date.now());
  const cookie = `${SESSION_COOKIE}=${s.secret}`;
  return browserWith(url, cookie, s.csrf);
}

export function browserWith(url: string, cookie: string, csrf: string): Browser {
  return {
    cookie,
    csrf,
    async get(path) {
      const r = await fetch(`${url}${path}`, { headers: { cookie }, redirect: "manual" });
      return { status: r.status, headers: r.headers, html: await r.text() };
    },
    async post(path, fields, opts = {}) {
      const body = new URLSearchParams(fields);
      const token = opts.csrf === undefined ? csrf : opts.csrf;
      if (token !== null) body.set("_csrf", token);
      else body.delete("_csrf");
      const r = await fetch(`${url}${path}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/x-www-form-urlencoded", origin: url, ...(opts.headers ?? {}) },
        body: body.toString(),
        redirect: "manual",
      });
      return { status: r.status, headers: r.headers, html: await r.text() };
    },
  };
}

export interface PageForm {
  readonly action: string;
  readonly method: string;
  /** Hidden and named fields with their values; for a select, its selected (or first) option. */
  readonly fields: Record<string, string>;
  /** Named submit buttons: each is one way to send this form. */
  readonly buttons: { readonly name: string; readonly value: string; readonly label: string }[];
  readonly labels: string[];
}

/** Every form in a page, read with Bun's HTMLRewriter (a real HTML parser, not a pattern). */
export async function formsOf(html: string): Promise<PageForm[]> {
  const forms: PageForm[] = [];
  let current: PageForm | undefined;
  let select: string | undefined;
  let button: { name: string; value: string; label: string } | undefined;
  const rw = new HTMLRewriter()
    .on("form", {
      element(el) {
        current = {
          action: el.getAttribute("action") ?? "",
          method: (el.getAttribute("method") ?? "get").toLowerCase(),
          fields: {},
          buttons: [],
          labels: [],
        };
        forms.push(current);
        el.onEndTag(() => {
          current = undefined;
        });
      },
    })
    .on("form input", {
      element(el) {
        const name = el.getAttribute("name");
        // An empty input is filled as a person would, so the form is complete when it is sent.
        const filled = el.getAttribute("type") === "email" ? "someone@acme.dev" : "x";
        if (current && name && (el.getAttribute("type") ?? "text") !== "submit")
          current.fields[name] = el.getAttribute("value") || filled;
      },
    })
    .on("form select", {
      element(el) {
        select = el.getAttribute("name") ?? undefined;
      },
    })
    .on("form option", {
      element(el) {
        if (current && select && (current.fields[select] === undefined || el.hasAttribute("selected")))
          current.fields[select] = el.getAttribute("value") ?? "";
      },
    })
    .on("form textarea", {
      element(el) {
        const name = el.getAttribute("name");
        if (current && name) current.fields[name] = "text";
      },
    })
    .on("form button", {
      element(el) {
        button = { name: el.getAttribute("name") ?? "", value: el.getAttribute("value") ?? "", label: "" };
        if (current) current.buttons.push(button);
      },
      text(t) {
        if (button) button.label += t.text;
      },
    })
    .on("form label", {
      text(t) {
        if (current && t.text.trim()) current.labels.push(t.text.trim());
      },
    });
  await rw.transform(new Response(html)).text();
  return forms;
}
