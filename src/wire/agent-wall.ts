// Every hooked agent's shell commands through the wall's applier, by each agent's own mechanism. Claude Code:
// its managed settings (a drop-in memnox owns, which no project or user setting can drop or override: the hooks and
// CLAUDE_CODE_SHELL_PREFIX), else its user settings' `env`, which a project's settings can override (said so).
import { existsSync, mkdirSync, readdirSync, rmdirSync, rmSync, statSync } from "node:fs";
import { dirname, join } from "node:path";
import { settingsHooks } from "../../hooks/claude-code.ts";
import { isRecord } from "../core/record.ts";
import { shellQuote } from "../core/shell-quote.ts";
import { readJsonIfExists, writeFileAtomic, writeJsonAtomic } from "../io/files.ts";
import type { Context } from "../ports/context.ts";
import type { Env } from "../ports/index.ts";
import { restoreFromBackup, rewriteWithBackup } from "./backup.ts";
import { applyEdits, parseDocument } from "./edit/document.ts";
import { readConfigFile } from "./files.ts";
import { hookMap, isMemnoxItem } from "./hooks/plan.ts";
import { hookTarget } from "./hooks/targets.ts";
import { linkTarget } from "./links.ts";

const WALL_OWNER = "agent-wall";

export const PREFIX_VAR = "CLAUDE_CODE_SHELL_PREFIX";

/** Where Claude Code reads managed settings on this system (MEMNOX_CLAUDE_MANAGED_DIR stands in for it in tests). */
function claudeManagedDir(env: Env, platform: string = process.platform): string {
  if (env.MEMNOX_CLAUDE_MANAGED_DIR) return env.MEMNOX_CLAUDE_MANAGED_DIR;
  return platform === "darwin" ? "/Library/Application Support/ClaudeCode" : "/etc/claude-code";
}

export const managedDropIn = (env: Env) => join(claudeManagedDir(env), "managed-settings.d", "memnox.json");

type Ctx = Pick<Context, "paths" | "env" | "selfArgv" | "clock">;

/** The person's own hooks in their user settings (memnox's left out): managed settings carry them on. */
function personHooks(ctx: Pick<Context, "paths" | "env">): Record<string, unknown[]> {
  const target = hookTarget("claude-code");
  const text = readConfigFile(userSettings(ctx))?.text;
  if (text === undefined) return {};
  let map: Record<string, unknown> | undefined;
  try {
    map = hookMap(parseDocument("json", text), userSettings(ctx));
  } catch {
    return {};
  }
  const out: Record<string, unknown[]> = {};
  for (const [event, items] of Object.entries(map ?? {})) {
    const theirs = (Array.isArray(items) ? items : []).filter((i) => !isMemnoxItem(target, i));
    if (theirs.length > 0) out[event] = theirs;
  }
  return out;
}

/**
 * memnox's hooks as managed settings hold them: the exec form (no shell, so no prefix), every tool; and only managed
 * hooks run (allowManagedHooksOnly), so no project, plugin or local setting can add a hook that runs outside the
 * wall before anything is checked. The person's own user hooks are carried on here, after memnox's.
 */
function managedSettings(ctx: Ctx, applier: string): Record<string, unknown> {
  const [command = "memnox", ...lead] = linkTarget(ctx);
  const hooks: Record<string, unknown[]> = {};
  for (const [event, items] of Object.entries(settingsHooks("memnox"))) {
    hooks[event] = items.map((item) => {
      const i = item as { matcher?: string; hooks: { timeout?: number }[] };
      const words = [command, ...lead, "hook", "claude-code", event];
      const run = event === "PreToolUse" ? failClosed(words, ctx.paths.sealed) : { command, args: words.slice(1) };
      return {
        ...(i.matcher ? { matcher: "*" } : {}),
        hooks: [{ type: "command", ...run, timeout: i.hooks[0]?.timeout ?? 10 }],
      };
    });
  }
  for (const [event, items] of Object.entries(personHooks(ctx))) hooks[event] = [...(hooks[event] ?? []), ...items];
  return { allowManagedHooksOnly: true, env: { [PREFIX_VAR]: applier }, hooks };
}

const SH = "/bin/sh";
const FALLBACK_NAME = "memnox-hook";

/**
 * The gating hook in a shell that answers for memnox when memnox cannot run at all (its binary made not executable
 * or removed: Claude Code would read that as "go ahead"): in enforce a refusal in Claude Code's own format.
 */
function failClosed(words: readonly string[], sealed: string): { command: string; args: string[] } {
  const deny = JSON.stringify({
    hookSpecificOutput: {
      hookEventName: "PreToolUse",
      permissionDecision: "deny",
      permissionDecisionReason:
        "memnox cannot run (its binary is missing or not executable), so in enforce this call is refused; a person puts it back with memnox setup",
    },
  });
  const script = `"$@"; c=$?; if [ $c -eq 126 ] || [ $c -eq 127 ]; then grep -qs '"mode": "enforce"' ${shellQuote(sealed)} && printf '%s\\n' ${shellQuote(deny)}; exit 0; fi; exit $c`;
  return { command: SH, args: ["-c", script, FALLBACK_NAME, ...words] };
}

/** The words a managed hook runs, with the fail-closed shell taken off. */
function hookWords(h: Record<string, unknown>): string[] | undefined {
  if (typeof h.command !== "string" || !Array.isArray(h.args)) return undefined;
  const args = h.args.filter((a): a is string => typeof a === "string");
  if (h.command === SH && args[0] === "-c" && args[2] === FALLBACK_NAME) return args.slice(3);
  return [h.command, ...args];
}

/** Which directories memnox made for the drop-in, so uninstall takes back exactly those. */
const recordFile = (ctx: Pick<Context, "paths">) => join(ctx.paths.backup, "claude-managed.json");

type ManagedOutcome =
  | { readonly kind: "written"; readonly file: string }
  | { readonly kind: "needs-privilege"; readonly file: string; readonly staged: string; readonly command: string };

function writable(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(d)) {
      try {
        return (statSync(d).mode & 0o200) !== 0 && (process.getuid?.() === 0 || statSync(d).uid === process.getuid?.());
      } catch {
        return false;
      }
    }
    if (d === dirname(d)) return false;
  }
}

/** Write the drop-in, or stage it and name the one privileged command that puts it in place. */
export function writeManaged(ctx: Ctx, applier: string): ManagedOutcome {
  const file = managedDropIn(ctx.env);
  const text = `${JSON.stringify(managedSettings(ctx, applier), null, 2)}\n`;
  if (!writable(dirname(file))) {
    const staged = join(ctx.paths.guard, "claude-managed-settings.json");
    writeFileAtomic(staged, text);
    return { kind: "needs-privilege", file, staged, command: `sudo install -D -m 0644 '${staged}' '${file}'` };
  }
  const made: string[] = [];
  for (let d = dirname(file); !existsSync(d); d = dirname(d)) made.unshift(d);
  for (const d of made) mkdirSync(d, { mode: 0o755 });
  writeFileAtomic(file, text, 0o644);
  const had = readJsonIfExists(recordFile(ctx)) as { made?: string[] } | undefined;
  writeJsonAtomic(recordFile(ctx), { file, made: [...new Set([...(had?.made ?? []), ...made])] });
  return { kind: "written", file };
}

/** Take the drop-in out, and the folders memnox made for it when they are empty again. */
function removeManaged(ctx: Pick<Context, "paths" | "env">): "removed" | "absent" | "needs-privilege" {
  const file = managedDropIn(ctx.env);
  if (!existsSync(file)) return "absent";
  if (!writable(dirname(file))) return "needs-privilege";
  rmSync(file, { force: true });
  const rec = readJsonIfExists(recordFile(ctx)) as { made?: string[] } | undefined;
  for (const d of [...(rec?.made ?? [])].reverse()) {
    try {
      if (readdirSync(d).length === 0) rmdirSync(d);
    } catch {
      // gone already, or someone put something in it: theirs to keep
    }
  }
  rmSync(recordFile(ctx), { force: true });
  return "removed";
}

/** Whether the drop-in is in place and names this applier. */
export function managedInForce(env: Env, applier: string): boolean {
  const raw = readJsonIfExists(managedDropIn(env));
  return isRecord(raw) && isRecord(raw.env) && raw.env[PREFIX_VAR] === applier;
}

const userSettings = (ctx: Pick<Context, "paths" | "env">) =>
  hookTarget("claude-code").file({ home: ctx.paths.home, env: ctx.env });

/** The prefix in Claude Code's user settings: every Bash call, skill line, hook and MCP server through the applier. */
export function setUserPrefix(ctx: Ctx, applier: string): boolean {
  const file = userSettings(ctx);
  const r = rewriteWithBackup({
    backupDir: ctx.paths.backup,
    path: file,
    owner: WALL_OWNER,
    note: "claude-code shell prefix",
    nowMs: ctx.clock.now(),
    transform: (text) => {
      const current = text ?? "{}\n";
      const doc = parseDocument("json", current);
      const env = isRecord(doc) && isRecord(doc.env) ? doc.env : undefined;
      if (env?.[PREFIX_VAR] === applier) return undefined;
      return applyEdits("json", current, [{ op: "set", path: ["env", PREFIX_VAR], value: applier }], file);
    },
  });
  return r.changed;
}

export function removeUserPrefix(ctx: Pick<Context, "paths" | "env">): string {
  const file = userSettings(ctx);
  const r = restoreFromBackup({
    backupDir: ctx.paths.backup,
    path: file,
    owners: [WALL_OWNER],
    strip: (text) => {
      const doc = parseDocument("json", text);
      const env = isRecord(doc) && isRecord(doc.env) ? doc.env : undefined;
      if (!env || !(PREFIX_VAR in env)) return undefined;
      const edits = [{ op: "remove" as const, path: ["env", PREFIX_VAR] }];
      const left = Object.keys(env).filter((k) => k !== PREFIX_VAR);
      return applyEdits("json", text, left.length ? edits : [{ op: "remove", path: ["env"] }], file);
    },
  });
  return r.outcome;
}

/** The program the managed drop-in's hooks start, when it holds memnox's hooks for every event; else undefined. */
export function managedHookLauncher(env: Env): string[] | undefined {
  const raw = readJsonIfExists(managedDropIn(env));
  if (!isRecord(raw) || !isRecord(raw.hooks)) return undefined;
  let launcher: string[] | undefined;
  for (const event of Object.keys(settingsHooks("memnox"))) {
    const list = raw.hooks[event];
    const h = Array.isArray(list) && isRecord(list[0]) && Array.isArray(list[0].hooks) ? list[0].hooks[0] : undefined;
    const words = isRecord(h) ? hookWords(h) : undefined;
    if (!words || words.slice(-3).join(" ") !== `hook claude-code ${event}`) return undefined;
    launcher = words.slice(0, -3);
  }
  return launcher;
}

export interface WallRemoval {
  readonly managed: "removed" | "absent" | "needs-privilege";
  /** The one privileged command that takes the managed drop-in out, when memnox could not. */
  readonly privileged?: string;
  readonly userPrefix: string;
}

/** Everything the agent wall put outside memnox's own folder taken back out (uninstall, protect --revert-wall). */
export function removeAgentWallWiring(ctx: Pick<Context, "paths" | "env">): WallRemoval {
  const managed = removeManaged(ctx);
  const userPrefix = removeUserPrefix(ctx);
  for (const f of [
    ctx.paths.applier,
    join(ctx.paths.guard, "agent-wall.json"),
    join(ctx.paths.guard, "agent-wall.plan"),
  ])
    rmSync(f, { force: true });
  return {
    managed,
    userPrefix,
    ...(managed === "needs-privilege" ? { privileged: `sudo rm '${managedDropIn(ctx.env)}'` } : {}),
  };
}
