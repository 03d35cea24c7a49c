// `memnox memory viz`: the read-only dashboard on loopback, until interrupted. Opened on a read-only store.
import { MemnoxError } from "../../../../core/errors.ts";
import { memoryDir } from "../../../../memory/pages/dir.ts";
import { openStore } from "../../../../memory/pages/store.ts";
import { command } from "../../command.ts";
import { common, flag, integer, type MemoryCli, storeFlag } from "./_cli.ts";

export const vizCommand = (cli: MemoryCli) =>
  command({
    meta: {
      name: "viz",
      description: "a localhost-only, read-only dashboard: memories, search, health, sessions, token use",
    },
    args: {
      ...common,
      port: { type: "string", description: "the port on 127.0.0.1 (default 7171; 0 picks a free one)" },
      host: { type: "string", description: "a loopback address to listen on (default 127.0.0.1)" },
      open: { type: "boolean", description: "open the dashboard in the default browser" },
    },
    async run({ args }) {
      cli.ran = true;
      const port = integer(args, "port") ?? 7171;
      if (port < 0 || port > 65535) throw new MemnoxError("usage", "--port must be from 0 to 65535");
      const { ctx } = cli;
      const dir = memoryDir(ctx.env, ctx.paths, ctx.cwd, storeFlag(args) ?? cli.dir);
      const store = openStore({ dir, now: () => ctx.clock.now(), env: ctx.env, readonly: true });
      const { serveViz } = await import("../../../../memory/viz/server.ts");
      let viz: Awaited<ReturnType<typeof serveViz>>;
      try {
        viz = serveViz(store, { port, ...(flag(args, "host") ? { host: flag(args, "host") as string } : {}) });
      } catch (e) {
        store.close();
        if (e instanceof MemnoxError) throw e;
        throw new MemnoxError(
          "io",
          `could not listen on port ${port}: ${(e as Error).message}`,
          "pick another with --port",
        );
      }
      ctx.io.out(`memnox memory viz: ${viz.url} (read-only; Ctrl-C stops it)\n`);
      if (args.open === true)
        await ctx.proc.run([process.platform === "darwin" ? "open" : "xdg-open", viz.url]).catch(() => undefined);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await viz.stop();
      store.close();
      cli.code = 0;
      return 0;
    },
  });
