// A scripted Messages API on loopback: the real Claude Code CLI talks to it instead of a model, and every request
// it sent can be read back (the tool_result the model received, the system prompt, the context hooks added).

/**
 * One model turn: call a tool, or answer with text. A function sees the request it answers; `before` runs first (a
 * person answering a held call at their terminal between two of the agent's attempts).
 */
export type Turn = (
  | { readonly toolUse: { readonly name: string; readonly input: Readonly<Record<string, unknown>> } }
  | { readonly text: string | ((req: ModelRequest) => string) }
) & { readonly before?: (req: ModelRequest) => Promise<void> };

export interface ContentBlock {
  readonly type: string;
  readonly text?: string;
  readonly content?: unknown;
  readonly is_error?: boolean;
  readonly tool_use_id?: string;
  readonly name?: string;
  readonly input?: unknown;
}

export interface ModelMessage {
  readonly role: string;
  readonly content: string | readonly ContentBlock[];
}

export interface ModelRequest {
  readonly path: string;
  readonly model?: string;
  readonly system?: string | readonly ContentBlock[];
  readonly messages: readonly ModelMessage[];
  readonly tools: readonly { readonly name: string }[];
  readonly stream?: boolean;
}

export interface ToolResult {
  readonly toolUseId: string;
  readonly text: string;
  readonly isError: boolean;
}

export interface ScriptedModel extends AsyncDisposable {
  readonly url: string;
  /** Every request, in arrival order, side requests (titles, token counts) included. */
  readonly requests: readonly ModelRequest[];
  /** Requests of the conversation itself: the ones that offer tools. */
  conversation(): ModelRequest[];
  /** Every tool_result the model was sent, deduplicated by tool_use_id. */
  toolResults(): ToolResult[];
  /** All text the model could read in a request: system blocks and every message, joined. */
  visibleText(req: ModelRequest): string;
}

/** Serves `turns` in order to the conversation: turn n answers the request that carries n assistant messages. */
export function scriptedModel(turns: readonly Turn[]): ScriptedModel {
  const requests: ModelRequest[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = parseBody(await req.text());
      const recorded: ModelRequest = { ...body, path };
      requests.push(recorded);
      if (path.endsWith("/count_tokens")) return Response.json({ input_tokens: 10 });
      if (!path.endsWith("/v1/messages")) return new Response("not found", { status: 404 });
      const turn: Turn = recorded.tools.length > 0 ? pickTurn(turns, recorded) : { text: "ok" };
      await turn.before?.(recorded);
      return answer(turn, recorded);
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  const conversation = () => requests.filter((r) => r.tools.length > 0);
  return {
    url,
    requests,
    conversation,
    toolResults: () => {
      const seen = new Map<string, ToolResult>();
      for (const r of conversation()) for (const t of resultsIn(r)) seen.set(t.toolUseId, t);
      return [...seen.values()];
    },
    visibleText,
    [Symbol.asyncDispose]: async () => {
      await server.stop(true);
    },
  };
}

function parseBody(text: string): Omit<ModelRequest, "path"> {
  const raw: unknown = text ? JSON.parse(text) : {};
  const o = (typeof raw === "object" && raw !== null ? raw : {}) as Record<string, unknown>;
  return {
    messages: Array.isArray(o.messages) ? (o.messages as ModelMessage[]) : [],
    tools: Array.isArray(o.tools) ? (o.tools as { name: string }[]) : [],
    ...(typeof o.model === "string" ? { model: o.model } : {}),
    ...(typeof o.system === "string" || Array.isArray(o.system) ? { system: o.system as string | ContentBlock[] } : {}),
    ...(typeof o.stream === "boolean" ? { stream: o.stream } : {}),
  };
}

function pickTurn(turns: readonly Turn[], req: ModelRequest): Turn {
  const n = req.messages.filter((m) => m.role === "assistant").length;
  return turns[n] ?? { text: "done" };
}

function resultsIn(req: ModelRequest): ToolResult[] {
  const out: ToolResult[] = [];
  for (const m of req.messages) {
    if (typeof m.content === "string") continue;
    for (const b of m.content) {
      if (b.type !== "tool_result" || !b.tool_use_id) continue;
      out.push({ toolUseId: b.tool_use_id, text: blockText(b.content), isError: b.is_error === true });
    }
  }
  return out;
}

function blockText(content: unknown): string {
  if (typeof content === "string") return content;
  if (Array.isArray(content)) {
    return content.map((c) => (typeof c === "object" && c && "text" in c ? String(c.text) : "")).join("\n");
  }
  return "";
}

function visibleText(req: ModelRequest): string {
  const parts: string[] = [];
  if (typeof req.system === "string") parts.push(req.system);
  else for (const b of req.system ?? []) parts.push(b.text ?? "");
  for (const m of req.messages) {
    if (typeof m.content === "string") parts.push(m.content);
    else for (const b of m.content) parts.push(b.text ?? blockText(b.content));
  }
  return parts.join("\n");
}

let ids = 0;

/** The Messages API streaming events, exactly the sequence the CLI expects. */
function answer(turn: Turn, req: ModelRequest): Response {
  ids += 1;
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: `msg_scripted_${ids}`,
          type: "message",
          role: "assistant",
          model: req.model ?? "claude-scripted",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 10, output_tokens: 1 },
        },
      },
    ],
  ];
  let stop: string;
  if ("toolUse" in turn) {
    const id = `toolu_scripted_${ids}`;
    events.push(
      [
        "content_block_start",
        {
          type: "content_block_start",
          index: 0,
          content_block: { type: "tool_use", id, name: turn.toolUse.name, input: {} },
        },
      ],
      [
        "content_block_delta",
        {
          type: "content_block_delta",
          index: 0,
          delta: { type: "input_json_delta", partial_json: JSON.stringify(turn.toolUse.input) },
        },
      ],
    );
    stop = "tool_use";
  } else {
    const text = typeof turn.text === "function" ? turn.text(req) : turn.text;
    events.push(
      ["content_block_start", { type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }],
      ["content_block_delta", { type: "content_block_delta", index: 0, delta: { type: "text_delta", text } }],
    );
    stop = "end_turn";
  }
  events.push(
    ["content_block_stop", { type: "content_block_stop", index: 0 }],
    [
      "message_delta",
      { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 5 } },
    ],
    ["message_stop", { type: "message_stop" }],
  );
  if (req.stream === false) return Response.json(asMessage(turn, req, stop));
  const body = events.map(([name, data]) => `event: ${name}\ndata: ${JSON.stringify(data)}\n\n`).join("");
  return new Response(body, { headers: { "content-type": "text/event-stream", "cache-control": "no-cache" } });
}

/** The same turn as a non-streaming message, for the few side requests that do not stream. */
function asMessage(turn: Turn, req: ModelRequest, stop: string): unknown {
  const content =
    "toolUse" in turn
      ? [{ type: "tool_use", id: `toolu_scripted_${ids}`, name: turn.toolUse.name, input: turn.toolUse.input }]
      : [{ type: "text", text: typeof turn.text === "function" ? turn.text(req) : turn.text }];
  return {
    id: `msg_scripted_${ids}`,
    type: "message",
    role: "assistant",
    model: req.model ?? "claude-scripted",
    content,
    stop_reason: stop,
    stop_sequence: null,
    usage: { input_tokens: 10, output_tokens: 5 },
  };
}
