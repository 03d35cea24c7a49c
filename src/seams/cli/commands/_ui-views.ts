// `memnox ui`'s pages: what is waiting for a person (held calls, wary and paused sessions), the timeline, the rules in
// force. Built with the console's escaping templates, so no value reaches the page unescaped; no script at all.
import { type Html, html, raw } from "../../../cloud/console/html.ts";
import { formatDuration } from "../../../core/duration.ts";
import type { Entry } from "../../../ledger/read/entries.ts";
import type { PolicyRule } from "../../../policy/engine/types.ts";
import type { LoadedRuleSet } from "../../../policy/load/types.ts";
import type { PausedSession } from "../../../state/paused.ts";
import type { Hold } from "../../../state/pending.ts";

export type UiView = "waiting" | "timeline" | "rules";

const NAV: readonly (readonly [UiView, string, string])[] = [
  ["waiting", "/", "Waiting"],
  ["timeline", "/timeline", "Timeline"],
  ["rules", "/rules", "Rules in force"],
];

interface PageFrame {
  readonly view: UiView;
  readonly title: string;
  readonly mode: string;
  /** The OS account answers are recorded as. */
  readonly person: string;
  readonly nowMs: number;
  /** What the last answer did, said once. */
  readonly flash?: string;
  /** Seconds before the page reads the machine again (the waiting list only). */
  readonly refresh?: number;
}

export function page(f: PageFrame, body: Html): string {
  const nav = NAV.map(
    ([v, href, label]) => html`<a href="${href}"${v === f.view ? raw(' aria-current="page"') : ""}>${label}</a>`,
  );
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
${f.refresh ? raw(`<meta http-equiv="refresh" content="${f.refresh}">`) : ""}
<title>${f.title} · memnox</title>
<link rel="stylesheet" href="/ui.css">
</head>
<body>
<header>
  <strong>memnox</strong> on this machine
  <span class="mode mode-${f.mode}">${f.mode}</span>
  <span class="who">answers are recorded as <b>${f.person}</b></span>
  <nav aria-label="Views">${nav}</nav>
</header>
<main id="main">
${f.flash ? html`<p class="flash" role="status">${f.flash}</p>` : ""}
${body}
<p class="stamp">read at ${new Date(f.nowMs).toISOString()}</p>
</main>
</body>
</html>
`.text;
}

function left(iso: string, nowMs: number): string {
  return formatDuration(Math.max(0, Date.parse(iso) - nowMs));
}

function answerForm(h: Hold, csrf: string, verb: "approve" | "deny", scope: "once" | "session", label: string): Html {
  return html`<form method="post" action="/holds/${h.id}/${verb}">
  <input type="hidden" name="_csrf" value="${csrf}">
  <input type="hidden" name="scope" value="${scope}">
  <button type="submit" class="${verb}" name="answer" value="${verb}">${label}</button>
</form>`;
}

function holdCard(h: Hold, csrf: string, nowMs: number): Html {
  const rule = h.rule ? html`<dt>Rule</dt><dd>${h.rule.name} (${h.rule.file}:${h.rule.line})</dd>` : "";
  const quorum =
    h.approvers.length > 0 || h.minApprovals > 1
      ? html`<dt>Answered by</dt><dd>${h.approvers.length ? h.approvers.join(" or ") : "anyone"}: ${h.grants.length} of ${h.minApprovals} so far</dd>`
      : "";
  return html`<article class="hold" id="hold-${h.id}" data-hold="${h.id}">
  <h3><span class="agent">${h.agent ?? "an agent"}</span> wants <code>${h.action}</code>${h.target ? html` on <code>${h.target}</code>` : ""}</h3>
  <p class="reason">${h.reason}</p>
  <dl>
    ${rule}
    <dt>Session</dt><dd>${h.session ?? "unknown"}</dd>
    <dt>Seam</dt><dd>${h.surface}</dd>
    <dt>Waiting</dt><dd>${formatDuration(nowMs - Date.parse(h.createdAt))}, ${left(h.expiresAt, nowMs)} left</dd>
    ${quorum}
    <dt>Hold</dt><dd><code>${h.id}</code></dd>
  </dl>
  <div class="answers">
    ${answerForm(h, csrf, "approve", "once", "Approve once")}
    ${h.session ? answerForm(h, csrf, "approve", "session", "Approve for this session") : ""}
    ${answerForm(h, csrf, "deny", "once", "Deny")}
  </div>
</article>`;
}

export function waitingView(sessions: readonly PausedSession[], csrf: string, nowMs: number): Html {
  const holds = sessions.flatMap((s) => s.held).sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  const held = sessions.filter((s) => s.facts.length > 0);
  return html`<section aria-labelledby="waiting-h">
  <h2 id="waiting-h">Waiting for a person <span class="count">${holds.length}</span></h2>
  ${holds.length === 0 ? html`<p class="empty">Nothing is waiting for an answer.</p>` : holds.map((h) => holdCard(h, csrf, nowMs))}
</section>
<section aria-labelledby="paused-h">
  <h2 id="paused-h">Sessions held back <span class="count">${held.length}</span></h2>
  ${
    held.length === 0
      ? html`<p class="empty">No session is wary or paused.</p>`
      : html`<ul class="sessions">${held.map(
          (s) =>
            html`<li><code>${s.session ?? "(no session)"}</code><ul>${s.facts.map(
              (f) =>
                html`<li>${f.kind} for ${left(f.expiresAt, nowMs)} more${f.reason ? html`: ${f.reason}` : ""}${f.by ? html` (${f.by})` : ""}</li>`,
            )}</ul></li>`,
        )}</ul>
  <p class="hint">A person lets a wary or paused session carry on with <code>memnox resume --by &lt;name&gt; &lt;session&gt;</code> in their own terminal.</p>`
  }
</section>`;
}

const FINAL_WORDS: Readonly<Record<string, string>> = {
  proceeded: "ran",
  failed: "ran, failed",
  blocked: "blocked",
  held: "held",
};

function entryRow(e: Entry): Html {
  const r = e.row;
  const verdict = r.kind === "decision" ? (r.enforceEffect ?? r.effect ?? "") : r.kind;
  const final = e.final ? FINAL_WORDS[e.final] : "";
  const exit = e.outcome?.exitCode !== undefined ? ` (exit ${e.outcome.exitCode})` : "";
  const rule = r.ruleId
    ? html`<br><small>${r.ruleId}${r.ruleFile ? ` · ${r.ruleFile}:${r.ruleLine ?? ""}` : ""}</small>`
    : "";
  return html`<tr class="kind-${r.kind} verdict-${verdict}">
  <td><time datetime="${r.occurredAt}">${r.occurredAt.replace("T", " ").slice(0, 19)}</time></td>
  <td>${r.agent ?? ""}<br><small>${r.agentSessionId ?? ""}</small></td>
  <td><code>${r.operation}</code>${r.resourceRef ? html`<br><small>${r.resourceRef}</small>` : ""}</td>
  <td class="verdict">${verdict}${final ? html`<br><small>${final}${exit}</small>` : ""}</td>
  <td>${r.reason ?? ""}${rule}</td>
</tr>`;
}

const TIMELINE_LIMIT = 300;

export function timelineView(entries: readonly Entry[] | undefined, since: string, only: string | undefined): Html {
  const filters = ["all", "deny", "ask", "blocked"].map((o) => {
    const href =
      o === "all"
        ? `/timeline?since=${encodeURIComponent(since)}`
        : `/timeline?since=${encodeURIComponent(since)}&only=${o}`;
    const on = (only ?? "all") === o;
    return html`<a href="${href}"${on ? raw(' aria-current="true"') : ""}>${o}</a>`;
  });
  const ranges = ["1h", "1d", "7d", "30d"].map(
    (r) =>
      html`<a href="/timeline?since=${r}${only ? `&only=${only}` : ""}"${r === since ? raw(' aria-current="true"') : ""}>${r}</a>`,
  );
  if (entries === undefined)
    return html`<section><h2>Timeline</h2><p class="empty">Nothing recorded yet: there is no ledger on this machine.</p></section>`;
  const newest = [...entries].reverse().slice(0, TIMELINE_LIMIT);
  return html`<section aria-labelledby="timeline-h">
  <h2 id="timeline-h">Timeline <span class="count">${entries.length}</span></h2>
  <p class="filters">Since ${ranges} · show ${filters}</p>
  ${
    newest.length === 0
      ? html`<p class="empty">Nothing recorded in this range.</p>`
      : html`<table class="timeline">
  <thead><tr><th>When (UTC)</th><th>Agent</th><th>Action</th><th>Verdict</th><th>Why</th></tr></thead>
  <tbody>${newest.map(entryRow)}</tbody>
</table>${entries.length > newest.length ? html`<p class="hint">The newest ${newest.length} of ${entries.length}; <code>memnox timeline --json</code> has them all.</p>` : ""}`
  }
</section>`;
}

function matchWords(r: PolicyRule): Html {
  const m = r.match;
  const parts: Html[] = [];
  const list = (label: string, v: readonly string[] | undefined) => {
    if (v?.length) parts.push(html`<span class="field">${label}</span> <code>${v.join(", ")}</code>`);
  };
  list("actions", m.actions);
  list("classes", m.classes);
  list("targets", m.targets);
  list("agents", m.agents);
  list("environments", m.environments);
  list("branches", m.branches);
  list("in", m.workingDirectories);
  return parts.length ? html`${parts.map((p, i) => html`${i ? raw("<br>") : ""}${p}`)}` : html`<em>everything</em>`;
}

export function rulesView(set: LoadedRuleSet, cwd: string): Html {
  const rules = set.checked.flatMap((c) => c.rules);
  const files = set.checked.map(
    (c) =>
      html`<li><code>${c.path}</code> (${c.origin}, ${c.rules.length} rule(s)${c.applies ? "" : ", not applying here"})${
        c.problems.length
          ? html`<ul class="problems">${c.problems.map((p) => html`<li>${p.line ? `line ${p.line}: ` : ""}${p.message}</li>`)}</ul>`
          : ""
      }</li>`,
  );
  return html`<section aria-labelledby="rules-h">
  <h2 id="rules-h">Rules in force <span class="count">${rules.length}</span></h2>
  <p>At <code>${cwd}</code>, set <code>${set.hash.slice(0, 16)}</code>.</p>
  ${set.checked.length ? html`<ul class="files">${files}</ul>` : html`<p class="empty">No rule file applies here: every action is ungoverned.</p>`}
  ${
    set.problems.length
      ? html`<p class="problem">${set.problems.length} problem(s): in enforce a broken file that applies refuses every action.</p>`
      : ""
  }
  ${
    rules.length
      ? html`<table class="rules">
  <thead><tr><th>Rule</th><th>Effect</th><th>Matches</th><th>Why</th><th>Where</th></tr></thead>
  <tbody>${rules.map(
    (r) => html`<tr class="effect-${r.decision.effect}">
    <td><code>${r.name}</code></td>
    <td>${r.decision.effect}${r.decision.mode === "observe" ? " (observe)" : ""}</td>
    <td>${matchWords(r)}</td>
    <td>${r.decision.reason ?? r.description ?? ""}${r.decision.alternative ? html`<br><small>instead: ${r.decision.alternative.note}</small>` : ""}</td>
    <td><small>${r.file}:${r.line}</small></td>
  </tr>`,
  )}</tbody>
</table>`
      : ""
  }
</section>`;
}

export const UI_CSS = `
:root { color-scheme: light dark; --fg: #1d2329; --muted: #5b6670; --line: #d5dbe1; --bg: #fff; --card: #f6f8fa;
  --allow: #1a7f37; --ask: #9a6700; --deny: #cf222e; }
@media (prefers-color-scheme: dark) { :root { --fg: #e6edf3; --muted: #9aa6b2; --line: #30363d; --bg: #0d1117; --card: #161b22; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.45 system-ui, sans-serif; color: var(--fg); background: var(--bg); }
header { display: flex; flex-wrap: wrap; gap: .75rem 1.25rem; align-items: center; padding: .75rem 1.25rem; border-bottom: 1px solid var(--line); }
header nav { display: flex; gap: 1rem; margin-left: auto; }
header nav a { color: var(--fg); text-decoration: none; padding: .2rem 0; }
header nav a[aria-current="page"] { border-bottom: 2px solid var(--fg); font-weight: 600; }
.mode { border: 1px solid var(--line); border-radius: 1rem; padding: 0 .6rem; font-size: .85em; }
.mode-enforce { color: var(--deny); } .mode-advise { color: var(--ask); } .mode-observe, .mode-off { color: var(--muted); }
.who { color: var(--muted); font-size: .9em; }
main { max-width: 72rem; margin: 0 auto; padding: 1rem 1.25rem 3rem; }
h2 { font-size: 1.15rem; margin: 1.5rem 0 .75rem; }
.count { color: var(--muted); font-weight: normal; }
.flash { background: var(--card); border-left: 4px solid var(--allow); padding: .6rem .8rem; }
.empty, .hint, .stamp { color: var(--muted); }
.hold { background: var(--card); border: 1px solid var(--line); border-radius: .5rem; padding: .75rem 1rem; margin: 0 0 .75rem; }
.hold h3 { margin: 0 0 .4rem; font-size: 1rem; }
.hold dl { display: grid; grid-template-columns: max-content 1fr; gap: .15rem .75rem; margin: .5rem 0; }
.hold dt { color: var(--muted); }
.hold dd { margin: 0; overflow-wrap: anywhere; }
.answers { display: flex; flex-wrap: wrap; gap: .5rem; }
.answers form { margin: 0; }
button { font: inherit; padding: .35rem .9rem; border-radius: .35rem; border: 1px solid var(--line); background: var(--bg); color: var(--fg); cursor: pointer; }
button.approve { border-color: var(--allow); color: var(--allow); }
button.deny { border-color: var(--deny); color: var(--deny); }
table { width: 100%; border-collapse: collapse; font-size: .9em; }
th, td { text-align: left; vertical-align: top; padding: .35rem .5rem; border-bottom: 1px solid var(--line); overflow-wrap: anywhere; }
small { color: var(--muted); }
.verdict-deny .verdict, .effect-deny td:nth-child(2) { color: var(--deny); }
.verdict-ask .verdict, .effect-ask td:nth-child(2) { color: var(--ask); }
.verdict-allow .verdict, .effect-allow td:nth-child(2) { color: var(--allow); }
.filters a { margin: 0 .2rem; }
.filters a[aria-current="true"] { font-weight: 600; }
.problems, .problem { color: var(--deny); }
code { font: .9em ui-monospace, monospace; }
`;
