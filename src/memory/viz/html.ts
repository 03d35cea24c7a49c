// The dashboard's page shell and the small pieces every view is built from. Every value is escaped where it is put.
import { escapeHtml } from "./markdown.ts";

export { escapeHtml };

const NAV = [
  ["overview", "Overview"],
  ["memories", "Memories"],
  ["search", "Search"],
  ["sessions", "Sessions"],
  ["tokens", "Token use"],
  ["health", "Health"],
] as const;

export type ViewName = (typeof NAV)[number][0];

/** A query string from the values given, in order, empty ones left out. */
export function query(params: Readonly<Record<string, string | number | undefined>>): string {
  const parts = Object.entries(params)
    .filter(([, v]) => v !== undefined && v !== "")
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return parts.length ? `?${parts.join("&")}` : "";
}

/**
 * A link that works as a plain link (the full view) and, with htmx, swaps only #main and pushes the same URL.
 * `fragment` is the partial's path, `view` the address bar's.
 */
export function navLink(view: string, fragment: string, label: string, attrs = ""): string {
  const v = escapeHtml(view);
  return `<a href="${v}" hx-get="${escapeHtml(fragment)}" hx-target="#main" hx-push-url="${v}"${attrs}>${label}</a>`;
}

const BRAND = `<svg viewBox="0 0 64 64" aria-hidden="true" width="28" height="28"><rect x="6" y="10" width="52" height="44" rx="8" fill="none" stroke="currentColor" stroke-width="5"/><path d="M18 42V22l14 12 14-12v20" fill="none" stroke="currentColor" stroke-width="5" stroke-linejoin="round"/></svg>`;

/** The views' links, the active one marked; `oob` has htmx swap it in beside a fragment, so the mark follows. */
function navBar(active: ViewName | undefined, oob = false): string {
  const links = NAV.map(([name, label]) =>
    navLink(
      name === "overview" ? "/" : `/view/${name}`,
      `/${name}`,
      label,
      name === active ? ' aria-current="page"' : "",
    ),
  ).join("\n      ");
  return `<nav id="views" aria-label="Views"${oob ? ' hx-swap-oob="true"' : ""}>
      ${links}
    </nav>`;
}

/** What htmx swaps into #main: the fragment, the document's new title, and the nav with the active view marked. */
export function partial(active: ViewName | undefined, title: string, main: string): string {
  return `<title>${escapeHtml(title)} · memnox memory</title>\n${main}\n${navBar(active, true)}`;
}

/** The whole page: a full view renders its fragment inside <main id="main">, so every URL works without htmx. */
export function shell(active: ViewName | undefined, title: string, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"selfRequestsOnly":true}'>
  <title>${escapeHtml(title)} · memnox memory</title>
  <link rel="stylesheet" href="/style.css">
  <script src="/htmx.js" defer></script>
</head>
<body>
  <header class="top">
    <a class="brand" href="/"${active === "overview" ? ' aria-current="page"' : ""} aria-label="memnox memory home">${BRAND}<span>memnox memory</span></a>
    ${navBar(active)}
    <span class="readonly" title="This dashboard never writes pages or transcripts">read-only</span>
  </header>
  <main id="main">
${main}
  </main>
</body>
</html>
`;
}

export function badge(text: string, kind = ""): string {
  return `<span class="badge${kind ? ` ${kind}` : ""}">${escapeHtml(text)}</span>`;
}

export function empty(message: string, detail = ""): string {
  return `<p class="empty">${escapeHtml(message)}${detail ? `<br><small>${escapeHtml(detail)}</small>` : ""}</p>`;
}

export function notice(message: string): string {
  return `<p class="notice" role="status">${escapeHtml(message)}</p>`;
}

export function section(title: string, body: string, cls = ""): string {
  return `<section${cls ? ` class="${cls}"` : ""}><h2>${escapeHtml(title)}</h2>\n${body}\n</section>`;
}

export function number(n: number): string {
  return n.toLocaleString("en-US");
}
