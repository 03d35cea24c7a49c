// HTML built from tagged templates that escape every value unless it is already markup, and the headers every console
// response carries: one content security policy, no caching of pages that hold data, no referrer to other sites.

/** Markup that is safe to insert as is: produced by `html` or `raw` only. */
export class Html {
  readonly text: string;
  constructor(text: string) {
    this.text = text;
  }
  toString(): string {
    return this.text;
  }
}

export type Part = Html | string | number | boolean | null | undefined | readonly Part[];

function escapeHtml(s: string): string {
  return s.replace(
    /[&<>"']/g,
    (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch] ?? ch,
  );
}

function render(p: Part): string {
  if (p === null || p === undefined || p === false) return "";
  if (p instanceof Html) return p.text;
  if (Array.isArray(p)) return p.map(render).join("");
  return escapeHtml(String(p));
}

/** `html\`<p>${text}</p>\``: every interpolation escaped, arrays joined, null/undefined/false left out. */
export function html(strings: TemplateStringsArray, ...values: readonly Part[]): Html {
  let out = strings[0] ?? "";
  values.forEach((v, i) => {
    out += render(v) + (strings[i + 1] ?? "");
  });
  return new Html(out);
}

/** Markup written by us, never by a caller: the embedded assets, entities. */
export function raw(text: string): Html {
  return new Html(text);
}

/** The one policy: scripts and styles only from this server, no inline code, forms only back here, no framing. */
export const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; connect-src 'self'; " +
  "form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

export const PAGE_HEADERS: Readonly<Record<string, string>> = {
  "content-type": "text/html; charset=utf-8",
  "content-security-policy": CSP,
  "x-content-type-options": "nosniff",
  // Within this origin only: nothing leaks to another site, and a plain form's Origin header stays this origin's
  // (under no-referrer a browser sends `Origin: null`, which the form check must refuse).
  "referrer-policy": "same-origin",
  "x-frame-options": "DENY",
  "cache-control": "no-store",
};

export function page(body: Html, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(`<!doctype html>\n${body.text}`, { status, headers: { ...PAGE_HEADERS, ...headers } });
}

/** After a form: back to the page it came from (303, so the browser GETs it). */
export function seeOther(location: string, headers: Record<string, string> = {}): Response {
  return new Response(null, { status: 303, headers: { location, "cache-control": "no-store", ...headers } });
}

/** A relative instant a person reads: "4 min ago", "in 2 h". */
export function ago(at: string | null | undefined, now: number): string {
  if (!at) return "never";
  const ms = now - Date.parse(at);
  const abs = Math.abs(ms);
  const [n, unit] =
    abs < 60_000
      ? [Math.round(abs / 1000), "s"]
      : abs < 3_600_000
        ? [Math.round(abs / 60_000), "min"]
        : abs < 86_400_000
          ? [Math.round(abs / 3_600_000), "h"]
          : [Math.round(abs / 86_400_000), "d"];
  return ms >= 0 ? `${n} ${unit} ago` : `in ${n} ${unit}`;
}

/** A count a tile shows: a dash until it is earned (null), never a zero that a moment later becomes the real figure. */
export function tile(n: number | null | undefined): string {
  return n === null || n === undefined ? "–" : String(n);
}
