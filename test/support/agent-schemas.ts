// What each agent accepts back from a hook, from the vendors' own definitions: Codex's embedded JSON Schemas, Claude
// Code 2.1.197's zod schema (read out of its binary), Gemini CLI 0.61.0's HookOutput class, Cursor's, Windsurf's and
// GitHub Copilot CLI's documented shapes, and for OpenCode what memnox's own plugin reads (hooks/opencode.ts).
// Checked strictly, so a field the agent does not know is a failure here.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { type Schema, validate } from "./json-schema.ts";

const FIXTURES = join(import.meta.dir, "..", "..", "fixtures", "hooks");
const s = v.optional(v.string());
const b = v.optional(v.boolean());

// Claude Code 2.1.197: the hookSpecificOutput variants for the events memnox answers.
const claudeSpecific = v.variant("hookEventName", [
  v.strictObject({
    hookEventName: v.literal("PreToolUse"),
    permissionDecision: v.optional(v.picklist(["allow", "deny", "ask", "defer"])),
    permissionDecisionReason: s,
    updatedInput: v.optional(v.record(v.string(), v.unknown())),
    additionalContext: s,
  }),
  v.strictObject({
    hookEventName: v.literal("UserPromptSubmit"),
    additionalContext: s,
    sessionTitle: s,
    suppressOriginalPrompt: b,
  }),
  v.strictObject({
    hookEventName: v.literal("SessionStart"),
    additionalContext: s,
    initialUserMessage: s,
    sessionTitle: s,
    watchPaths: v.optional(v.array(v.string())),
    reloadSkills: b,
  }),
  v.strictObject({
    hookEventName: v.literal("PostToolUse"),
    additionalContext: s,
    updatedToolOutput: v.optional(v.unknown()),
    updatedMCPToolOutput: v.optional(v.unknown()),
  }),
  v.strictObject({ hookEventName: v.literal("PostToolUseFailure"), additionalContext: s }),
]);
const claudeOutput = v.strictObject({
  continue: b,
  suppressOutput: b,
  stopReason: s,
  decision: v.optional(v.picklist(["approve", "block"])),
  reason: s,
  systemMessage: s,
  terminalSequence: s,
  hookSpecificOutput: v.optional(claudeSpecific),
});

// Gemini CLI 0.61.0 DefaultHookOutput: the fields it reads; `decision` as HookDecision.
const geminiOutput = v.strictObject({
  continue: b,
  stopReason: s,
  suppressOutput: b,
  systemMessage: s,
  decision: v.optional(v.picklist(["ask", "block", "deny", "approve", "allow"])),
  reason: s,
  hookSpecificOutput: v.optional(v.record(v.string(), v.unknown())),
});

const cursorPermission = v.strictObject({
  permission: v.picklist(["allow", "deny", "ask"]),
  user_message: s,
  agent_message: s,
});
const cursorReadFile = v.strictObject({ permission: v.picklist(["allow", "deny"]), user_message: s });
const cursorPreTool = v.strictObject({
  permission: v.picklist(["allow", "deny"]),
  user_message: s,
  agent_message: s,
  updated_input: v.optional(v.unknown()),
});

// Copilot CLI (docs.github.com/copilot/reference/hooks-reference): preToolUse decision control; sessionStart may
// inject `additionalContext`; the other events' output is ignored, so `{}` is the only answer memnox gives them.
const copilotPreTool = v.strictObject({
  permissionDecision: v.optional(v.picklist(["allow", "deny", "ask"])),
  permissionDecisionReason: s,
  modifiedArgs: v.optional(v.record(v.string(), v.unknown())),
});
const copilotContext = v.strictObject({ additionalContext: s });

// OpenCode: the plugin memnox writes throws on anything but an allow, and reads `env` and `outcome` beside one.
const opencodeBefore = v.variant("decision", [
  v.strictObject({
    decision: v.literal("allow"),
    outcome: v.optional(v.literal(true)),
    env: v.optional(v.objectWithRest({ PATH_FIRST: v.string() }, v.string())),
  }),
  v.strictObject({ decision: v.literal("deny"), reason: v.pipe(v.string(), v.minLength(1)) }),
]);

const CODEX_SCHEMA: Record<string, string> = {
  PreToolUse: "pre-tool-use",
  PostToolUse: "post-tool-use",
  SessionStart: "session-start",
  UserPromptSubmit: "user-prompt-submit",
  SessionEnd: "session-end",
};

function codexSchema(event: string, dir: "input" | "output"): Schema | undefined {
  const name = CODEX_SCHEMA[event];
  if (!name) return undefined;
  try {
    return JSON.parse(readFileSync(join(FIXTURES, "codex", "schema", `${name}.command.${dir}.json`), "utf8"));
  } catch {
    return undefined;
  }
}

function issues(schema: v.GenericSchema, value: unknown): string[] {
  const r = v.safeParse(schema, value);
  return r.success ? [] : r.issues.map((i) => `${v.getDotPath(i) ?? "$"}: ${i.message}`);
}

function oneJsonObject(stdout: string): { value?: unknown; problems: string[] } {
  if (!stdout.endsWith("\n") || stdout.trimEnd().includes("\n")) return { problems: ["stdout is not one JSON line"] };
  try {
    const value: unknown = JSON.parse(stdout);
    if (typeof value !== "object" || value === null || Array.isArray(value)) return { problems: ["not an object"] };
    return { value, problems: [] };
  } catch {
    return { problems: ["stdout is not JSON"] };
  }
}

/** Every way a hook answer breaks what `agent` accepts for `event`; empty when it fits. */
export function answerProblems(agent: string, event: string, stdout: string, exitCode: number): string[] {
  if (agent === "windsurf") {
    const p = stdout === "" ? [] : ["windsurf reads no stdout"];
    return [0, 2].includes(exitCode) ? p : [...p, `exit ${exitCode} neither proceeds nor blocks on purpose`];
  }
  if (exitCode !== 0) return [`exit ${exitCode}: ${agent} answers on exit 0`];
  if (agent === "claude-code" && stdout === "") return [];
  if (agent === "codex" && event === "SessionEnd") return stdout === "" ? [] : ["codex reads nothing from SessionEnd"];
  const { value, problems } = oneJsonObject(stdout);
  if (problems.length > 0) return problems;
  switch (agent) {
    case "claude-code": {
      const found = issues(claudeOutput, value);
      const specific = (value as { hookSpecificOutput?: { hookEventName?: string } }).hookSpecificOutput;
      if (specific && specific.hookEventName !== event) found.push(`hookEventName is not ${event}`);
      return found;
    }
    case "codex":
      return codexProblems(event, value as Record<string, unknown>, stdout);
    case "gemini-cli":
      return issues(geminiOutput, value);
    case "cursor":
      return issues(
        event === "beforeReadFile" ? cursorReadFile : event === "preToolUse" ? cursorPreTool : cursorPermission,
        value,
      );
    case "copilot-cli": {
      const found = issues(event === "preToolUse" ? copilotPreTool : copilotContext, value);
      const d = value as { permissionDecision?: string; permissionDecisionReason?: string };
      // "ask" was not processed before it ran the call, and "allow" would switch Copilot's own prompts off.
      if (d.permissionDecision !== undefined && d.permissionDecision !== "deny")
        found.push(`permissionDecision ${d.permissionDecision} is never memnox's`);
      if (d.permissionDecision === "deny" && !d.permissionDecisionReason) found.push("a deny needs a reason");
      return found;
    }
    case "opencode":
      return event === "tool.execute.before" ? issues(opencodeBefore, value) : issues(v.strictObject({}), value);
  }
  return [`unknown agent ${agent}`];
}

/** The schema, plus the traps that pass it but make Codex run the tool anyway. */
function codexProblems(event: string, value: Record<string, unknown>, stdout: string): string[] {
  const schema = codexSchema(event, "output");
  if (!schema) return [`no codex output schema for ${event}`];
  const found = validate(schema, value);
  if (event !== "PreToolUse") return found;
  const specific = value.hookSpecificOutput as Record<string, unknown> | undefined;
  const decision = specific?.permissionDecision;
  if (decision === undefined && stdout !== "{}\n") found.push("an allow must be exactly {}");
  if (decision !== undefined && decision !== "deny") found.push(`permissionDecision ${String(decision)} runs the tool`);
  if (decision === "deny" && !specific?.permissionDecisionReason) found.push("a deny needs a non-empty reason");
  for (const k of ["continue", "stopReason", "suppressOutput", "decision"])
    if (k in value) found.push(`${k} fails the hook`);
  return found;
}

/** Codex payloads checked against Codex's own input schema; other agents publish none. */
export function payloadProblems(agent: string, event: string, payload: unknown): string[] {
  if (agent !== "codex") return [];
  const schema = codexSchema(event, "input");
  return schema ? validate(schema, payload) : [`no codex input schema for ${event}`];
}
