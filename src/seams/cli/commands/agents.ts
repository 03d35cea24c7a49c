// `memnox agents discover|list|name|status|trust`: the agents on this machine, by the name you give them.
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { agentLines } from "../../../scan/agent-view.ts";
import { AGENT_IDS } from "../../../scan/agents.ts";
import { hookStates } from "../../../scan/hooked.ts";
import { lastScan, scanMachine } from "../../../scan/inventory.ts";
import type { Inventory } from "../../../scan/types.ts";
import { agentIdFor, readAgentNames, setAgentName } from "../../../state/agent-names.ts";
import { personName } from "../../../state/identity.ts";
import { probationInForce, readProbation, trust } from "../../../state/probation.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, pad } from "../output.ts";
import { recordState } from "./_state-record.ts";

const HOOK_WORDS: Readonly<Record<string, string>> = {
  hooked: "hooked",
  "installed-inactive": "hook installed, not active yet",
  "not-installed": "no memnox hook",
  "takes-no-hook": "takes no hook (covered at its shell and MCP seams)",
};

const JSON_FLAG = { json: { type: "boolean", description: "structured output" } } as const;

function hooksOf(ctx: Context, inv: Inventory) {
  return hookStates(
    ctx,
    inv.agents.map((a) => a.id),
  );
}

function scanned(ctx: Context): Inventory {
  const inv = lastScan(ctx);
  if (!inv) throw new MemnoxError("not_found", "no scan has been taken here yet", "memnox agents discover takes one");
  return inv;
}

function agentId(ctx: Context, word: string | undefined, inv?: Inventory): string {
  if (!word) throw new MemnoxError("usage", "which agent?", "give its id or the name you gave it");
  const ids = [...new Set([...AGENT_IDS, ...(inv?.agents.map((a) => a.id) ?? [])])];
  const id = agentIdFor(word, readAgentNames(ctx.paths.agentNames), ids);
  if (!id) throw new MemnoxError("not_found", `no agent \`${word}\``, `agents memnox knows: ${ids.join(", ")}`);
  return id;
}

/** Enter keeps the detected name; only a terminal on both ends is asked. */
async function askNames(ctx: Context, inv: Inventory): Promise<void> {
  if (!ctx.io.stdinIsTTY || !ctx.io.stdoutIsTTY) return;
  const { consola } = await import("consola");
  for (const a of inv.agents) {
    const answer = await consola.prompt(`What should ${a.product} (${a.id}) be called?`, {
      type: "text",
      default: a.name,
      placeholder: a.name,
    });
    if (typeof answer === "string" && answer.trim() && answer.trim() !== a.name)
      setAgentName(ctx.paths.agentNames, a.id, answer.trim());
  }
}

const discover = (ctx: Context) =>
  command({
    meta: { name: "discover", description: "scan this machine for agents and say what each can reach" },
    args: {
      ...JSON_FLAG,
      probe: {
        type: "boolean",
        default: true,
        description: "start each MCP server configured here to ask what it offers (runs their code)",
        negativeDescription: "start no MCP server: tools come from the cache",
      },
    },
    async run({ args }) {
      let inv = await scanMachine(ctx, { probe: args.probe !== false });
      if (!args.json && inv.agents.length > 0) {
        await askNames(ctx, inv);
        inv = lastScan(ctx) ?? inv;
      }
      const names = readAgentNames(ctx.paths.agentNames);
      const agents = inv.agents.map((a) => ({ ...a, name: names.get(a.id) ?? a.name }));
      emit(ctx, args.json, { agents, harnesses: inv.harnesses, scannedAt: inv.scannedAt }, () =>
        agents.length
          ? agents.map(
              (a) =>
                `${pad(a.name, 18)}${pad(a.product, 16)}${a.shell.has ? "shell" : "no shell"}, ${a.servers.length} MCP server(s), reaches ${a.reaches.length} credential(s)`,
            )
          : ["no agent's config file is on this disk"],
      );
      return 0;
    },
  });

const list = (ctx: Context) =>
  command({
    meta: { name: "list", description: "what this machine hosts, from the last scan (nothing is started)" },
    args: JSON_FLAG,
    run({ args }) {
      const inv = scanned(ctx);
      const hooks = hooksOf(ctx, inv);
      const names = readAgentNames(ctx.paths.agentNames);
      const rows = inv.agents.map((a) => ({
        id: a.id,
        name: names.get(a.id) ?? a.id,
        product: a.product,
        harness: a.harness,
        hook: hooks.find((h) => h.agent === a.id)?.state ?? "takes-no-hook",
        onboarded: false,
      }));
      emit(ctx, args.json, { scannedAt: inv.scannedAt, agents: rows }, () => [
        ...rows.map((r) => `${pad(r.name, 18)}${pad(r.id, 16)}${pad(r.product, 16)}${HOOK_WORDS[r.hook]}`),
        `from the scan of ${inv.scannedAt}; not onboarded to a workspace (memnox login, then memnox setup)`,
      ]);
      return 0;
    },
  });

const name = (ctx: Context) =>
  command({
    meta: { name: "name", description: "call an agent whatever you call it; --clear puts the detected name back" },
    args: {
      agent: { type: "positional", description: "its id or current name" },
      name: { type: "positional", required: false, description: "the new name" },
      clear: { type: "boolean", description: "put the detected name back" },
      ...JSON_FLAG,
    },
    run({ args }) {
      const id = agentId(ctx, args.agent, lastScan(ctx));
      const next = args.clear ? undefined : args.name?.trim();
      if (!args.clear && !next) {
        const current = readAgentNames(ctx.paths.agentNames).get(id) ?? id;
        emit(ctx, args.json, { id, name: current }, () => [`${id} is called ${current}`]);
        return 0;
      }
      setAgentName(ctx.paths.agentNames, id, next);
      const words = next ? `agent ${id} is now called ${next}` : `agent ${id} has its detected name back`;
      recordState(ctx, "agents.name", words);
      emit(ctx, args.json, { id, name: next ?? id }, () => [words]);
      return 0;
    },
  });

const status = (ctx: Context) =>
  command({
    meta: { name: "status", description: "one agent, and the file that proved each surface it has" },
    args: { agent: { type: "positional", description: "its id or name" }, ...JSON_FLAG },
    async run({ args }) {
      const inv = lastScan(ctx) ?? (await scanMachine(ctx, { probe: false }));
      const id = agentId(ctx, args.agent, inv);
      const a = inv.agents.find((x) => x.id === id);
      if (!a)
        throw new MemnoxError(
          "not_found",
          `\`${id}\` was not found on this machine by the last scan`,
          "memnox agents discover scans again",
        );
      const hook = hooksOf(ctx, inv).find((h) => h.agent === id);
      const probation = probationInForce(readProbation(ctx.paths.probation), ctx.clock.now()).find(
        (p) => p.kind === "agent" && p.name === id,
      );
      emit(ctx, args.json, { agent: a, hook: hook ?? null, probation: probation ?? null }, () => [
        ...agentLines(inv, a, hook),
        ...(probation ? [`  probation    until ${probation.until}: memnox agents trust ${a.name}`] : []),
      ]);
      return 0;
    },
  });

const trustCmd = (ctx: Context) =>
  command({
    meta: { name: "trust", description: "end an agent's probation now, on the record" },
    args: { agent: { type: "positional", description: "its id or name" }, ...JSON_FLAG },
    run({ args }) {
      const now = ctx.clock.now();
      const id = agentIdFor(args.agent ?? "", readAgentNames(ctx.paths.agentNames), AGENT_IDS) ?? args.agent ?? "";
      const ended = trust(ctx.paths.probation, "agent", id, personName(ctx.env), now);
      if (!ended) {
        const on = probationInForce(readProbation(ctx.paths.probation), now).filter((p) => p.kind === "agent");
        throw new MemnoxError(
          "not_found",
          `agent \`${args.agent ?? ""}\` is not on probation`,
          on.length ? `on probation: ${on.map((p) => p.name).join(", ")}` : "no agent is on probation",
        );
      }
      const words = `agent ${id} trusted: probation ended early by ${ended.trustedBy}, so only the rules decide what it does`;
      recordState(ctx, "agents.trust", words);
      emit(ctx, args.json, ended, () => [words]);
      return 0;
    },
  });

export const agents: CommandFactory = (ctx) =>
  command({
    meta: { name: "agents", description: "the agents on this machine" },
    default: "discover",
    subCommands: {
      discover: discover(ctx),
      list: list(ctx),
      name: name(ctx),
      status: status(ctx),
      trust: trustCmd(ctx),
    },
  });
