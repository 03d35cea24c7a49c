// The hook keeper: an agent installed after setup is hooked the way setup would (its session server too, unless
// kept off) and starts seven days of probation; a memnox hook something removed is put back; an agent a person took
// the hook out of (kept.json `takenOut`) is never touched. Setup's own installers do every write.
import { AGENTS, type AgentName } from "../../../hooks/types.ts";
import type { Context } from "../../ports/context.ts";
import { startProbation } from "../../state/probation.ts";
import { codexShellOn } from "../../wire/agent-shell.ts";
import { detectAgents } from "../../wire/agents.ts";
import { isClientId } from "../../wire/clients.ts";
import { agentHookState, type HookReport, type HookState, installAgentHook } from "../../wire/hooks/install.ts";
import { hookTarget } from "../../wire/hooks/targets.ts";
import { type Kept, readKept, toggled, updateKept } from "../../wire/kept.ts";
import { linkTarget } from "../../wire/links.ts";
import { sessionServerKeptOff, sessionServerOn } from "../../wire/session-server.ts";
import type { DaemonPass, PassContext } from "../passes.ts";
import { agentConfigFiles } from "./watched.ts";

type Wire = Context;

/** kept.json where setup ran; a file it cannot read keeps the daemon's hands off. */
function keptWhereSetupRan(ctx: Context): Kept | undefined {
  try {
    const kept = readKept(ctx.paths.kept);
    return kept && kept.setupAt !== "" ? kept : undefined;
  } catch {
    return undefined;
  }
}

function events(agent: AgentName): string {
  return Object.keys(hookTarget(agent).entries("memnox")).join(", ");
}

function putBackCommand(agent: AgentName): string {
  return agent === "claude-code" ? "memnox protect --claude-hook puts it back" : "kept.json's takenOut keeps it out";
}

function hookedWords(ctx: Wire, agent: AgentName): string {
  return `memnox's hook on ${events(agent)}, starting ${linkTarget(ctx).join(" ")}`;
}

function stateWords(s: HookState): string {
  if (s.presence === "partial") return "memnox's hook on only some of its events";
  if (s.presence === "hooked") return `memnox's hook starting ${(s.launcher ?? []).join(" ")}, which is gone`;
  return "no memnox hook";
}

/** memnox-session in the agent's file, unless a person turned it off; a config row per file it went into. */
async function sessionServer(pc: PassContext, ctx: Wire, agent: AgentName, how: "add" | "restore"): Promise<void> {
  // An agent memnox hooks but whose MCP servers it does not keep (Copilot CLI, OpenCode) gets no session server.
  if (sessionServerKeptOff(ctx.paths.kept) || !isClientId(agent)) return;
  const look = await sessionServerOn(ctx, { clients: [agent], dryRun: true });
  if (!look.files.some((f) => f.status === "would-add" || f.status === "updated")) return;
  const done = await sessionServerOn(ctx, { clients: [agent] });
  for (const f of done.files) {
    if (f.status === "added" || f.status === "updated") {
      pc.recordChange({
        operation: `session.${how}`,
        file: f.file,
        before:
          f.status === "updated" ? "a memnox-session server starting another program" : "no memnox-session server",
        after: `memnox-session, so ${agent} can ask memnox from inside a session`,
        reason: `memnox-session ${how === "add" ? "added to" : "put back into"} ${agent}`,
      });
      if (how === "restore")
        pc.notice(
          "session-server",
          `The Memnox session tools were missing from ${agent}, so they were put back (memnox mcp session off keeps them out).`,
        );
    } else if (f.problem) pc.log("hooks", `${f.file} was not changed: ${f.problem}`);
  }
}

function adopt(pc: PassContext, ctx: Wire, r: HookReport): void {
  const p = startProbation(ctx.paths.probation, "agent", r.agent, ctx.clock.now());
  pc.recordChange({
    operation: "hook.adopt",
    file: r.file,
    before: `${r.label} installed after setup, without memnox's hook`,
    after: `${hookedWords(ctx, r.agent)}; on probation until ${p.until.slice(0, 10)}`,
    reason: `${r.label} is new on this machine, so memnox hooked it`,
  });
  pc.notice(
    "agent-new",
    `${r.label} is new on this machine, so Memnox hooked it. Nothing needed running. It asks before writes for 7 days (memnox agents trust ${r.agent}).`,
  );
}

function restore(pc: PassContext, ctx: Wire, r: HookReport, was: HookState): void {
  const gone = was.presence === "hooked";
  pc.recordChange({
    operation: gone ? "hook.repoint" : "hook.restore",
    file: r.file,
    before: stateWords(was),
    after: hookedWords(ctx, r.agent),
    reason: gone
      ? `${r.label}'s memnox hook started a program that is gone, so it was pointed at memnox again`
      : `the memnox hook was taken out of ${r.label}, so it was put back`,
  });
  pc.notice(
    "hook-restore",
    gone
      ? `The Memnox hook in ${r.label} started a program that is gone, so it was pointed at Memnox again.`
      : `The Memnox hook was taken out of ${r.label}, so it was put back.`,
  );
}

export function agentHooksPass(): DaemonPass {
  // What was last logged about each agent that needs no change (left out, a file that will not parse): said once.
  const said = new Map<AgentName, string>();
  const sayOnce = (pc: PassContext, agent: AgentName, words: string) => {
    if (said.get(agent) === words) return;
    said.set(agent, words);
    pc.log("hooks", words);
  };

  const keep = async (pc: PassContext, ctx: Wire, kept: Kept, agent: AgentName) => {
    const listed = kept.hooked.includes(agent);
    const was = agentHookState(ctx, agent);
    if (was.presence === "hooked" && was.launcherExists) {
      said.delete(agent);
      if (!listed) updateKept(ctx.paths.kept, (k) => ({ hooked: toggled(k.hooked, agent, true) }));
      else await sessionServer(pc, ctx, agent, "restore");
      return;
    }
    const r = installAgentHook(ctx, agent);
    if (r.status !== "added" && r.status !== "repointed") {
      if (r.problem) sayOnce(pc, agent, `${r.file} was not changed: ${r.problem.message}`);
      return;
    }
    said.delete(agent);
    const isNew = !listed && was.presence !== "hooked";
    if (isNew) adopt(pc, ctx, r);
    else restore(pc, ctx, r, was);
    updateKept(ctx.paths.kept, (k) => ({ hooked: toggled(k.hooked, agent, true) }));
    // As setup does: Codex's commands behind the interceptors by its own shell policy.
    if (agent === "codex") codexShellOn(ctx);
    await sessionServer(pc, ctx, agent, isNew ? "add" : "restore");
  };

  return {
    name: "agent-hooks",
    watched: agentConfigFiles,
    async run(pc) {
      const kept = keptWhereSetupRan(pc.ctx);
      if (!kept) return;
      // The agents' user files, read from home: a project's own files are its person's business.
      const ctx: Wire = { ...pc.ctx, cwd: pc.ctx.paths.home };
      const installed = new Set(
        detectAgents(ctx)
          .filter((a) => a.installed)
          .map((a) => a.agent),
      );
      for (const agent of AGENTS) {
        if (!installed.has(agent)) continue;
        if (kept.takenOut.includes(agent)) {
          sayOnce(pc, agent, `${agent} is left without memnox's hook: a person took it out (${putBackCommand(agent)})`);
          continue;
        }
        await keep(pc, ctx, kept, agent);
      }
    },
  };
}
