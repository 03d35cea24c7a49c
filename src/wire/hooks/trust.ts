// Whether an agent will actually run the hook memnox installed: each gates hooks behind its own switch or trust, and
// a hook the agent skips is "installed, not active until …" with the exact step, never "hooked".
import type { AgentName } from "../../../hooks/types.ts";
import { claudeState, codexConfig } from "../../core/agent-paths.ts";
import { isRecord } from "../../core/record.ts";
import type { Env } from "../../ports/index.ts";
import { parseDocument } from "../edit/document.ts";
import { readConfigFile } from "../files.ts";
import { codexTrust } from "./codex-trust.ts";
import { memnoxHookIn } from "./command.ts";
import type { HookTarget } from "./targets.ts";

export interface Trust {
  /** Whether the agent runs the hook now (here, for per-folder trust). */
  readonly active: boolean;
  readonly words: string;
  /** The step that makes an inactive hook run. */
  readonly step?: string;
}

interface TrustPlace {
  readonly home: string;
  readonly env: Env;
  /** The folder a session would start in (Claude Code trusts per folder). */
  readonly cwd: string;
  /** The repository root of `cwd`, when it is in one. */
  readonly root?: string;
}

function readJson(path: string): unknown {
  const f = readConfigFile(path);
  if (!f?.text) return undefined;
  try {
    return parseDocument(path.endsWith(".toml") ? "toml" : "json", f.text);
  } catch {
    return undefined;
  }
}

function claude(doc: unknown, at: TrustPlace): Trust {
  if (isRecord(doc) && doc.disableAllHooks === true) {
    return off("Claude Code has every hook turned off (`disableAllHooks` in its settings)", "remove `disableAllHooks`");
  }
  const state = readJson(claudeState(at.home, at.env));
  const projects = isRecord(state) && isRecord(state.projects) ? state.projects : {};
  const trusted = [at.cwd, at.root].some((p) => {
    const entry = p ? projects[p] : undefined;
    return isRecord(entry) && entry.hasTrustDialogAccepted === true;
  });
  if (trusted) return { active: true, words: `active: Claude Code trusts ${at.root ?? at.cwd}` };
  return off(
    `installed, not active in ${at.root ?? at.cwd} until you accept Claude Code's trust dialog there`,
    `run \`claude\` in ${at.root ?? at.cwd} once and accept the trust dialog (claude -p runs count it as trusted)`,
  );
}

function codex(doc: unknown, target: HookTarget, at: TrustPlace): Trust {
  const config = readJson(codexConfig(at.home, at.env));
  const features = isRecord(config) && isRecord(config.features) ? config.features : {};
  if (features.hooks === false || features.codex_hooks === false) {
    return off("Codex has hooks turned off (`[features] hooks = false`)", "set `hooks = true` under `[features]`");
  }
  const handlers = codexTrust(target.file(at), doc, config, (h) => {
    return typeof h.command === "string" && memnoxHookIn(h.command, "codex") !== undefined;
  });
  const named = (status: string) => handlers.filter((h) => h.status === status).map((h) => h.event);
  const modified = named("modified");
  if (modified.length > 0) {
    return off(
      `modified, not active: memnox's ${modified.join(", ")} ${modified.length === 1 ? "entry differs" : "entries differ"} from what was trusted in Codex's /hooks, so Codex skips ${modified.length === 1 ? "it" : "them"} and those calls run unchecked`,
      "run `memnox setup` to put memnox's entries back as they were trusted, or run `codex`, type /hooks and trust the changed entries",
    );
  }
  const disabled = named("disabled");
  if (disabled.length > 0) {
    return off(
      `turned off in Codex's /hooks for ${disabled.join(", ")}, so those calls run unchecked`,
      "run `codex`, type /hooks and turn memnox's hooks back on",
    );
  }
  if (handlers.length > 0 && handlers.every((h) => h.status === "trusted")) {
    return { active: true, words: "active: trusted in Codex's /hooks, each entry as it stands" };
  }
  return off(
    "installed, not active until you trust it in Codex: new hooks are skipped until a person reviews them",
    "run `codex`, type /hooks and trust memnox's hooks",
  );
}

function gemini(doc: unknown): Trust {
  const cfg = isRecord(doc) && isRecord(doc.hooksConfig) ? doc.hooksConfig : {};
  if (cfg.enabled === false) {
    return off("Gemini CLI has hooks turned off (`hooksConfig.enabled` is false)", "set `hooksConfig.enabled` to true");
  }
  if (Array.isArray(cfg.disabled) && cfg.disabled.includes("memnox")) {
    return off("Gemini CLI lists memnox in `hooksConfig.disabled`", "run `/hooks enable memnox` in Gemini CLI");
  }
  return { active: true, words: "active from the next Gemini CLI session" };
}

function off(words: string, step: string): Trust {
  return { active: false, words, step };
}

/** Whether `agent` runs the hook in `doc` (its parsed hook file). */
export function hookTrust(agent: AgentName, target: HookTarget, doc: unknown, at: TrustPlace): Trust {
  switch (agent) {
    case "claude-code":
      return claude(doc, at);
    case "codex":
      return codex(doc, target, at);
    case "gemini-cli":
      return gemini(doc);
    case "cursor":
      return { active: true, words: "active: Cursor reloads hooks.json by itself" };
    case "windsurf":
      return { active: true, words: "active from Cascade's next call" };
    case "copilot-cli":
      return { active: true, words: "active from the next Copilot CLI session" };
    case "opencode":
      return { active: true, words: "active from the next OpenCode start" };
  }
}
