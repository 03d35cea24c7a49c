// Each agent's shell commands put behind the interceptors by that agent's own mechanism, so a script's child
// `git push` meets them in a hooked session as it does under `memnox run`:
// - Codex: `[shell_environment_policy.set]` in its config.toml names memnox's start-up file as BASH_ENV, which bash
//   reads before every command Codex runs (Codex 0.171 puts `set` values in as written: `$PATH` is not expanded
//   there, so PATH itself cannot be set), putting ~/.memnox/bin first and the session's variables in (Codex gives
//   each command CODEX_SESSION_ID, its hook's session_id).
// - Gemini CLI: no setting reaches its shell's environment (a `.env` file only adds variables not already set, and a
//   project's .env hides the user's), so memnox's BeforeTool hook puts the same on each command it allows
//   (hooks/gemini-cli.ts), which Gemini lets a hook do.
import { existsSync } from "node:fs";
import { basename, join } from "node:path";
import type { AgentName } from "../../hooks/types.ts";
import { codexConfig, codexHooks } from "../core/agent-paths.ts";
import { describeError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { shellQuote } from "../core/shell-quote.ts";
import { readTextIfExists, writeFileAtomic } from "../io/files.ts";
import type { Context } from "../ports/context.ts";
import { readBackups, restoreFromBackup, rewriteWithBackup } from "./backup.ts";
import { applyEdits, parseDocument } from "./edit/document.ts";
import { readConfigFile, replaceConfigFile } from "./files.ts";
import { codexTrust } from "./hooks/codex-trust.ts";
import { memnoxHookIn } from "./hooks/command.ts";
import { agentHookState } from "./hooks/install.ts";

/** The owner name memnox's keys in an agent's shell settings have in the backup manifest. */
const AGENT_SHELL_OWNER = "agent-shell";

type WireContext = Pick<Context, "paths" | "env" | "cwd" | "clock" | "selfArgv">;

export interface AgentShellReport {
  readonly agent: AgentName;
  readonly file: string;
  readonly status: "added" | "unchanged" | "left-alone" | "refused";
  readonly words: string;
}

interface AgentShellState {
  /** Whether the agent's shell commands start with the interceptors first on PATH. */
  readonly meets: boolean;
  readonly words: string;
  readonly fix?: string;
}

const codexConfigFile = (ctx: Pick<Context, "paths" | "env">) => codexConfig(ctx.paths.home, ctx.env);

/** memnox's start-up file for `agent`'s shell: under MEMNOX_HOME, so only memnox (and its rules) write it. */
export function agentEnvFile(ctx: Pick<Context, "paths">, agent: AgentName): string {
  return join(ctx.paths.root, "agent-env", `${agent}.sh`);
}

/**
 * POSIX sh, sourced by bash before each command: the interceptors first, the agent and its session named; and where
 * the agent wall is written, the whole command handed to its applier, which runs it again inside the wall (there
 * MEMNOX_WALL is set, so this line lets it through).
 */
function agentEnvScript(ctx: Pick<Context, "paths" | "env">, agent: AgentName, sessionVar: string): string {
  const ownHome = ctx.env.MEMNOX_HOME ? [`export MEMNOX_HOME=${shellQuote(ctx.env.MEMNOX_HOME)}`] : [];
  const wall = existsSync(ctx.paths.applier)
    ? [
        `if [ -z "$MEMNOX_WALL" ] && [ -n "$BASH_EXECUTION_STRING" ]; then exec ${shellQuote(ctx.paths.applier)} "$BASH_EXECUTION_STRING"; fi`,
      ]
    : [];
  return [
    `# memnox: every command ${agent} runs starts here, so the programs it starts meet the interceptors.`,
    "# Written by memnox setup; memnox uninstall takes it out of the agent's settings.",
    `PATH=${shellQuote(ctx.paths.bin)}:"$PATH"; export PATH`,
    `export MEMNOX_AGENT_NAME=${shellQuote(agent)}`,
    `if [ -z "$MEMNOX_SESSION" ] && [ -n "$${sessionVar}" ]; then export MEMNOX_SESSION="$${sessionVar}"; fi`,
    ...ownHome,
    ...wall,
    "",
  ].join("\n");
}

/** Codex's start-up file written again, with or without the wall's line, where setup put it. */
export function refreshCodexShell(ctx: Pick<Context, "paths" | "env">): boolean {
  const script = agentEnvFile(ctx, "codex");
  if (!existsSync(script)) return false;
  writeFileAtomic(script, agentEnvScript(ctx, "codex", "CODEX_SESSION_ID"), 0o644);
  return true;
}

/** Whether Codex's commands go through the wall's applier (its start-up file hands them over). */
export function codexWalled(ctx: Pick<Context, "paths">): boolean {
  return readTextIfExists(agentEnvFile(ctx, "codex"))?.includes(shellQuote(ctx.paths.applier)) === true;
}

const POLICY = ["shell_environment_policy", "set"] as const;

function policySet(doc: unknown): Record<string, unknown> {
  const p = isRecord(doc) ? doc.shell_environment_policy : undefined;
  return isRecord(p) && isRecord(p.set) ? p.set : {};
}

/** Codex's commands behind the interceptors: memnox's BASH_ENV in its shell policy; a BASH_ENV of the person's stays. */
export function codexShellOn(ctx: WireContext): AgentShellReport {
  const file = codexConfigFile(ctx);
  const script = agentEnvFile(ctx, "codex");
  writeFileAtomic(script, agentEnvScript(ctx, "codex", "CODEX_SESSION_ID"), 0o644);
  let status = "unchanged" as AgentShellReport["status"];
  try {
    rewriteWithBackup({
      backupDir: ctx.paths.backup,
      path: file,
      owner: AGENT_SHELL_OWNER,
      note: "codex shell_environment_policy",
      nowMs: ctx.clock.now(),
      transform: (text) => {
        const current = text ?? "";
        const set = policySet(parseDocument("toml", current));
        if (set.BASH_ENV === script && set.MEMNOX_AGENT_NAME === "codex") return undefined;
        if (typeof set.BASH_ENV === "string" && set.BASH_ENV !== script) {
          status = "left-alone";
          return undefined;
        }
        status = "added";
        return applyEdits(
          "toml",
          current,
          [
            { op: "set", path: [...POLICY, "BASH_ENV"], value: script },
            { op: "set", path: [...POLICY, "MEMNOX_AGENT_NAME"], value: "codex" },
          ],
          file,
        );
      },
    });
  } catch (e) {
    return { agent: "codex", file, status: "refused", words: describeError(e) };
  }
  const words =
    status === "left-alone"
      ? "your shell_environment_policy already sets BASH_ENV, so memnox left it; Codex's commands do not meet the interceptors"
      : "every command Codex runs starts with the interceptors first (BASH_ENV in its shell_environment_policy)";
  return { agent: "codex", file, status, words };
}

/** memnox's keys out of Codex's shell policy: the bytes back while nothing else changed, else only those keys. */
export function codexShellOff(ctx: WireContext): { file: string; outcome: string }[] {
  const script = agentEnvFile(ctx, "codex");
  return readBackups(ctx.paths.backup)
    .filter((b) => b.owners[AGENT_SHELL_OWNER] !== undefined)
    .map((b) => {
      const r = restoreFromBackup({
        backupDir: ctx.paths.backup,
        path: b.path,
        owners: [AGENT_SHELL_OWNER],
        strip: (text) => {
          const set = policySet(parseDocument("toml", text));
          const ours = [
            ...(set.BASH_ENV === script ? (["BASH_ENV"] as const) : []),
            ...(set.MEMNOX_AGENT_NAME === "codex" ? (["MEMNOX_AGENT_NAME"] as const) : []),
          ];
          if (ours.length === 0) return undefined;
          // A table memnox's keys were all that held is taken out with them, rather than left as an empty header.
          const emptied = Object.keys(set).every((k) => (ours as readonly string[]).includes(k));
          const edits = emptied
            ? [{ op: "remove" as const, path: [...POLICY] }]
            : ours.map((k) => ({ op: "remove" as const, path: [...POLICY, k] }));
          return applyEdits("toml", text, edits, b.path);
        },
      });
      return { file: b.path, outcome: r.outcome };
    });
}

/** The `[hooks.state]` keys Codex keeps for memnox's own hook entries, read before those entries are taken out. */
export function codexMemnoxTrustKeys(ctx: WireContext): string[] {
  const hooksFile = codexHooks(ctx.paths.home, ctx.env);
  try {
    const hooks = parseDocument("json", readTextIfExists(hooksFile) ?? "{}");
    const config = parseDocument("toml", readTextIfExists(codexConfigFile(ctx)) ?? "");
    return codexTrust(
      hooksFile,
      hooks,
      config,
      (h) => typeof h.command === "string" && memnoxHookIn(h.command, "codex") !== undefined,
    )
      .filter((h) => h.status !== "untrusted")
      .map((h) => h.key);
  } catch {
    return [];
  }
}

/**
 * Codex's trust records for memnox's hooks (written by Codex when a person trusted them in /hooks) taken out of
 * config.toml once the hooks are gone: they name entries that no longer exist, and they are memnox's leftovers.
 */
export function forgetCodexTrust(ctx: WireContext, keys: readonly string[]): void {
  if (keys.length === 0) return;
  const file = codexConfigFile(ctx);
  const bytes = readConfigFile(file);
  const text = bytes?.text;
  if (!bytes || text === undefined) return;
  try {
    const doc = parseDocument("toml", text);
    const state = isRecord(doc) && isRecord(doc.hooks) && isRecord(doc.hooks.state) ? doc.hooks.state : {};
    const present = keys.filter((k) => k in state);
    if (present.length === 0) return;
    const emptied = Object.keys(state).every((k) => present.includes(k));
    const hooksTable = isRecord(doc) && isRecord(doc.hooks) ? doc.hooks : {};
    const edits =
      emptied && Object.keys(hooksTable).length === 1
        ? [{ op: "remove" as const, path: ["hooks"] }]
        : present.map((k) => ({ op: "remove" as const, path: ["hooks", "state", k] }));
    replaceConfigFile(bytes, endingAsBefore(applyEdits("toml", text, edits, file), text));
  } catch {
    // A config Codex can no longer read is left for Codex to say so; the records only name entries that are gone.
  }
}

/** Codex appends each record after a blank line: with the last ones gone, the file ends as it ended with them. */
function endingAsBefore(out: string, before: string): string {
  const tail = (t: string) => t.length - t.replace(/\n+$/, "").length;
  const extra = tail(out) - Math.max(1, tail(before));
  return extra > 0 ? out.slice(0, out.length - extra) : out;
}

/** Whether `agent`'s shell commands meet the interceptors, by its own mechanism, said honestly for doctor --wiring. */
export function agentShellState(ctx: WireContext, agent: AgentName): AgentShellState | undefined {
  if (agent === "codex") return codexShellState(ctx);
  if (agent === "gemini-cli") return geminiShellState(ctx);
  return undefined;
}

function codexShellState(ctx: WireContext): AgentShellState {
  const file = codexConfigFile(ctx);
  const script = agentEnvFile(ctx, "codex");
  let doc: unknown;
  try {
    doc = parseDocument("toml", readTextIfExists(file) ?? "");
  } catch {
    return { meets: false, words: `${file} does not parse, so Codex's commands are not known to meet them` };
  }
  const policy = isRecord(doc) && isRecord(doc.shell_environment_policy) ? doc.shell_environment_policy : {};
  const set = policySet(doc);
  if (set.BASH_ENV !== script || readTextIfExists(script) === undefined) {
    return {
      meets: false,
      words: "Codex's commands run with your own PATH, so a script's child git push does not meet the interceptors",
      fix: "memnox setup",
    };
  }
  const only = Array.isArray(policy.include_only) ? policy.include_only.map(String) : [];
  if (only.length > 0 && !only.some((p) => /^BASH_ENV$|^\*$/i.test(p))) {
    return {
      meets: false,
      words:
        "your shell_environment_policy include_only drops BASH_ENV, so Codex's commands do not meet the interceptors",
      fix: "add BASH_ENV to include_only in [shell_environment_policy]",
    };
  }
  const shell = basename(ctx.env.SHELL ?? "");
  if (shell && shell !== "bash" && shell !== "sh") {
    return {
      meets: false,
      words: `Codex runs commands with ${shell}, which does not read BASH_ENV, so they do not meet the interceptors`,
      fix: "memnox run -- codex, or put ~/.memnox/bin first on your login PATH (the line memnox setup prints)",
    };
  }
  return { meets: true, words: "every command Codex runs starts with the interceptors first, in its session" };
}

function geminiShellState(ctx: WireContext): AgentShellState {
  const hook = agentHookState(ctx, "gemini-cli");
  if (hook.presence !== "hooked" || hook.trust?.active === false) {
    return {
      meets: false,
      words: "Gemini CLI's commands meet the interceptors only through memnox's hook, which is not active",
      fix: "memnox setup",
    };
  }
  if (!existsSync(ctx.paths.bin)) {
    return { meets: false, words: "no interceptors are installed", fix: "memnox protect --interceptors" };
  }
  return {
    meets: true,
    words: "memnox's hook starts every command Gemini CLI runs with the interceptors first, in its session",
  };
}
