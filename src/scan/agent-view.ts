// One agent with the file that proved each surface it has: a count says how much it reaches, the path says who
// granted it, which is the half somebody can act on. Shared by `agents status` and `explain <agent>`.
import type { HookState } from "./hooked.ts";
import { tilde, toolSummary } from "./render.ts";
import type { AgentRow, Inventory } from "./types.ts";

export function agentLines(
  inv: Inventory,
  a: AgentRow,
  hook?: { state: HookState; file: string; note?: string },
): string[] {
  const t = (p: string) => tilde(p, inv.home);
  const servers = inv.mcpServers.filter((s) => a.servers.includes(s.id));
  const reached = inv.credentials.filter((c) => a.reaches.includes(c.path));
  const harness = inv.harnesses.find((h) => h.agentId === a.id);
  const chains = inv.chains.filter((c) => c.agentId === a.id);
  const hookLine = hook
    ? hook.state === "hooked"
      ? `memnox hook in ${t(hook.file)}${hook.note ? ` (${hook.note})` : ""}`
      : hook.state === "installed-inactive"
        ? `memnox hook in ${t(hook.file)}, ${hook.note ?? "not active yet"}`
        : `no memnox hook (${t(hook.file)})`
    : undefined;
  return [
    `${a.name}${a.name !== a.id ? ` (${a.id})` : ""}: ${a.product}${a.harness ? ", a harness" : ""}`,
    ...a.evidence.map((e) => `  found by     ${t(e.path)} (${e.what})`),
    `  shell        ${a.shell.has ? "yes" : "no"}: ${a.shell.why} (${t(a.shell.grantedBy)})`,
    ...(hookLine ? [`  hook         ${hookLine}`] : []),
    ...servers.map(
      (s) => `  mcp          ${s.name}: ${toolSummary(s)} (${t(s.file)})${s.wrapped ? ", through memnox" : ""}`,
    ),
    ...reached.map(
      (c) =>
        `  reaches      ${t(c.path)} ${c.kind}, through ${c.via
          .filter((v) => v.agentId === a.id)
          .map((v) => v.through)
          .join(", ")}`,
    ),
    ...(a.clis.length ? [`  runs         ${a.clis.join(", ")} (authenticated, through its shell)`] : []),
    ...(harness
      ? [
          `  roles        ${harness.roles.length ? harness.roles.join(", ") : "none named"}`,
          ...(harness.runtimes.length ? [`  runtimes     ${harness.runtimes.join(", ")}`] : []),
          ...(harness.hooks ? [`  hook files   ${harness.hooks}`] : []),
          ...(harness.federated
            ? ["  federated    works with agents on other machines; this scan sees only here"]
            : []),
        ]
      : []),
    ...chains.map((c) => `  chain        ${c.consequence}: ${c.steps.map((s) => `${s.server}.${s.tool}`).join(" → ")}`),
  ];
}
