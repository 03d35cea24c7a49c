// `memnox protect`: propose reversible steps and print each undo, or take one named step (one flag at a time).
import { MemnoxError } from "../../../core/errors.ts";
import { verbTables } from "../../../resolve/index.ts";
import type { VerbTable } from "../../../resolve/types.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import * as step from "./_protect-steps.ts";
import { protectFromUsage } from "./_protect-usage.ts";

/** Each flag that names a step, and whether it takes a value. */
const STEPS: Readonly<Record<string, "value" | "flag">> = {
  "--yes": "flag",
  "-y": "flag",
  "--interactive": "flag",
  "--apply": "flag",
  "--revert": "flag",
  "--for": "value",
  "--ask": "value",
  "--deny": "value",
  "--allow": "value",
  "--interceptors": "flag",
  "--hooks": "flag",
  "--observe": "flag",
  "--enforce": "flag",
  "--apply-native": "flag",
  "--revert-native": "flag",
  "--claude-hook": "flag",
  "--revert-claude-hook": "flag",
  "--os-guard": "flag",
  "--revert-os-guard": "flag",
  "--wall": "flag",
  "--revert-wall": "flag",
};

/** The one step the words name, with its value; a second step, a stray word or an unknown flag is refused. */
function chooseStep(raw: readonly string[]): { flag: string | undefined; value: string | undefined } {
  let flag: string | undefined;
  let value: string | undefined;
  for (let i = 0; i < raw.length; i++) {
    const a = raw[i] ?? "";
    const [name = a, inline] = a.startsWith("--") ? a.split(/=(.*)/s, 2) : [a];
    if (name === "--json") continue;
    const kind = STEPS[name];
    if (kind === undefined) {
      if (!a.startsWith("-")) throw new MemnoxError("usage", `memnox protect takes no argument \`${a}\``);
      throw new MemnoxError(
        "usage",
        `unknown flag \`${name}\` for memnox protect`,
        "memnox help protect lists its flags",
      );
    }
    const normal = name === "-y" ? "--yes" : name;
    if (flag !== undefined && flag !== normal) {
      throw new MemnoxError(
        "usage",
        `memnox protect takes one step at a time: \`${flag}\` and \`${name}\` were both given`,
      );
    }
    flag = normal;
    const next = raw[i + 1];
    if (kind === "value") {
      value = inline ?? next;
      if (inline === undefined) i++;
      if (!value || value.startsWith("-"))
        throw new MemnoxError(
          "usage",
          `\`${name}\` needs a value`,
          `e.g. memnox protect ${name} ${name === "--for" ? "gh" : "git.push-force"}`,
        );
    } else if (name === "--revert" && next !== undefined && !next.startsWith("-")) {
      value = next;
      i++;
    }
  }
  return { flag, value };
}

export const protectWith =
  (tables: () => readonly VerbTable[]): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "protect", description: "propose reversible steps and print each undo, or take one step" },
      args: {
        yes: {
          type: "boolean",
          alias: "y",
          description: "write the baseline rules (secret reads in the machine file)",
        },
        apply: { type: "boolean", description: "write the proposed steps into ~/.memnox/machine.policies.toml" },
        revert: { type: "boolean", description: "take the applied steps back out (one, when its id follows)" },
        for: {
          type: "string",
          valueHint: "cli",
          description: "rules for one CLI: its credential file closed, it keeps working",
        },
        ask: { type: "string", valueHint: "action", description: "always ask a person before this action" },
        deny: { type: "string", valueHint: "action", description: "never run this action" },
        allow: { type: "string", valueHint: "action", description: "stop asking about this action (said out loud)" },
        interceptors: { type: "boolean", description: "link the PATH interceptors for the CLIs this machine has" },
        hooks: { type: "boolean", description: "install git pre-push and pre-commit hooks in this repository" },
        observe: { type: "boolean", description: "record verdicts and refuse nothing" },
        enforce: { type: "boolean", description: "apply verdicts on every seam" },
        "apply-native": { type: "boolean", description: "also write the rules into Claude Code's own permissions" },
        "revert-native": { type: "boolean", description: "put Claude Code's permissions back byte for byte" },
        "claude-hook": { type: "boolean", description: "put the hook back into Claude Code" },
        "revert-claude-hook": { type: "boolean", description: "take the hook out of Claude Code and keep it out" },
        "os-guard": {
          type: "boolean",
          description: "write the kernel guard: what the rules deny reading stays unreadable to what a seam starts",
        },
        "revert-os-guard": { type: "boolean", description: "take the kernel guard off" },
        wall: {
          type: "boolean",
          description:
            "wall every hooked agent's shell commands: what the rules deny outright, and every agent's configuration, the kernel refuses",
        },
        "revert-wall": { type: "boolean", description: "take the agent wall off" },
        interactive: {
          type: "boolean",
          description:
            "walk the baseline's domains and choose each (answers from the terminal, or a line each on stdin)",
        },
        "from-usage": {
          type: "string",
          valueHint: "window",
          description: "draft ask rules for what was granted and not used in the window, e.g. 30d",
        },
        id: { type: "positional", required: false, description: "with --revert: the step to take back" },
        json: { type: "boolean", description: "structured output" },
      },
      async run({ args, rawArgs }) {
        if (rawArgs.some((a) => a.startsWith("--from-usage"))) return protectFromUsage(ctx, rawArgs);
        const { flag, value = "" } = chooseStep(rawArgs);
        const out = await dispatch(ctx, flag, value, tables);
        emit(ctx, args.json, out.value, () => out.lines);
        return out.code ?? 0;
      },
    });

async function dispatch(
  ctx: Parameters<CommandFactory>[0],
  flag: string | undefined,
  value: string,
  tables: () => readonly VerbTable[],
): Promise<step.Outcome> {
  switch (flag) {
    case undefined:
      return step.propose(ctx);
    case "--yes":
      return step.baseline(ctx, tables());
    case "--interactive":
      return step.interactive(ctx, tables(), await answerer(ctx));
    case "--apply":
      return step.apply(ctx);
    case "--revert":
      return step.revert(ctx, value || undefined);
    case "--for":
      return step.forCli(ctx, value);
    case "--ask":
    case "--deny":
    case "--allow":
      return step.said(ctx, flag.slice(2) as "ask" | "deny" | "allow", value);
    case "--interceptors":
      return step.interceptors(ctx, tables());
    case "--hooks":
      return step.gitHooks(ctx);
    case "--observe":
    case "--enforce":
      return step.mode(ctx, flag.slice(2) as "observe" | "enforce");
    case "--apply-native":
    case "--revert-native":
      return step.native(ctx, flag === "--apply-native");
    case "--os-guard":
    case "--revert-os-guard":
      return step.osGuard(ctx, flag === "--os-guard");
    case "--wall":
    case "--revert-wall": {
      const { agentWallStep } = await import("./_protect-wall.ts");
      return agentWallStep(ctx, flag === "--wall");
    }
    default:
      return step.claudeHook(ctx, flag === "--claude-hook");
  }
}

/** Yes/no at the terminal (Enter is yes), or one answer per line from stdin when it is not one (a script). */
async function answerer(ctx: Parameters<CommandFactory>[0]): Promise<(question: string) => Promise<boolean>> {
  if (ctx.io.stdinIsTTY) {
    const { consola } = await import("consola");
    return async (q) => (await consola.prompt(q, { type: "confirm", initial: true })) === true;
  }
  const lines = (await ctx.io.readAll()).split("\n");
  return async (q) => {
    const a = (lines.shift() ?? "").trim().toLowerCase();
    const yes = a === "" || a === "y" || a === "yes";
    ctx.io.err(`${q} ${yes ? "yes" : "no"}\n`);
    return yes;
  };
}

export const protect: CommandFactory = protectWith(verbTables);
