// The human form of `memnox setup`; the JSON form is the report itself.
import { clientDef } from "../../../wire/clients.ts";
import type { HookReport } from "../../../wire/hooks/install.ts";
import type { SessionServerReport } from "../../../wire/session-server.ts";
import type { SetupReport } from "../../../wire/setup.ts";
import { pad } from "../output.ts";

export function tilde(home: string): (path: string) => string {
  return (p) => (p === home ? "~" : p.startsWith(`${home}/`) ? `~${p.slice(home.length)}` : p);
}

function hookLine(h: HookReport, t: (p: string) => string): string {
  if (h.status === "refused" || h.status === "unparsable") {
    return `${h.label}: not hooked, ${t(h.file)} was left as it was: ${h.problem?.message ?? h.status}`;
  }
  if (h.trust && !h.trust.active) return `${h.label}: ${h.trust.words} → ${h.trust.step ?? ""}`;
  return `${h.label}: hooked (${h.trust?.words ?? "active"})`;
}

function sessionLine(r: SessionServerReport): string {
  const ok = r.files.filter((f) => f.status === "added" || f.status === "updated" || f.status === "present");
  const bad = r.files.filter((f) => !ok.includes(f));
  const names = ok.map((f) => clientDef(f.client).label).join(", ");
  const failed = bad.map((f) => `${clientDef(f.client).label} (${f.problem ?? f.status})`).join(", ");
  return [
    names ? `memnox-session in ${names}` : "no agent to add memnox-session to",
    failed ? `; not in ${failed}` : "",
  ].join("");
}

/** Paths under HOME written with `~` inside a line of words. */
export function homeWords(home: string): (line: string) => string {
  return (l) => l.replaceAll(`${home}/`, "~/");
}

export function renderSetup(r: SetupReport, home: string): string[] {
  const t = tilde(home);
  const row = (k: string, v: string) => `  ${pad(k, 13)} ${v}`;
  const i = r.interceptors;
  const lines = ["Wired this machine"];
  lines.push(
    row(
      "interceptors",
      `${i.installed.length} in ${t(i.dir)}${i.added.length ? ` (${i.added.length} new)` : ""}; ${i.absent.length} CLI(s) memnox knows are not on this machine (memnox protect --interceptors names them)`,
    ),
  );
  const hooks = r.hooks.map((h) => hookLine(h, t));
  for (const k of r.keptOut) hooks.push(`${k.agent}: left out, as a person chose (${k.fix} puts it back)`);
  lines.push(row("hooks", hooks[0] ?? "no agent found to hook"), ...hooks.slice(1).map((h) => row("", h)));
  lines.push(...r.shells.map((sh, i) => row(i === 0 ? "commands" : "", `${sh.agent}: ${sh.words}`)));
  if ("skipped" in r.mcp) lines.push(row("mcp", r.mcp.skipped));
  else {
    const c = r.mcp.counts;
    const through = (c.wrapped ?? 0) + (c["already-wrapped"] ?? 0) + (c.repointed ?? 0);
    const remote = c.remote ? `; ${c.remote} remote, which the proxy cannot stand in front of` : "";
    lines.push(row("mcp", `${through} server(s) through the proxy${remote}`));
  }
  lines.push(row("session", "skipped" in r.session ? r.session.skipped : sessionLine(r.session)));
  const rules = r.rules;
  lines.push(
    row(
      "rules",
      `${rules.machine.added.length + rules.machine.unchanged.length + rules.machine.keptYours.length} in ${t(rules.machine.path)}, in force in every repository and outside any`,
    ),
    ...(rules.repository
      ? [row("", `${t(rules.repository.path)} keeps its own rules, which add to these and can only tighten them`)]
      : []),
    row("", teamLine(r, t)),
  );
  lines.push(
    row(
      "mode",
      r.mode.mode === "observe"
        ? "observe: verdicts are recorded and nothing is refused (memnox config set mode enforce makes them bite)"
        : r.mode.mode,
    ),
  );
  lines.push(row("daemon", `${r.daemon.words}${r.daemon.fix ? ` (${r.daemon.fix})` : ""}`));
  return lines;
}

function teamLine(r: SetupReport, t: (p: string) => string): string {
  const team = r.team;
  if ("skipped" in team) return `no repository rule file: ${team.skipped}`;
  if (team.created)
    return `${t(team.path)}: ${team.added.length} rules of this repository's own, new and not yet committed: read it, then commit it so the team reviews it`;
  if (team.added.length > 0)
    return `${t(team.path)}: added ${team.added.join(", ")} to the rules already there (a copy of the file before is in ~/.memnox/backup/protect)`;
  return `${t(team.path)}: already holds this repository's rules`;
}

interface Standing {
  /** What holds now, in a few words each. */
  readonly active: readonly string[];
  /** What does not hold until the person does something: what, why not yet, and the step. */
  readonly waiting: readonly { readonly what: string; readonly why: string; readonly step: string }[];
  readonly lines: readonly string[];
  /** The last line: exactly what is active now and what waits on the person. */
  readonly end: string;
}

interface PathChoice {
  readonly ahead: boolean;
  readonly written: boolean;
  readonly added: boolean;
  readonly line: string;
  readonly profile: string;
}

function hookOk(h: HookReport): boolean {
  return h.status === "added" || h.status === "repointed" || h.status === "unchanged";
}

/** What setup leaves in force and what waits on the person, from the report (never a claim it did not check). */
export function setupStanding(r: SetupReport, path: PathChoice): Standing {
  const active: string[] = [];
  const waiting: { what: string; why: string; step: string }[] = [];
  const running = r.hooks.filter((h) => hookOk(h) && (h.trust?.active ?? true)).map((h) => h.label);
  if (running.length) active.push(`the hook in ${running.join(", ")}`);
  for (const h of r.hooks) {
    if (hookOk(h) && h.trust && !h.trust.active)
      waiting.push({ what: `${h.label}'s hook`, why: h.trust.words, step: h.trust.step ?? "" });
    if (!hookOk(h))
      waiting.push({
        what: `${h.label}'s hook`,
        why: `not installed: ${h.problem?.message ?? h.status}`,
        step: `fix ${h.file}, then run memnox setup again`,
      });
  }
  if (!("skipped" in r.mcp)) {
    const c = r.mcp.counts;
    const through = (c.wrapped ?? 0) + (c["already-wrapped"] ?? 0) + (c.repointed ?? 0);
    if (through) active.push(`${through} MCP server(s) through the proxy`);
  }
  const rules = r.rules.machine.added.length + r.rules.machine.unchanged.length + r.rules.machine.keptYours.length;
  const team = "skipped" in r.team ? 0 : r.team.added.length + r.team.unchanged.length + r.team.keptYours.length;
  active.push(`${rules + team} rules in ${r.mode.mode}`);
  const reach = path.ahead
    ? "every command on this PATH"
    : path.added
      ? "what agents start, and your own commands from your next login"
      : "what agents start through their hooks and memnox run";
  active.push(`${r.interceptors.installed.length} interceptors for ${reach}`);
  if (r.daemon.status === "failed")
    waiting.push({ what: "the daemon", why: "not running", step: r.daemon.fix ?? "memnox daemon --background" });
  else active.push("the daemon");
  const lines = [
    ...(path.ahead || path.added || path.written
      ? []
      : [
          `  ${pad("PATH", 13)} ~/.memnox/bin is not on your login PATH, so your own commands and the programs an editor starts do not meet the interceptors; to change that, add this line to ${path.profile}:`,
          `  ${pad("", 13)} ${path.line}`,
        ]),
    ...(path.written && !path.ahead ? [`  ${pad("PATH", 13)} in ${path.profile}: a new login shell picks it up`] : []),
    ...(waiting.length ? ["", "Waiting on you", ...waiting.map((w) => `  ${w.what}: ${w.why} → ${w.step}`)] : []),
  ];
  const end = waiting.length
    ? `Active now: ${active.join("; ")}. Waiting on you: ${waiting.map((w) => w.what).join(", ")}.`
    : `Active now: ${active.join("; ")}. Nothing waits on you.`;
  return { active, waiting, lines, end };
}
