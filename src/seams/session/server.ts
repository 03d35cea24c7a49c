// The MCP server itself: the only module of the session face that loads the MCP SDK.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { CallToolRequestSchema, ListToolsRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import type { Context } from "../../ports/context.ts";
import { callTool } from "./call.ts";
import type { Answer, SessionDeps } from "./deps.ts";
import { TOOLS } from "./tools.ts";

/** A person has this long to answer the rewind question before it counts as no. */
const ASK_TIMEOUT_MS = 10 * 60_000;

interface SessionServerOptions {
  readonly ctx: Context;
  readonly terminal: () => boolean;
}

const INSTRUCTIONS =
  "memnox-session answers questions about this session from memnox's record: why something was refused or asked, what the session did, where the machine stands, and which rules cover an action. It cannot approve, trust, lift or change anything; those are a person's, at a terminal.";

export function createSessionServer(opts: SessionServerOptions): Server {
  const server = new Server(
    { name: "memnox-session", version: opts.ctx.version },
    { capabilities: { tools: {} }, instructions: INSTRUCTIONS },
  );
  const ask = async (message: string): Promise<Answer> => {
    const r = await server.elicitInput(
      {
        mode: "form",
        message,
        requestedSchema: {
          type: "object",
          properties: {
            rewind: { type: "boolean", title: "Rewind", description: "yes to rewind, no to keep the files" },
          },
          required: ["rewind"],
        },
      },
      { timeout: ASK_TIMEOUT_MS },
    );
    // A decline is the person's no; a cancel is the question dismissed, which nobody answered.
    if (r.action === "accept") return r.content?.rewind === true ? "yes" : "no";
    return r.action === "decline" ? "no" : "unanswered";
  };
  const deps = (): SessionDeps => ({
    ctx: opts.ctx,
    terminal: opts.terminal,
    ...(server.getClientCapabilities()?.elicitation?.form ? { ask: safely(ask) } : {}),
  });
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: TOOLS.map((t) => ({ ...t })) }));
  server.setRequestHandler(CallToolRequestSchema, async (req) => {
    const a = await callTool(deps(), req.params.name, req.params.arguments);
    return { content: [{ type: "text" as const, text: a.text }], ...(a.isError ? { isError: true } : {}) };
  });
  return server;
}

/** A question that fails (timed out, the client broke off or cannot ask) was not answered at all. */
function safely(ask: (message: string) => Promise<Answer>): (message: string) => Promise<Answer> {
  return async (message) => {
    try {
      return await ask(message);
    } catch {
      return "unanswered";
    }
  };
}

/** Serves until the agent closes the transport. */
export async function serveSession(
  opts: SessionServerOptions,
  transport: Transport = new StdioServerTransport(),
): Promise<number> {
  const server = createSessionServer(opts);
  const closed = new Promise<void>((resolve) => {
    server.onclose = () => resolve();
  });
  await server.connect(transport);
  await closed;
  return 0;
}
