// The start screen of a walled run: what the kernel holds and what it does not, exactly as claims() says. Pure.
import type { Wall } from "./description.ts";
import { type Claim, type Kernel, kernelName } from "./held.ts";

interface ScreenInput {
  readonly session: string;
  readonly agent: string;
  readonly wall: Wall;
  readonly kernel: Kernel;
  readonly claims: readonly Claim[];
  readonly costs: readonly string[];
}

const pad = (label: string) => label.padEnd(9);

export function wallScreen(s: ScreenInput): string {
  const what =
    s.wall.kind === "untrusted" ? "the kernel wall for an untrusted repository" : "the machine's kernel guard";
  const lines = [`memnox: session ${s.session} (${s.agent}) runs inside ${what}, held by ${kernelName(s.kernel)}:`];
  for (const c of s.claims) lines.push(`  ${pad(c.held ? "held" : "not held")} ${c.text}`);
  for (const c of s.costs) lines.push(`  ${pad("note")} ${c}`);
  if (s.wall.hosts) {
    const through = s.wall.hosts.through.length > 0 ? ` and ${s.wall.hosts.through.join(", ")}` : "";
    lines.push(
      `  ${pad("hosts")} the session's proxy ${s.wall.hosts.proxy} lets the package registries${through} through; every other host asks, answered with memnox approvals outside the wall`,
    );
  }
  if (s.wall.kind === "untrusted") {
    lines.push(
      `  ${pad("asks")} outward and destructive actions ask; a shell command that would ask is refused with its reason, and a file edit asks in the agent's own prompt`,
    );
  }
  if (s.wall.unexpressed.length > 0) {
    lines.push(`  ${pad("not held")} rule patterns no path can stand for: ${s.wall.unexpressed.join(", ")}`);
  }
  return `${lines.join("\n")}\n`;
}

/** Said out loud: an untrusted run with only the seams asking. */
export function noGuardScreen(session: string, agent: string, kernel: Kernel): string {
  return `memnox: session ${session} (${agent}) runs WITHOUT the kernel wall (--no-guard; the kernel here: ${kernelName(kernel)}): credentials, dotfiles, writes and the network are held only by the seams asking, not by the kernel\n`;
}
