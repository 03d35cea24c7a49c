// `memnox watch`: what the daemon does and finds, as it happens, until interrupted.
import { parseDuration } from "../../../core/duration.ts";
import { pingDaemon } from "../../../gate/remote/client.ts";
import { type CommandFactory, command } from "../command.ts";

export const watchCommand: CommandFactory = (ctx) =>
  command({
    meta: { name: "watch", description: "report what arrives: what the daemon changes and finds, as it happens" },
    args: {
      interval: {
        type: "string",
        default: "5s",
        description: "look at least this often (a backstop: it wakes on change)",
      },
      json: { type: "boolean", description: "one JSON object per line" },
    },
    async run({ args }) {
      const intervalMs = parseDuration(args.interval);
      const ping = await pingDaemon(ctx.paths.sock);
      const header = ping
        ? `memnox: watching; the daemon (pid ${ping.pid}) keeps this machine. Ctrl-C stops.\n`
        : "memnox: watching, but no daemon answers: nothing notices changes until one runs (memnox daemon --background starts one). Ctrl-C stops.\n";
      ctx.io.err(header);
      const stop = new AbortController();
      const end = () => stop.abort();
      process.once("SIGINT", end);
      process.once("SIGTERM", end);
      const { followDaemon, watchLine } = await import("../../../daemon/watch.ts");
      await followDaemon({
        paths: ctx.paths,
        intervalMs,
        signal: stop.signal,
        onEvent: (e) => ctx.io.out(`${args.json ? JSON.stringify(e) : watchLine(e)}\n`),
      });
      process.off("SIGINT", end);
      process.off("SIGTERM", end);
      return 0;
    },
  });
