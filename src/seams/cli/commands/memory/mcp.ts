// `memnox memory serve-mcp`: the memory tools over stdio; the MCP SDK loads only here.
import type { ProjectRef } from "../../../../memory/format/project.ts";
import { projectFromCwd } from "../../../../memory/format/project.ts";
import { command } from "../../command.ts";
import { common, type MemoryCli, run } from "./_cli.ts";

export const serveMcpCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "serve-mcp",
      description:
        "an MCP server (stdio): memex_write, memex_recall, memex_consolidate, memex_forget, memex_provenance",
    },
    args: { ...common },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const { serve } = await import("../../../../memory/mcp.ts");
        let project: Promise<ProjectRef> | undefined;
        await serve({
          store,
          version: cli.ctx.version,
          currentProject: () => {
            project ??= projectFromCwd(cli.ctx.git, cli.ctx.cwd);
            return project;
          },
        });
        return 0;
      }),
  });
