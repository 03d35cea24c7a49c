// `memnox scan --share`: a card of counts only, safe to paste anywhere. No path, no name, no value, no fingerprint.
import { writeCapable } from "./outside.ts";
import { CREDENTIAL_KINDS, type CredentialKind, type Inventory } from "./types.ts";

interface ShareCard {
  readonly version: 2;
  readonly agents: number;
  readonly harnesses: number;
  readonly agentsWithShell: number;
  readonly mcpServers: number;
  readonly tools: number;
  readonly writeCapableTools: number;
  readonly reachableCredentials: Readonly<Record<CredentialKind, number>>;
  readonly authenticatedClis: number;
  readonly combinedChains: number;
  readonly unparsableConfigs: number;
  readonly outside: number;
  readonly governed: number;
  readonly governedIsFloor: boolean;
}

export function shareCard(inv: Inventory): ShareCard {
  const served = new Set(inv.agents.flatMap((a) => a.servers));
  const servers = inv.mcpServers.filter((s) => served.has(s.id));
  const tools = servers.flatMap((s) => s.tools ?? []);
  const kinds = Object.fromEntries(CREDENTIAL_KINDS.map((k) => [k, 0])) as Record<CredentialKind, number>;
  for (const c of inv.credentials) if (c.via.length > 0) kinds[c.kind] += 1;
  return {
    version: 2,
    agents: inv.agents.length,
    harnesses: inv.harnesses.length,
    agentsWithShell: inv.agents.filter((a) => a.shell.has).length,
    mcpServers: servers.length,
    tools: tools.length,
    writeCapableTools: tools.filter((t) => writeCapable(t.class)).length,
    reachableCredentials: kinds,
    authenticatedClis: inv.clis.length,
    combinedChains: inv.chains.length,
    unparsableConfigs: inv.problems.length,
    outside: inv.coverage.outside,
    governed: inv.coverage.governed,
    governedIsFloor: inv.coverage.floor,
  };
}

export function renderShare(c: ShareCard): string[] {
  const kinds = CREDENTIAL_KINDS.filter((k) => c.reachableCredentials[k] > 0)
    .map((k) => `${c.reachableCredentials[k]} ${k}`)
    .join(", ");
  const reachable = Object.values(c.reachableCredentials).reduce((a, b) => a + b, 0);
  return [
    "memnox scan, counts only",
    `  agents              ${c.agents}${c.harnesses ? ` (${c.harnesses} harness${c.harnesses === 1 ? "" : "es"})` : ""}, ${c.agentsWithShell} with a shell`,
    `  mcp servers         ${c.mcpServers}: ${c.tools} tools, ${c.writeCapableTools} write-capable`,
    `  credentials         ${reachable} reachable from an agent${kinds ? `: ${kinds}` : ""}`,
    `  authenticated CLIs  ${c.authenticatedClis}`,
    `  combined chains     ${c.combinedChains}`,
    ...(c.unparsableConfigs ? [`  unparsable configs  ${c.unparsableConfigs}`] : []),
    `  ${c.outside} capabilities can change something outside this laptop; ${c.governedIsFloor ? "at least " : ""}${c.governed} are governed by a policy.`,
  ];
}
