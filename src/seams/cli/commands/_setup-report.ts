// The human form of `memnox setup`; the JSON form is the report itself.
import type { AppCopy } from "../../../wire/app.ts";
import { clientDef } from "../../../wire/clients.ts";
import type { HookReport } from "../../../wire/hooks/install.ts";
import type { Reach } from "../../../wire/reach.ts";
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

export function renderReach(reach: Reach, app: AppCopy, home: string): string[] {
  return ["memnox setup", `  ${app.words}`, ...reach.lines, ""].map(homeWords(home));
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
