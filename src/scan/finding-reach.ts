// Findings about reach: a credential an agent can read, a CLI or server that can change things no rule covers,
// a chain of ordinary tools. Each names the agents, the evidence and the one change that closes it.
import type { Instant } from "../policy/engine/index.ts";
import type { LoadedRuleSet } from "../policy/load/index.ts";
import { clientDef, isClientId } from "../wire/clients.ts";
import { verdictFor } from "./capabilities.ts";
import { exampleBeside } from "./dotenv.ts";
import type { Finding, Severity } from "./finding.ts";
import { tilde } from "./render.ts";
import type { CredentialRow, Inventory } from "./types.ts";

const agentsIn = (c: CredentialRow) => [...new Set(c.via.map((v) => v.agentId))];
const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 48);

function credentialSeverity(c: CredentialRow): Severity {
  if (c.kind === "socket") return c.label === "Docker socket" ? "critical" : "high";
  if (c.label === ".env file") return "medium";
  if (c.kind === "cloud" || (c.label === "SSH private key" && c.facts.passphrase !== true)) return "critical";
  return "high";
}

function readFinding(inv: Inventory, c: CredentialRow): Finding {
  const shown = tilde(c.path, inv.home);
  const agents = agentsIn(c);
  const socket = c.kind === "socket";
  const example = c.label === ".env file" ? exampleBeside(c.path) : undefined;
  return {
    id: `reach:${c.path}`,
    severity: credentialSeverity(c),
    title: socket
      ? `${shown} (${c.label}) is usable by ${agents.length} agent(s): whoever writes to it commands what is behind it`
      : `${shown} is readable by ${agents.length} agent(s)`,
    resource: c.path,
    agents,
    evidence: [
      `${c.label}, ${c.kind}${c.fingerprint ? `, ${c.fingerprint}` : ""}`,
      ...c.via.map(
        (v) => `${v.agentId}: ${v.through === "shell" ? "its shell" : v.through} (${tilde(v.grantedBy, inv.home)})`,
      ),
    ],
    fix: {
      words: socket ? `deny use of ${shown}` : `deny reads of ${shown}`,
      rule: {
        name: `${socket ? "use" : "read"}-${slug(shown)}-denied`,
        description: `found by memnox doctor: ${c.label}`,
        match: { actions: socket ? ["filesystem.read", "filesystem.write"] : ["filesystem.read"], targets: [shown] },
        decision: {
          effect: "deny",
          reason: socket
            ? `${c.label}: whoever can write to it commands what is behind it`
            : `${c.label}: almost no task needs the value itself`,
          ...(example
            ? {
                alternative: {
                  action: "filesystem.read",
                  resource: tilde(example, inv.home),
                  note: `Read ${tilde(example, inv.home)} instead: it names the same variables without their values.`,
                },
              }
            : {}),
        },
      },
    },
  };
}

/** Credentials an agent reaches that no rule keeps it from reading. */
export function credentialFindings(inv: Inventory, rules: LoadedRuleSet, at: Instant): Finding[] {
  return inv.credentials
    .filter((c) => c.via.length > 0)
    .filter((c) => {
      const action = { name: "filesystem.read", class: "read" as const, targets: [c.path], arguments: {} };
      return verdictFor(rules, action, inv.cwd, at).effect === "allow";
    })
    .map((c) => readFinding(inv, c));
}

/** Authenticated CLIs whose outward verbs no rule covers: `protect --for` denies the credential, keeps the CLI. */
export function cliFindings(inv: Inventory): Finding[] {
  return inv.clis.flatMap((cli): Finding[] => {
    const open = inv.capabilities.filter((c) => c.via === "cli" && c.source === cli.cli && c.outside && !c.governed);
    if (open.length === 0) return [];
    const agents = inv.agents.filter((a) => a.clis.includes(cli.cli)).map((a) => a.id);
    return [
      {
        id: `cli:${cli.cli}`,
        severity: open.some((c) => c.class === "destructive") ? "high" : "medium",
        title: `${cli.cli} can change something outside this machine through ${open.length} verb(s) no rule covers`,
        resource: cli.cli,
        agents,
        evidence: [
          `authenticated by ${tilde(cli.credential, inv.home)}`,
          `e.g. ${open
            .slice(0, 4)
            .map((c) => c.action)
            .join(", ")}`,
        ],
        fix: {
          words: `rules from its verb table: memnox protect --for ${cli.cli}`,
          command: `memnox protect --for ${cli.cli}`,
        },
      },
    ];
  });
}

/** Servers no seam stands in front of, holding tools that change things. */
export function serverFindings(inv: Inventory): Finding[] {
  return inv.mcpServers.flatMap((s): Finding[] => {
    const agents = inv.agents.filter((a) => a.servers.includes(s.id)).map((a) => a.id);
    const writes = (s.tools ?? []).filter((t) => t.class !== "read");
    if (agents.length === 0 || s.wrapped || writes.length === 0) return [];
    const stdio = s.transport === "stdio";
    const readOnly = isClientId(s.client) ? clientDef(s.client).readOnly : undefined;
    return [
      {
        id: `server:${s.id}`,
        severity: writes.some((t) => t.class === "destructive") && s.remote ? "high" : "medium",
        title: `${s.name} is not through memnox: ${writes.length} write-capable tool(s) no seam sees`,
        resource: s.name,
        agents,
        evidence: [
          `configured in ${tilde(s.file, inv.home)}`,
          `e.g. ${writes
            .slice(0, 4)
            .map((t) => t.name)
            .join(", ")}`,
        ],
        fix: readOnly
          ? { words: `${readOnly}; run the agent under memnox run, so its shell and egress seams apply` }
          : stdio
            ? { words: "put it through the proxy: memnox mcp wrap", command: "memnox mcp wrap" }
            : { words: `a hosted server: ask before its calls with a rule on mcp.${s.name}.*` },
      },
    ];
  });
}

/** Tools that are each ordinary and together move data out: the emit step is the one to ask about. */
export function chainFindings(inv: Inventory): Finding[] {
  return inv.chains.map((c): Finding => {
    const emit = c.steps[c.steps.length - 1];
    const action = emit ? `mcp.${emit.server}.${emit.tool}` : "";
    return {
      id: `chain:${c.agentId}:${c.subject}`,
      severity: "medium",
      title: `${c.agentId}: ${c.consequence}`,
      resource: c.subject,
      agents: [c.agentId],
      evidence: [c.steps.map((s) => `${s.server}.${s.tool}`).join(" → ")],
      fix: {
        words: `ask before ${action}`,
        rule: {
          name: `${slug(action)}-asked`,
          description: `found by memnox doctor: the last step of a chain that moves ${c.subject} data out`,
          match: { actions: [action] },
          decision: {
            effect: "ask",
            reason: `together with ${c.steps.length - 1} other tool(s) this moves ${c.subject} data out`,
          },
        },
      },
    };
  });
}
