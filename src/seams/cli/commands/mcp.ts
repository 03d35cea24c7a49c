// `memnox mcp wrap|unwrap|trust|session`: MCP servers through the proxy. (`mcp proxy` is routed to its face
// before the CLI sees it.)
import { MemnoxError } from "../../../core/errors.ts";
import { CLIENT_IDS, type ClientId, isClientId } from "../../../wire/clients.ts";
import { unwrapMcpServers, wrapMcpServers } from "../../../wire/mcp-wrap.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { exitCodeOf, renderMcpReport } from "./_mcp-report.ts";
import { sessionCommand, trustCommand } from "./mcp/session.ts";

function clientsArg(value: string | undefined): readonly ClientId[] | undefined {
  if (!value) return undefined;
  const ids = value.split(",").map((s) => s.trim());
  const bad = ids.find((id) => !isClientId(id));
  if (bad !== undefined) {
    throw new MemnoxError("usage", `unknown client \`${bad}\``, `one of ${CLIENT_IDS.join(", ")}`);
  }
  return ids as ClientId[];
}

const CLIENT_FLAG = {
  type: "string",
  valueHint: "client,…",
  description: `only these clients (${CLIENT_IDS.join(", ")})`,
} as const;

export const mcp: CommandFactory = (ctx) => {
  // citty drops a subcommand's return value, so the subcommand leaves its exit code here for the parent's run.
  const state = { code: 0, ran: false };
  const done = (code: number) => {
    state.code = code;
    state.ran = true;
    return code;
  };
  return command({
    meta: { name: "mcp", description: "MCP servers through the proxy, and the session tools" },
    subCommands: {
      wrap: command({
        meta: { name: "wrap", description: "repoint every stdio MCP server at the proxy, keeping a backup" },
        args: {
          json: { type: "boolean", description: "structured output" },
          "dry-run": { type: "boolean", description: "say what would change and write nothing" },
          client: CLIENT_FLAG,
        },
        async run({ args }) {
          const clients = clientsArg(args.client);
          const r = await wrapMcpServers(ctx, { dryRun: args["dry-run"] === true, ...(clients ? { clients } : {}) });
          emit(ctx, args.json, r, () => renderMcpReport(r, ctx.paths.home));
          return done(exitCodeOf(r));
        },
      }),
      unwrap: command({
        meta: { name: "unwrap", description: "put every wrapped server back, byte for byte where nothing changed" },
        args: { json: { type: "boolean", description: "structured output" }, client: CLIENT_FLAG },
        async run({ args }) {
          const clients = clientsArg(args.client);
          const r = await unwrapMcpServers(ctx, clients ? { clients } : {});
          emit(ctx, args.json, r, () => renderMcpReport(r, ctx.paths.home));
          return done(exitCodeOf(r));
        },
      }),
      trust: trustCommand(ctx),
      session: sessionCommand(ctx),
    },
    run() {
      if (!state.ran) ctx.io.out("memnox mcp <command>: memnox help mcp lists them\n");
      return state.code;
    },
  });
};
