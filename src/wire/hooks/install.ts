// Putting memnox's hook into an agent's settings and taking it out: merged into what is there with comments and
// formatting kept, backed up before the first change, read back before it is written, idempotent.
import { existsSync, mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { AGENT_LABELS, type AgentName } from "../../../hooks/types.ts";
import { describeError, MemnoxError } from "../../core/errors.ts";
import { shellWord } from "../../core/shell-quote.ts";
import { repoRoot } from "../../io/repo.ts";
import type { Context } from "../../ports/context.ts";
import { managedDropIn, managedHookLauncher } from "../agent-wall.ts";
import { restoreFromBackup, rewriteWithBackup } from "../backup.ts";
import { applyEdits, parseDocument } from "../edit/document.ts";
import { ParseFailure } from "../edit/jsonc.ts";
import { readConfigFile } from "../files.ts";
import { linkTarget } from "../links.ts";
import type { Problem } from "../read.ts";
import { memnoxHookIn } from "./command.ts";
import { commandsOf, hookMap, isMemnoxItem, planInstall, planRemove } from "./plan.ts";
import { installPlugin, pluginHook, removePlugin } from "./plugin-file.ts";
import { type HookTarget, hookTarget } from "./targets.ts";
import { hookTrust, type Trust } from "./trust.ts";

/** The owner name agent hooks have in the backup manifest. */
const HOOK_OWNER = "agent-hook";

type HookStatus =
  | "managed"
  | "added"
  | "repointed"
  | "unchanged"
  | "refused"
  | "unparsable"
  | "restored"
  | "removed"
  | "missing";

export interface HookReport {
  readonly agent: AgentName;
  readonly label: string;
  readonly file: string;
  readonly status: HookStatus;
  /** Whether the agent will run it, after an install. */
  readonly trust?: Trust;
  readonly problem?: Problem;
  readonly backup?: string;
  /** On "removed": the other parts of memnox still in the file, the reason its bytes did not come back yet. */
  readonly sharedWith?: readonly string[];
}

type WireContext = Pick<Context, "paths" | "env" | "cwd" | "clock" | "selfArgv">;

function place(ctx: WireContext) {
  const root = repoRoot(ctx.cwd, ctx.env);
  return { home: ctx.paths.home, env: ctx.env, cwd: ctx.cwd, ...(root ? { root } : {}) };
}

function base(agent: AgentName, file: string) {
  return { agent, label: AGENT_LABELS[agent], file };
}

function failed(agent: AgentName, file: string, e: unknown): HookReport {
  if (e instanceof ParseFailure) {
    return {
      ...base(agent, file),
      status: "unparsable",
      problem: { message: e.message, line: e.line, column: e.column },
    };
  }
  if (e instanceof MemnoxError && e.code !== "internal") {
    return { ...base(agent, file), status: "refused", problem: { message: describeError(e) } };
  }
  throw e;
}

function fresh(target: HookTarget, desired: Record<string, unknown>): string {
  return `${JSON.stringify({ ...target.fresh, hooks: desired }, null, 2)}\n`;
}

/** memnox's hook in `agent`'s user settings, pointing at the stable binary; a second run changes nothing. */
export function installAgentHook(ctx: WireContext, agent: AgentName): HookReport {
  // Claude Code's managed settings hold the hook where no other setting drops it: a user copy would run it twice.
  if (agent === "claude-code" && managedHookLauncher(ctx.env)) {
    const user = removeAgentHook(ctx, agent);
    return { ...base(agent, managedDropIn(ctx.env)), status: "managed", ...withBackup(user.backup) };
  }
  const target = hookTarget(agent);
  const file = target.file(place(ctx));
  if (target.plugin) return installPluginHook(ctx, target, file);
  const desired = target.entries(linkTarget(ctx).map(shellWord).join(" "));
  let status: HookStatus = "unchanged";
  const transform = (text: string | undefined): string | undefined => {
    if (text === undefined) {
      status = "added";
      return fresh(target, desired);
    }
    const plan = planInstall(target, parseDocument("json", text), desired, file);
    status = plan.status === "add" ? "added" : plan.status === "repoint" ? "repointed" : "unchanged";
    return plan.edits.length ? applyEdits("json", text, plan.edits, file) : undefined;
  };
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const r = rewriteWithBackup({
      backupDir: ctx.paths.backup,
      path: file,
      owner: HOOK_OWNER,
      note: agent,
      nowMs: ctx.clock.now(),
      transform,
    });
    const state = agentHookState(ctx, agent);
    return { ...base(agent, file), status, ...(state.trust ? { trust: state.trust } : {}), ...withBackup(r.backup) };
  } catch (e) {
    return failed(agent, file, e);
  }
}

/** memnox's hook out of `agent`'s settings: the bytes back while nothing else changed, else only its entries. */
export function removeAgentHook(ctx: WireContext, agent: AgentName): HookReport {
  const target = hookTarget(agent);
  const file = target.file(place(ctx));
  try {
    if (target.plugin) {
      const r = removePlugin(file, { backupDir: ctx.paths.backup, owner: HOOK_OWNER });
      return { ...base(agent, file), status: r.outcome, ...withBackup(r.backup) };
    }
    const r = restoreFromBackup({
      backupDir: ctx.paths.backup,
      path: file,
      owners: [HOOK_OWNER],
      strip: (text, original) => {
        const before = original === undefined ? undefined : parseOrUndefined(original);
        const edits = planRemove(target, parseDocument("json", text), before, file);
        return edits.length ? applyEdits("json", text, edits, file) : undefined;
      },
    });
    const shared = r.sharedWith ? { sharedWith: r.sharedWith } : {};
    return { ...base(agent, file), status: r.outcome, ...withBackup(r.backup), ...shared };
  } catch (e) {
    return failed(agent, file, e);
  }
}

/** An agent whose hook is memnox's own plugin file (OpenCode). */
function installPluginHook(ctx: WireContext, target: HookTarget, file: string): HookReport {
  try {
    mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
    const r = installPlugin(target, file, linkTarget(ctx), {
      backupDir: ctx.paths.backup,
      owner: HOOK_OWNER,
      nowMs: ctx.clock.now(),
    });
    const trust = pluginState(ctx, target, file).trust;
    return { ...base(target.agent, file), status: r.status, ...(trust ? { trust } : {}), ...withBackup(r.backup) };
  } catch (e) {
    return failed(target.agent, file, e);
  }
}

function pluginState(ctx: WireContext, target: HookTarget, file: string): HookState {
  const head = base(target.agent, file);
  const found = pluginHook(file);
  if (found === undefined) return { ...head, presence: "absent" };
  if ("problem" in found) return { ...head, presence: "unreadable", problem: found.problem };
  const at = found.words.indexOf("hook");
  const launcher = at > 0 ? found.words.slice(0, at) : [];
  return {
    ...head,
    presence: "hooked",
    events: [target.preShell],
    launcher,
    launcherExists: launcher.length > 0 && launcher.slice(0, 2).every((w) => existsSync(w)),
    trust: hookTrust(target.agent, target, undefined, place(ctx)),
  };
}

function parseOrUndefined(text: string): unknown {
  try {
    return parseDocument("json", text);
  } catch {
    return undefined;
  }
}

function withBackup(path: string | null | undefined): { backup?: string } {
  return path ? { backup: path } : {};
}

type HookPresence = "hooked" | "partial" | "absent" | "unreadable";

export interface HookState {
  readonly agent: AgentName;
  readonly label: string;
  readonly file: string;
  readonly presence: HookPresence;
  /** The program memnox's entries start, and whether it is still there. */
  readonly launcher?: readonly string[];
  readonly launcherExists?: boolean;
  readonly trust?: Trust;
  readonly problem?: string;
  /** The events memnox's entries are in (`SessionStart`, `PreToolUse`…). */
  readonly events?: readonly string[];
}

/** What `agent`'s settings hold of memnox's hook now, read only. */
export function agentHookState(ctx: WireContext, agent: AgentName): HookState {
  const managed = agent === "claude-code" ? managedHookLauncher(ctx.env) : undefined;
  if (managed) {
    const target = hookTarget(agent);
    return {
      ...base(agent, managedDropIn(ctx.env)),
      presence: "hooked",
      events: Object.keys(target.entries("memnox")),
      launcher: managed,
      launcherExists: managed.slice(0, 2).every((w) => existsSync(w)),
      trust: hookTrust(agent, target, {}, place(ctx)),
    };
  }
  const target = hookTarget(agent);
  const at = place(ctx);
  const file = target.file(at);
  if (target.plugin) return pluginState(ctx, target, file);
  const head = base(agent, file);
  const text = readConfigFile(file)?.text;
  if (text === undefined) return { ...head, presence: "absent" };
  let doc: unknown;
  let map: Record<string, unknown> | undefined;
  try {
    doc = parseDocument("json", text);
    map = hookMap(doc, file);
  } catch (e) {
    return { ...head, presence: "unreadable", problem: describeError(e) };
  }
  const wanted = Object.keys(target.entries("memnox"));
  const ours = wanted.map((event) => {
    const list = map?.[event];
    return Array.isArray(list) ? list.find((item) => isMemnoxItem(target, item)) : undefined;
  });
  const found = ours.filter((x) => x !== undefined);
  if (found.length === 0) return { ...head, presence: "absent" };
  const first = commandsOf(target, found[0])[0];
  const launcher = (typeof first === "string" && memnoxHookIn(first)?.launcher) || [];
  const launcherExists = launcher.length > 0 && launcher.slice(0, 2).every((w) => existsSync(w));
  return {
    ...head,
    presence: found.length === wanted.length ? "hooked" : "partial",
    events: wanted.filter((_, i) => ours[i] !== undefined),
    launcher,
    launcherExists,
    trust: hookTrust(agent, target, doc, at),
  };
}
