// A scripted Anthropic Messages endpoint on loopback: the model asks for one tool call, then says it is done.
import type { Server } from "bun";

export interface ToolUse {
  readonly name: string;
  readonly input: Record<string, unknown>;
}

export interface ScriptedModel extends AsyncDisposable {
  readonly url: string;
  /** Every /v1/messages body the client sent. */
  readonly requests: Record<string, unknown>[];
  /** The tool_result blocks the client sent back. */
  toolResults(): { tool_use_id: string; is_error?: boolean; content: unknown }[];
}

type Block =
  | { type: "tool_use"; id: string; name: string; input: Record<string, unknown> }
  | { type: "text"; text: string };

function sse(blocks: Block[], stop: "tool_use" | "end_turn"): string {
  const events: [string, unknown][] = [
    [
      "message_start",
      {
        type: "message_start",
        message: {
          id: `msg_${crypto.randomUUID().slice(0, 8)}`,
          type: "message",
          role: "assistant",
          model: "claude-scripted",
          content: [],
          stop_reason: null,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        },
      },
    ],
  ];
  blocks.forEach((b, index) => {
    if (b.type === "tool_use") {
      events.push(["content_block_start", { type: "content_block_start", index, content_block: { ...b, input: {} } }]);
      const delta = { type: "input_json_delta", partial_json: JSON.stringify(b.input) };
      events.push(["content_block_delta", { type: "content_block_delta", index, delta }]);
    } else {
      events.push([
        "content_block_start",
        { type: "content_block_start", index, content_block: { type: "text", text: "" } },
      ]);
      events.push([
        "content_block_delta",
        { type: "content_block_delta", index, delta: { type: "text_delta", text: b.text } },
      ]);
    }
    events.push(["content_block_stop", { type: "content_block_stop", index }]);
  });
  events.push([
    "message_delta",
    { type: "message_delta", delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } },
  ]);
  events.push(["message_stop", { type: "message_stop" }]);
  return events.map(([event, data]) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`).join("");
}

function hasToolResult(body: Record<string, unknown>): boolean {
  const messages = Array.isArray(body.messages) ? body.messages : [];
  const last = messages.at(-1) as { content?: unknown } | undefined;
  return Array.isArray(last?.content) && last.content.some((c: { type?: string }) => c?.type === "tool_result");
}

/** Answers a request that offers `tool.name` with that call, and everything else (including the follow-up) with text. */
export function scriptedModel(tool: ToolUse): ScriptedModel {
  const requests: Record<string, unknown>[] = [];
  const server: Server<undefined> = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const url = new URL(req.url);
      if (req.method !== "POST" || !url.pathname.startsWith("/v1/messages")) return new Response("{}", { status: 404 });
      const body = (await req.json()) as Record<string, unknown>;
      if (url.pathname !== "/v1/messages") return Response.json({ input_tokens: 1 });
      requests.push(body);
      const offered = Array.isArray(body.tools) && body.tools.some((t: { name?: string }) => t?.name === tool.name);
      const blocks: Block[] =
        offered && !hasToolResult(body)
          ? [{ type: "tool_use", id: `toolu_${requests.length}`, name: tool.name, input: tool.input }]
          : [{ type: "text", text: "done" }];
      const stop = blocks[0]?.type === "tool_use" ? "tool_use" : "end_turn";
      if (body.stream !== true) {
        return Response.json({
          id: "msg_plain",
          type: "message",
          role: "assistant",
          model: "claude-scripted",
          content: blocks,
          stop_reason: stop,
          stop_sequence: null,
          usage: { input_tokens: 1, output_tokens: 1 },
        });
      }
      return new Response(sse(blocks, stop), { headers: { "content-type": "text/event-stream" } });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    toolResults: () =>
      requests.flatMap((r) =>
        (Array.isArray(r.messages) ? r.messages : []).flatMap((m: { content?: unknown }) =>
          Array.isArray(m.content) ? m.content.filter((c: { type?: string }) => c?.type === "tool_result") : [],
        ),
      ),
    [Symbol.asyncDispose]: async () => {
      await server.stop(true);
    },
  };
}
