// The dashboard's one stylesheet, served as /style.css: no inline styles, so the page's CSP can forbid them.
export const STYLE = `:root { color-scheme: light dark; --bg: #fbfbfa; --fg: #1d1f21; --muted: #6a6f75; --line: #dfe1e4;
  --card: #ffffff; --accent: #3b5bdb; --warn: #b35c00; --ok: #2b8a3e; --mark: #fff3bf; }
@media (prefers-color-scheme: dark) { :root { --bg: #17181a; --fg: #e8e9ea; --muted: #9aa0a6; --line: #2e3135;
  --card: #1f2124; --accent: #8ca3ff; --warn: #ffb056; --ok: #69db7c; --mark: #5c4b00; } }
* { box-sizing: border-box; }
body { margin: 0; font: 15px/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; background: var(--bg); color: var(--fg); }
a { color: var(--accent); text-decoration: none; } a:hover { text-decoration: underline; }
header.top { display: flex; gap: 1.5rem; align-items: center; padding: .75rem 1.5rem; border-bottom: 1px solid var(--line); flex-wrap: wrap; }
.brand { display: flex; gap: .5rem; align-items: center; font-weight: 700; color: var(--fg); }
nav { display: flex; gap: 1rem; flex-wrap: wrap; } nav a[aria-current="page"] { font-weight: 700; text-decoration: underline; }
.readonly { margin-left: auto; font-size: .8rem; color: var(--muted); border: 1px solid var(--line); border-radius: 999px; padding: .1rem .6rem; }
main { max-width: 72rem; margin: 0 auto; padding: 1.5rem; }
h1 { font-size: 1.5rem; margin: 0 0 1rem; } h2 { font-size: 1.15rem; margin: 1.5rem 0 .75rem; }
.stats { display: grid; grid-template-columns: repeat(auto-fit, minmax(11rem, 1fr)); gap: .75rem; }
.stat { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .75rem 1rem; }
.stat b { display: block; font-size: 1.6rem; } .stat span { color: var(--muted); font-size: .85rem; }
.cards { display: grid; grid-template-columns: repeat(auto-fill, minmax(20rem, 1fr)); gap: .75rem; }
.card, .session-card, .turn { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: .75rem 1rem; }
.card h3, .session-card h3 { margin: 0 0 .25rem; font-size: 1rem; }
.card p { margin: .25rem 0; color: var(--muted); } .meta { color: var(--muted); font-size: .8rem; }
.badge { display: inline-block; font-size: .75rem; border: 1px solid var(--line); border-radius: 999px; padding: 0 .5rem; margin-right: .25rem; }
.badge.pending { color: var(--warn); border-color: var(--warn); } .badge.ok { color: var(--ok); border-color: var(--ok); }
.badge.fail { color: var(--warn); border-color: var(--warn); }
.filters { display: flex; gap: .5rem; flex-wrap: wrap; margin: 0 0 .75rem; }
.filters a { border: 1px solid var(--line); border-radius: 999px; padding: .1rem .7rem; }
.filters a[aria-current="true"] { background: var(--accent); color: var(--bg); border-color: var(--accent); }
.pager { display: flex; gap: 1rem; align-items: center; margin: 1rem 0; }
.empty, .notice { color: var(--muted); background: var(--card); border: 1px dashed var(--line); border-radius: 10px; padding: 1rem; }
form.search { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; margin: 1rem 0; }
form.search input[type=search] { flex: 1 1 18rem; padding: .45rem .6rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); color: var(--fg); }
button, select { padding: .4rem .8rem; border: 1px solid var(--line); border-radius: 8px; background: var(--card); color: var(--fg); cursor: pointer; }
button.primary { background: var(--accent); color: var(--bg); border-color: var(--accent); }
mark { background: var(--mark); color: inherit; }
.session-day { margin-bottom: 1.5rem; } .session-group { margin: .5rem 0 1rem; } .session-group h4 { margin: .25rem 0; color: var(--muted); font-weight: 600; }
.sessions { display: grid; gap: .5rem; }
.turn { margin: .5rem 0; } .turn header { display: flex; justify-content: space-between; font-size: .85rem; color: var(--muted); margin-bottom: .25rem; }
.turn.user { border-left: 4px solid var(--accent); } .turn.agent { border-left: 4px solid var(--ok); } .turn.tool { border-left: 4px solid var(--warn); }
pre { white-space: pre-wrap; word-break: break-word; background: var(--bg); border: 1px solid var(--line); border-radius: 8px; padding: .5rem; margin: .25rem 0; font-size: .85rem; }
details summary { cursor: pointer; color: var(--accent); font-size: .85rem; }
table { border-collapse: collapse; width: 100%; } th, td { text-align: left; padding: .35rem .5rem; border-bottom: 1px solid var(--line); }
td.num, th.num { text-align: right; font-variant-numeric: tabular-nums; }
svg.chart { width: 100%; height: auto; max-height: 16rem; } svg.chart rect { fill: var(--accent); } svg.chart text { fill: var(--muted); font-size: 11px; }
.page-body { background: var(--card); border: 1px solid var(--line); border-radius: 10px; padding: 1rem 1.25rem; }
`;
