// The frame every page shares: the workspace a page answers for (the selection, never a path segment), the one box to
// reach anything, the tree in five groups, and the menu under the avatar for what is only yours.
import { type ConsoleCall, invoke } from "./call.ts";
import { type Html, html, type Part } from "./html.ts";

export interface Me {
  readonly kind: string;
  readonly actor: string;
  readonly role: "viewer" | "reviewer" | "admin";
  readonly email?: string;
  readonly memberId?: string;
  readonly name?: string | null;
  readonly org: { readonly id: string; readonly name: string; readonly onboarded: boolean };
  readonly otherOrgs: readonly { readonly id: string; readonly name: string }[];
  readonly workspace: { readonly id: string; readonly name: string };
}

interface NavItem {
  readonly path: string;
  readonly label: string;
}

/** The order is the argument: what can act, what it may do, what it caught, what it reads, and the organization. */
export const TREE: readonly { readonly group: string; readonly items: readonly NavItem[] }[] = [
  {
    group: "Fleet",
    items: [
      { path: "/machines", label: "Machines" },
      { path: "/agents", label: "Agents" },
      { path: "/map", label: "Map" },
    ],
  },
  {
    group: "Govern",
    items: [
      { path: "/waiting", label: "Waiting on you" },
      { path: "/autonomy", label: "Autonomy" },
      { path: "/memory", label: "Memory" },
    ],
  },
  { group: "Record", items: [{ path: "/caught", label: "What was caught" }] },
  {
    group: "Inputs",
    items: [
      { path: "/connectors", label: "Connectors" },
      { path: "/files", label: "Files" },
      { path: "/meetings", label: "Meetings" },
    ],
  },
  {
    group: "Organization",
    items: [
      { path: "/people", label: "People" },
      { path: "/billing", label: "Billing" },
      { path: "/settings", label: "Settings" },
    ],
  },
];

export function meOf(c: ConsoleCall): Promise<Me> {
  return invoke<Me>(c, "GET /v1/me");
}

/** A hidden field every form carries: the session's own token, checked before any form is acted on. */
export function csrf(c: ConsoleCall): Html {
  return html`<input type="hidden" name="_csrf" value="${c.session?.csrf ?? ""}">`;
}

/** A form posting one action back to the page it is on; `fields` are hidden inputs, `body` the visible controls. */
export function form(
  c: ConsoleCall,
  action: string,
  fields: Readonly<Record<string, string>>,
  body: Part,
  opts: { readonly path?: string; readonly label?: string; readonly className?: string; readonly file?: boolean } = {},
): Html {
  const hidden = Object.entries(fields).map(([k, v]) => html`<input type="hidden" name="${k}" value="${v}">`);
  return html`<form method="post" action="${opts.path ?? c.url.pathname}" class="${opts.className ?? "act"}"${
    opts.label ? html` aria-label="${opts.label}"` : ""
  }${opts.file ? html` enctype="multipart/form-data"` : ""}>${csrf(c)}<input type="hidden" name="_action" value="${action}">${hidden}${body}</form>`;
}

export interface Said {
  readonly error?: string;
  readonly ok?: string;
  /** Shown in this answer only (a secret, a credential, a receipt): nothing links back to it. */
  readonly once?: Html;
}

export function shell(c: ConsoleCall, me: Me, title: string, main: Part, said?: Said): Html {
  const here = c.url.pathname;
  const link = (item: NavItem) =>
    html`<li><a href="${item.path}"${item.path === here ? html` aria-current="page"` : ""}>${item.label}</a></li>`;
  return html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="htmx-config" content='{"includeIndicatorStyles":false,"allowEval":false,"allowScriptTags":false,"historyCacheSize":0,"attributesToSettle":["class","width","height"],"refreshOnHistoryMiss":true,"responseHandling":[{"code":"204","swap":false},{"code":"[2345]..","swap":true}]}'>
<title>${title} · ${me.workspace.name} · memnox</title>
<link rel="stylesheet" href="/console.css">
<script src="/htmx.js" defer></script>
</head>
<body hx-boost="true" hx-history="false">
<a class="skip" href="#main">Skip to the page</a>
<header class="top">
  <a class="brand" href="/">memnox</a>
  <span class="workspace" title="The workspace every page answers for">${me.workspace.name}</span>
  <form class="find" method="get" action="/search" role="search">
    <label for="find-q" class="visually-hidden">Find anything</label>
    <input id="find-q" name="q" type="search" placeholder="Find a machine, agent, person, rule…" value="${
      here === "/search" ? (c.url.searchParams.get("q") ?? "") : ""
    }">
    <button type="submit">Find</button>
  </form>
  <details class="avatar">
    <summary aria-label="Your account">${me.name || me.email || me.actor} <span class="role">${me.role}</span></summary>
    <div class="menu">
      <p>${me.email ?? me.actor}<br><span class="muted">${me.role} in ${me.org.name}</span></p>
      ${me.otherOrgs.map(
        (o) => html`<form method="post" action="/workspace">${csrf(c)}<input type="hidden" name="org" value="${o.id}">
          <button type="submit">Switch to ${o.name}</button></form>`,
      )}
      <form method="post" action="/signout">${csrf(c)}<button type="submit">Sign out</button></form>
    </div>
  </details>
</header>
<div class="frame">
<nav class="tree" aria-label="Console">
  <ul><li><a href="/"${here === "/" ? html` aria-current="page"` : ""}>Home</a></li></ul>
  ${TREE.map((g) => html`<h2>${g.group}</h2><ul>${g.items.map(link)}</ul>`)}
</nav>
<main id="main" tabindex="-1">
  <h1>${title}</h1>
  ${said?.error ? html`<p class="said error" role="alert">${said.error}</p>` : ""}
  ${said?.ok ? html`<p class="said ok" role="status">${said.ok}</p>` : ""}
  ${said?.once ? html`<section class="once" aria-label="Shown once">${said.once}</section>` : ""}
  ${main}
</main>
</div>
</body></html>`;
}

/** A page outside the tree (signing in, a refusal): the same styles and policy, no navigation. */
export function bare(title: string, main: Part): Html {
  return html`<html lang="en"><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title} · memnox</title>
<link rel="stylesheet" href="/console.css">
</head>
<body class="bare"><main id="main"><h1>${title}</h1>${main}</main></body></html>`;
}

/** An empty state: what will be here, and why nothing is yet. */
export function empty(what: Part): Html {
  return html`<p class="empty">${what}</p>`;
}
