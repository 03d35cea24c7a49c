// The status screen: one row per fact, protection first when it is stopped, and a last line that says what the
// machine is and the one step that changes it.
import { basename } from "node:path";
import { agentProduct } from "./agents.ts";
import type { AgentHook } from "./hooked.ts";
import type { Status } from "./status.ts";

const row = (name: string, words: string) => `│ ${name.padEnd(11)}${words}`;
const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

const MODE_WORDS: Readonly<Record<Status["mode"], string>> = {
  off: "off, deciding and recording nothing",
  observe: "observe, watching rather than stopping",
  advise: "advise, saying what it would stop and stopping nothing",
  enforce: "enforce, applying every verdict",
};

/** Where no service manager runs, --install cannot help: --background starts it now, anywhere. */
const DAEMON_FIX = "memnox daemon --background starts it now; the first agent hook starts it too";

function daemonWords(s: Status): string {
  if (s.daemon === "running") return "running, and keeping new agents and servers under memnox";
  if (s.daemon === "not-answering")
    return `not answering on ~/.memnox/memnox.sock: the rules are in force, but nothing keeps new agents under memnox (${DAEMON_FIX})`;
  return `not running: the rules are in force, but nothing keeps new agents under memnox (${DAEMON_FIX})`;
}

function hookWords(s: Status): string {
  // The name a person gave is what every screen prints; an agent nobody named reads as its product.
  const label = (id: string) => {
    const given = s.agents.found.find((a) => a.id === id)?.name;
    return given !== undefined && given !== id ? given : agentProduct(id);
  };
  const named = (hs: readonly AgentHook[]) => hs.map((h) => label(h.agent)).join(", ");
  const by = (state: AgentHook["state"]) => s.hooks.filter((h) => h.state === state);
  const parts = [
    ...(by("hooked").length ? [`hooked: ${named(by("hooked"))}`] : []),
    ...by("installed-inactive").map((h) => `${label(h.agent)} installed, ${h.note ?? "not active yet"}`),
    ...(by("not-installed").length ? [`not hooked: ${named(by("not-installed"))}`] : []),
  ];
  const found = plural(s.agents.found.length, "agent");
  return parts.length ? `${found}, ${parts.join("; ")}` : found;
}

function todayWords(s: Status): string {
  const t = s.today;
  if (s.mode === "enforce") return `${plural(t.actions, "action")}, ${t.asked} asked, ${t.denied} denied`;
  return `${plural(t.actions, "action")}, ${t.wouldAsk} would have been asked, ${t.wouldDeny} would have been denied`;
}

export function renderStatus(s: Status): string[] {
  const stoppedRow = s.stopped
    ? [
        row(
          "protection",
          `stopped by ${s.stopped.by} at ${s.stopped.stoppedAt} until ${s.stopped.until}${s.stopped.reason ? `: ${s.stopped.reason}` : ""}`,
        ),
      ]
    : [];
  const rules = s.rules;
  const files = rules.files.map((f) => basename(f)).join(", ");
  const last = s.stopped
    ? 'Memnox protection is stopped on this machine. "memnox start" turns it back on.'
    : !s.setup
      ? 'Setup has not run on this machine. "memnox setup" puts it under memnox.'
      : s.daemon === "running"
        ? 'Memnox is keeping this machine. "memnox login" connects this machine to your team.'
        : 'The rules are in force, but nothing keeps new agents under memnox: "memnox daemon --background".';
  return [
    "┌ memnox status",
    "│",
    "◇ This machine",
    ...stoppedRow,
    row("mode", MODE_WORDS[s.mode]),
    ...Object.entries(s.seamModes ?? {}).flatMap(([seam, m]) =>
      m ? [row(`mode.${seam}`, `${MODE_WORDS[m]}, for the ${seam} seam alone`)] : [],
    ),
    row("daemon", daemonWords(s)),
    row("agents", hookWords(s)),
    row("mcp", `${s.mcp.through} of ${plural(s.mcp.servers, "server")} through memnox`),
    row(
      "rules",
      rules.files.length
        ? `${plural(rules.count, "rule")} from ${files} · ${rules.hash.slice(0, 12)}${rules.problems ? ` (${plural(rules.problems, "problem")}: memnox policy check)` : ""}`
        : "no rule file in force",
    ),
    ...(s.probation.length
      ? [row("probation", s.probation.map((p) => `${p.kind} ${p.name} until ${p.until.slice(0, 10)}`).join(", "))]
      : []),
    ...(s.grants.length
      ? [
          row(
            "granted",
            s.grants.map((g) => `${g.scope}, ${g.left} left${g.reason ? ` (${g.reason})` : ""}`).join("; "),
          ),
        ]
      : []),
    ...(s.leases.length
      ? [
          row(
            "leases",
            `${plural(s.leases.length, "path")} held by agents on this machine: memnox lock --list (local to this machine)`,
          ),
        ]
      : []),
    row("today", todayWords(s)),
    row("waiting", s.waiting ? `${plural(s.waiting, "approval")}: memnox approvals` : "nothing"),
    ...(s.dormant.length
      ? [
          row(
            "dormant",
            s.dormant.map((d) => `${d.name} (silent 30 days, still holds ${d.holds.join(", ")})`).join("; "),
          ),
        ]
      : []),
    row(
      "team",
      s.team.connected
        ? `workspace ${s.team.workspace} as ${s.team.machineId}${s.team.stale ? " (unreachable: verdicts marked stale)" : ""}`
        : "not connected, so nothing leaves this machine",
    ),
    "│",
    `└ ${last}`,
  ];
}
