// `memnox protect --wall`: the machine's agent wall written from the rules in force, its applier put beside the
// binary, and every hooked agent's shell commands sent through it; `--revert-wall` takes all of it back out.
import { existsSync, rmSync } from "node:fs";
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { agentWallFile } from "../../../wall/agent.ts";
import { findPerl, installApplier } from "../../../wall/applier.ts";
import { shown } from "../../../wall/description.ts";
import { writeMachineAgentWall } from "../../../wall/facts/agent.ts";
import { canHold, kernelName } from "../../../wall/held.ts";
import { refreshCodexShell } from "../../../wire/agent-shell.ts";
import { removeAgentWallWiring, removeUserPrefix, setUserPrefix, writeManaged } from "../../../wire/agent-wall.ts";
import { installAgentHook } from "../../../wire/hooks/install.ts";
import type { Outcome } from "./_protect-steps.ts";
import { recordState } from "./_state-record.ts";

interface WallWiring {
  readonly applier: string;
  readonly applierKind: "perl" | "binary";
  /** Claude Code: held in managed settings, or only in the user's (a project can override it there). */
  readonly claude: "managed" | "user";
  /** The one privileged command that moves Claude Code's hold into managed settings, when memnox could not. */
  readonly privileged?: string;
}

/** Write the wall and send the agents' shells through it; throws when no kernel here can hold it. */
async function wireAgentWall(ctx: Context): Promise<{ wiring: WallWiring; file: string; lines: string[] }> {
  if (!existsSync(ctx.paths.app))
    throw new MemnoxError("refused", "the agent wall needs memnox's own copy in place", "memnox setup puts it there");
  const wall = await writeMachineAgentWall(ctx);
  if (!canHold(wall.kernel) || wall.kernel.kind !== "landlock") {
    rmSync(agentWallFile(ctx.paths), { force: true });
    throw new MemnoxError("refused", `no agent wall: ${kernelName(wall.kernel)}`);
  }
  const applier = ctx.paths.applier;
  const applierKind = installApplier(applier, ctx.paths.app, findPerl());
  const codex = refreshCodexShell(ctx);
  const managed = writeManaged(ctx, applier);
  let wiring: WallWiring;
  if (managed.kind === "written") {
    removeUserPrefix(ctx);
    installAgentHook(ctx, "claude-code");
    wiring = { applier, applierKind, claude: "managed" };
  } else {
    setUserPrefix(ctx, applier);
    wiring = { applier, applierKind, claude: "user", privileged: managed.command };
  }
  const w = wall.wall;
  // A name the namespace covers where found is no longer the rules' alone: its claim line says how far it reaches.
  const named = wall.claims.find((c) => c.part === "named");
  const covered = named?.held ? (w.names?.globs ?? []).map((g) => g.glob) : [];
  const byName = (u: string) => covered.some((g) => u.startsWith(`${g} (`) || u.startsWith(`**/${g} (`));
  const extra = wall.claims.filter((c) => c.part === "servers" || c.part === "named" || c.part === "scope");
  const lines = [
    `agent wall written to ${agentWallFile(ctx.paths)}, held by ${kernelName(wall.kernel)}: every shell command of a hooked agent runs inside it`,
    `  unreadable: ${w.unreadable.length} credential paths (${w.unreadable
      .slice(0, 4)
      .map((u) => shown(w, u.path))
      .join(", ")}, ...)`,
    `  unwritable: ${w.unwritable.length} places (${w.unwritable
      .slice(0, 5)
      .map((u) => shown(w, u.path))
      .join(", ")}, ...)`,
    ...wall.costs.slice(0, 6).map((c) => `  cost: ${c}`),
    ...extra.map((c) => `  ${c.held ? "held" : "not held"}: ${c.text}`),
    ...w.unexpressed
      .filter((u) => !byName(u))
      .map((u) => `  not held by the kernel (no path stands for it), left to the rules: ${u}`),
    wiring.claude === "managed"
      ? `  Claude Code: its managed settings hold the hook and the shell prefix (${managed.file}); no project or user setting can drop them`
      : `  Claude Code: the shell prefix is in your user settings, where a project's settings could override it. To hold it where none can, run: ${wiring.privileged}`,
    codex
      ? "  Codex: its shell start-up file hands every command to the wall's applier"
      : "  Codex: not wired here (memnox setup wires its shell first)",
    "  Gemini CLI: memnox's hook hands every command it allows to the wall's applier",
    "memnox protect --revert-wall takes it off.",
  ];
  recordState(ctx, "memnox.protect", `--wall: ${wiring.claude}`);
  return { wiring, file: agentWallFile(ctx.paths), lines };
}

export async function agentWallStep(ctx: Context, on: boolean): Promise<Outcome> {
  if (!on) {
    const had = existsSync(agentWallFile(ctx.paths));
    const removed = removeAgentWallWiring(ctx);
    refreshCodexShell(ctx);
    if (removed.managed === "removed") installAgentHook(ctx, "claude-code");
    if (had) recordState(ctx, "memnox.protect", "--revert-wall");
    const lines = [
      had ? "agent wall taken off: agents' shell commands run as the rules allow" : "no agent wall was here",
    ];
    if (removed.privileged)
      lines.push(`Claude Code's managed settings still hold it; take it out with: ${removed.privileged}`);
    return { value: { removed: had, ...removed }, lines, code: removed.privileged ? 1 : 0 };
  }
  try {
    const r = await wireAgentWall(ctx);
    return { value: { file: r.file, ...r.wiring }, lines: r.lines };
  } catch (e) {
    if (e instanceof MemnoxError && e.code === "refused")
      return { value: { error: e.message }, lines: [e.message], code: 1 };
    throw e;
  }
}

/** Setup's step: the wall raised where this kernel can hold it, said in setup's own lines either way. */
export async function wallAtSetup(ctx: Context): Promise<{ readonly wiring?: WallWiring; readonly words: string[] }> {
  const { probeKernel, abiCap } = await import("../../../wall/probe.ts");
  const kernel = await probeKernel(process.platform, abiCap(ctx.env.MEMNOX_WALL_ABI));
  if (kernel.kind !== "landlock")
    return {
      words: [
        `  wall          no agent wall: ${kernelName(kernel)}, so agents' shell commands are ruled by their text only`,
      ],
    };
  try {
    const r = await wireAgentWall(ctx);
    const where =
      r.wiring.claude === "managed"
        ? "Claude Code's managed settings hold its hook and shell prefix"
        : `Claude Code's prefix is in your user settings; to hold it where no project can override it, run: ${r.wiring.privileged}`;
    return {
      wiring: r.wiring,
      words: [
        `  wall          every hooked agent's shell command runs inside the kernel wall (${kernelName(kernel)}): credentials unreadable, memnox, agents' settings and start-up files unwritable`,
        `                ${where}`,
      ],
    };
  } catch (e) {
    return { words: [`  wall          not raised: ${(e as Error).message}`] };
  }
}
