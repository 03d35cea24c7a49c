// The facts a rule's `principals`, `models` and `providers` match, each from one documented source, read only when a
// rule in force names one of them:
// - principal: the person the agent acts for. The workspace account's owner when this machine is enrolled (the
//   person who approved it), else the operating-system account the agent runs as (by uid, never USER).
// - model and provider: what the agent's own settings say it runs. Claude Code: ANTHROPIC_MODEL, else `model` in
//   .claude/settings.local.json, .claude/settings.json (the project's) and ~/.claude/settings.json; the provider is
//   `amazon-bedrock`, `google-vertex` or `anthropic` by CLAUDE_CODE_USE_BEDROCK/VERTEX. Codex: `model` and
//   `model_provider` (default `openai`) in ~/.codex/config.toml. Gemini CLI: GEMINI_MODEL, else `model.name` in its
//   settings; provider `google`.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { claudeSettings, codexConfig, geminiSettings, PROJECT_FILES } from "../core/agent-paths.ts";
import { readJsonIfExists } from "../io/files.ts";
import { repoRoot } from "../io/repo.ts";
import type { Env } from "../ports/index.ts";
import { personName } from "../state/identity.ts";

interface AgentRuns {
  readonly model?: string;
  readonly provider?: string;
}

/** The person an agent acts for on this machine. */
export function principalOf(env: Env, accountFile: string): string {
  try {
    const a = readJsonIfExists(accountFile) as { owner?: unknown } | undefined;
    if (typeof a?.owner === "string" && a.owner) return a.owner;
  } catch {
    // No readable enrolment: the account the agent runs as.
  }
  return personName(env);
}

function field(file: string, read: (doc: Record<string, unknown>) => unknown): string | undefined {
  try {
    const doc = readJsonIfExists(file);
    if (typeof doc !== "object" || doc === null) return undefined;
    const v = read(doc as Record<string, unknown>);
    return typeof v === "string" && v ? v : undefined;
  } catch {
    return undefined;
  }
}

/** One top-level `key = "value"` of a TOML file (before its first table). */
function tomlTop(file: string, key: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch {
    return undefined;
  }
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) return undefined;
    const m = new RegExp(`^${key}\\s*=\\s*"([^"]+)"`).exec(line);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

function kind(agent: string | undefined): "claude" | "codex" | "gemini" | undefined {
  const a = (agent ?? "").toLowerCase();
  if (a.startsWith("claude")) return "claude";
  if (a.startsWith("codex")) return "codex";
  if (a.startsWith("gemini")) return "gemini";
  return undefined;
}

/** The model and provider an agent's own settings name; nothing for an agent memnox cannot read them for. */
export function agentRuns(agent: string | undefined, env: Env, home: string, cwd: string): AgentRuns {
  const root = repoRoot(cwd) ?? cwd;
  const truthy = (v: string | undefined) => v !== undefined && v !== "" && v !== "0" && v.toLowerCase() !== "false";
  switch (kind(agent)) {
    case "claude": {
      const model =
        env.ANTHROPIC_MODEL ||
        [
          join(root, PROJECT_FILES.claudeLocalSettings),
          join(root, PROJECT_FILES.claudeSettings),
          claudeSettings(home, env),
        ]
          .map((f) => field(f, (d) => d.model))
          .find(Boolean);
      const provider = truthy(env.CLAUDE_CODE_USE_BEDROCK)
        ? "amazon-bedrock"
        : truthy(env.CLAUDE_CODE_USE_VERTEX)
          ? "google-vertex"
          : "anthropic";
      return { ...(model ? { model } : {}), provider };
    }
    case "codex": {
      const file = codexConfig(home, env);
      const model = tomlTop(file, "model");
      return { ...(model ? { model } : {}), provider: tomlTop(file, "model_provider") ?? "openai" };
    }
    case "gemini": {
      const model =
        env.GEMINI_MODEL ||
        [join(root, PROJECT_FILES.geminiSettings), geminiSettings(home, env)]
          .map((f) =>
            field(f, (d) => {
              const m = d.model;
              return typeof m === "object" && m !== null ? (m as Record<string, unknown>).name : m;
            }),
          )
          .find(Boolean);
      return { ...(model ? { model } : {}), provider: "google" };
    }
    default:
      return {};
  }
}
