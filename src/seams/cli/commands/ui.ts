// `memnox ui`: a page on this machine's loopback where a person sees what waits for them, the timeline and the rules
// in force, and answers held calls; until interrupted. Answering is loosening, so an agent's seat in enforce is refused
// before this runs (the CLI's seat guard, `memnox.ui` in LOOSENING).
import { MemnoxError } from "../../../core/errors.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

export const ui: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "ui",
      description:
        "a page on 127.0.0.1 to see and answer held calls, with the timeline and the rules in force; its address carries a token, printed here only",
    },
    args: {
      port: { type: "string", description: "the port on loopback (default 0: a free one)" },
      host: { type: "string", valueHint: "127.0.0.1|::1", description: "the loopback address to listen on" },
      open: { type: "boolean", description: "open the page in the default browser" },
      json: { type: "boolean", description: "print the address as JSON, then serve" },
    },
    async run({ args }) {
      const port = Number(args.port ?? "0");
      if (!Number.isInteger(port) || port < 0 || port > 65535)
        throw new MemnoxError("usage", "--port must be a whole number from 0 to 65535");
      const { serveUi } = await import("./_ui-server.ts");
      let server: ReturnType<typeof serveUi>;
      try {
        server = serveUi(ctx, { port, host: args.host ?? "127.0.0.1" });
      } catch (e) {
        if (e instanceof MemnoxError) throw e;
        throw new MemnoxError(
          "io",
          `could not listen on port ${port}: ${(e as Error).message}`,
          "pick another with --port",
        );
      }
      emit(ctx, args.json, { url: server.url, port: server.port }, () => [
        `memnox ui: ${server.url}`,
        "  open it in your browser; the address is the key, so keep it to yourself. Ctrl-C stops it.",
      ]);
      if (args.open === true)
        await ctx.proc.run([process.platform === "darwin" ? "open" : "xdg-open", server.url]).catch(() => undefined);
      await new Promise<void>((resolve) => {
        process.once("SIGINT", resolve);
        process.once("SIGTERM", resolve);
      });
      await server.stop();
      return 0;
    },
  });
