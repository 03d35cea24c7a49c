// The first keeper pass: an MCP server added after setup is put through the proxy, the way setup would have,
// and starts seven days of probation. Only where setup ran and nobody turned wrapping off (`mcp unwrap`).
import { basename } from "node:path";
import type { Context } from "../../ports/context.ts";
import { startProbation } from "../../state/probation.ts";
import { candidateFiles } from "../../wire/clients.ts";
import { readKept } from "../../wire/kept.ts";
import { type FileReport, wrapMcpServers } from "../../wire/mcp-wrap.ts";
import type { DaemonPass, PassContext } from "../passes.ts";

/** The daemon looks at the clients' files in the home directory; a project's own file is wrapped by its person. */
function wireContext(ctx: Context) {
  return { ...ctx, cwd: ctx.paths.home };
}

/** Only where setup ran (kept.json's `setupAt`) and nobody turned wrapping off; a kept.json it cannot read: nothing. */
function wrapsNewServers(ctx: Context): boolean {
  try {
    const kept = readKept(ctx.paths.kept);
    return kept !== undefined && kept.setupAt !== "" && kept.wrapNewMcpServers;
  } catch {
    return false;
  }
}

function adopt(pc: PassContext, file: FileReport): void {
  for (const o of file.servers) {
    if (o.status !== "wrapped") continue;
    const name = o.server.name;
    const how = o.server.command ? `started \`${basename(o.server.command)}\` directly` : "started directly";
    const probation = startProbation(pc.ctx.paths.probation, "server", name, pc.ctx.clock.now());
    pc.recordChange({
      operation: "mcp.wrap",
      file: file.file,
      before: `MCP server ${name} (${file.client}) ${how}, unseen by memnox`,
      after: `MCP server ${name} goes through memnox's proxy, on probation until ${probation.until.slice(0, 10)}`,
      reason: `new MCP server ${name} put through the proxy`,
    });
    pc.notice(
      "mcp-server",
      `New MCP server ${name} now goes through Memnox, so your rules apply to it. It asks before writes for 7 days (memnox mcp trust ${name}).`,
    );
  }
}

export const mcpServersPass: DaemonPass = {
  name: "mcp-servers",
  watched: (ctx) => candidateFiles({ home: ctx.paths.home, cwd: ctx.paths.home, env: ctx.env }).map((f) => f.path),
  async run(pc) {
    const ctx = pc.ctx;
    if (!wrapsNewServers(ctx)) return;
    const wctx = wireContext(ctx);
    // A dry look first: a pass that finds nothing new writes nothing, not even kept.json.
    const look = await wrapMcpServers(wctx, { dryRun: true });
    if (!look.files.some((f) => f.status === "would-change")) return;
    const done = await wrapMcpServers(wctx);
    for (const f of done.files) {
      if (f.status === "changed") adopt(pc, f);
      else if (f.status === "unparsable" || f.status === "refused")
        pc.log("mcp", `${f.file} was not changed: ${f.problem?.message ?? f.status}`);
    }
  },
};
