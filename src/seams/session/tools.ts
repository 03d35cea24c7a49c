// The five tools an agent may call, as tools/list shows them. Nothing here approves, trusts, lifts, changes the mode
// or edits a rule: an agent that could call such a tool would approve itself, so a test holds the list to these.

const READS = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false } as const;
const text = (description: string) => ({ type: "string", minLength: 1, maxLength: 4096, description }) as const;

export const TOOLS = [
  {
    name: "why",
    title: "Why memnox refused or asked",
    description:
      "Why memnox refused or asked about something in this session: the rule, its reason and source, and what to use instead. The latest refusal or ask unless an event id is given.",
    inputSchema: {
      type: "object",
      properties: { event: text("an event id or its prefix, as replay shows it") },
      additionalProperties: false,
    },
    annotations: READS,
  },
  {
    name: "status",
    title: "Where this machine stands",
    description: "Where this machine stands: the mode, what is held for a person, and what happened today.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: READS,
  },
  {
    name: "replay",
    title: "What this session did",
    description: "What this session did, step by step and newest last, with the verdict of every action.",
    inputSchema: {
      type: "object",
      properties: { session: text("another session's id or prefix; default: this session") },
      additionalProperties: false,
    },
    annotations: READS,
  },
  {
    name: "decisions",
    title: "Rules and decisions that cover an action or a path",
    description:
      "The rules and remembered decisions that cover an action, a path or a command line, and the verdict each would get. It evaluates and runs nothing, so it can be asked before trying.",
    inputSchema: {
      type: "object",
      properties: {
        action: text("an action name such as git.push-force, filesystem.delete or mcp.github.merge_pull_request"),
        path: text("a file or directory, absolute or relative to the project"),
        command: text("a shell command line, exactly as it would run"),
      },
      additionalProperties: false,
    },
    annotations: READS,
  },
  {
    name: "rewind",
    title: "Put the working tree back",
    description:
      "Put the working tree back to before the session changed it, or to a milestone. The person must approve it; the current files are kept first as a milestone, and the answer says how to undo it.",
    inputSchema: {
      type: "object",
      properties: {
        to: text("a milestone id (or prefix) from memnox rewind --list"),
        session: text("go back to before this session first changed anything"),
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
  },
] as const;

type ToolName = (typeof TOOLS)[number]["name"];

export function isToolName(name: string): name is ToolName {
  return TOOLS.some((t) => t.name === name);
}
