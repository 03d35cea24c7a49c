// `memnox doctor`: what is risky here, why, and the one change that closes each; four counts at the end, never a
// single number, because one figure folding severity together hides exactly the finding it should surface.
import type { Mode } from "../core/effect.ts";
import type { Instant } from "../policy/engine/index.ts";
import type { LoadedRuleSet } from "../policy/load/index.ts";
import type { StopRecord } from "../state/stop.ts";
import { type Finding, SEVERITIES, type Severity } from "./finding.ts";
import { chainFindings, cliFindings, credentialFindings, serverFindings } from "./finding-reach.ts";
import { tilde } from "./render.ts";
import type { Inventory } from "./types.ts";

interface MachineState {
  readonly mode: Mode;
  readonly approvedAgents: readonly string[];
  readonly stop?: StopRecord;
  readonly unwrittenRows: number;
  readonly unwrittenFile: string;
  /** What memnox found done to the ledger behind its back (rows gone, triggers dropped, the database removed). */
  readonly ledgerTampered?: readonly string[];
  readonly ledgerFile?: string;
  /** config.toml after setup is missing, empty, a link, unreadable or looser than the sealed mode. */
  readonly config?: { readonly problem: string; readonly holds: Mode };
}

function stateFindings(inv: Inventory, rules: LoadedRuleSet, s: MachineState): Finding[] {
  const out: Finding[] = [];
  const f = (x: Omit<Finding, "agents"> & { agents?: readonly string[] }): Finding => ({ agents: [], ...x });
  if (s.stop)
    out.push(
      f({
        id: "state:stopped",
        severity: "high",
        title: `protection is stopped until ${s.stop.until}, by ${s.stop.by}`,
        resource: "protection",
        evidence: [s.stop.reason ? `reason given: ${s.stop.reason}` : "no reason was given"],
        fix: { words: "turn it back on: memnox start", command: "memnox start" },
      }),
    );
  if (s.mode === "off" || s.mode === "observe")
    out.push(
      f({
        id: `state:mode-${s.mode}`,
        severity: s.mode === "off" ? "high" : "low",
        title:
          s.mode === "off"
            ? "mode is off: nothing is decided or recorded"
            : "mode is observe: verdicts are recorded and nothing is denied",
        resource: "mode",
        evidence: ["~/.memnox/config.toml"],
        fix: { words: "memnox config set mode enforce", command: "memnox config set mode enforce" },
      }),
    );
  for (const p of rules.problems)
    out.push(
      f({
        id: `rules:${p.file}:${p.line ?? 0}`,
        severity: "high",
        title: `a rule file in force will not load: ${tilde(p.file, inv.home)}${p.line ? `:${p.line}` : ""}`,
        resource: p.file,
        evidence: [p.message],
        fix: { words: "correct it; memnox policy check names every problem", command: "memnox policy check" },
      }),
    );
  for (const p of inv.problems)
    out.push(
      f({
        id: `config:${p.path}`,
        severity: "medium",
        title: `${tilde(p.path, inv.home)} will not parse, so memnox cannot see what it grants ${p.owner}`,
        resource: p.path,
        evidence: [`${p.line ? `line ${p.line}${p.column ? `:${p.column}` : ""}: ` : ""}${p.message}`],
        fix: { words: `correct ${tilde(p.path, inv.home)}${p.line ? ` at line ${p.line}` : ""}` },
      }),
    );
  const ids = inv.agents.map((a) => a.id);
  const unregistered = ids.filter((id) => !s.approvedAgents.includes(id));
  if (s.approvedAgents.length === 0 && ids.length > 0)
    out.push(
      f({
        id: "agents:undecided",
        severity: "low",
        title: "nobody has decided which agents are meant to be here",
        resource: "approvedAgents",
        agents: ids,
        evidence: [`found: ${ids.join(", ")}`],
        fix: {
          words: `memnox config set approvedAgents ${ids.join(",")}`,
          command: `memnox config set approvedAgents ${ids.join(",")}`,
        },
      }),
    );
  else if (unregistered.length > 0)
    out.push(
      f({
        id: "agents:unregistered",
        severity: "medium",
        title: `${unregistered.length} agent(s) here are not on the approved list`,
        resource: "approvedAgents",
        agents: unregistered,
        evidence: [`approved: ${s.approvedAgents.join(", ")}`],
        fix: { words: `approve or remove ${unregistered.join(", ")}` },
      }),
    );
  if (s.config)
    out.push(
      f({
        id: "config:sealed",
        severity: "high",
        title: `${s.config.problem}: memnox holds the mode setup sealed (${s.config.holds}), never observe`,
        resource: s.config.problem.split(" ")[0] ?? "config.toml",
        evidence: [tilde(s.config.problem, inv.home)],
        fix: {
          words: `say the mode you mean; it rewrites config.toml and the seal together`,
          command: `memnox config set mode ${s.config.holds}`,
        },
      }),
    );
  if (s.unwrittenRows > 0)
    out.push(
      f({
        id: "ledger:unwritten",
        severity: "medium",
        title: `${s.unwrittenRows} ledger row(s) could not be written`,
        resource: s.unwrittenFile,
        evidence: [tilde(s.unwrittenFile, inv.home)],
        fix: { words: "find out why (disk, permissions), then memnox verify", command: "memnox verify" },
      }),
    );
  const tampered = s.ledgerTampered ?? [];
  if (tampered.length > 0)
    out.push(
      f({
        id: "ledger:tampered",
        severity: "critical",
        title: `the ledger was tampered with: ${tampered[0]}`,
        resource: s.ledgerFile ?? "ledger",
        evidence: [...tampered],
        fix: {
          words:
            "find what changed ~/.memnox behind memnox's back (rows that are gone cannot be brought back; an export or a sink kept elsewhere still holds them), then memnox verify",
          command: "memnox verify",
        },
      }),
    );
  return out;
}

export function findingsOf(inv: Inventory, rules: LoadedRuleSet, at: Instant, state: MachineState): Finding[] {
  const all = [
    ...credentialFindings(inv, rules, at),
    ...cliFindings(inv),
    ...serverFindings(inv),
    ...chainFindings(inv),
    ...stateFindings(inv, rules, state),
  ];
  const rank = (s: Severity) => SEVERITIES.indexOf(s);
  return all.sort((a, b) => rank(a.severity) - rank(b.severity) || a.title.localeCompare(b.title));
}

export function severityCounts(findings: readonly Finding[]): Record<Severity, number> {
  const n = { critical: 0, high: 0, medium: 0, low: 0 };
  for (const f of findings) n[f.severity] += 1;
  return n;
}

export function renderFindings(findings: readonly Finding[]): string[] {
  const n = severityCounts(findings);
  return [
    ...findings.flatMap((f) => [
      `${f.severity.toUpperCase().padEnd(9)}${f.title}`,
      ...f.evidence.map((e) => `         ${e}`),
      `         fix: ${f.fix.words}`,
      "",
    ]),
    ...(findings.length === 0 ? ["Nothing risky found here.", ""] : []),
    `${n.critical} critical, ${n.high} high, ${n.medium} medium, ${n.low} low. Nothing here compares this machine to another.`,
  ];
}
