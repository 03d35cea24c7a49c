// `memnox env --format sh|systemd|docker`: the environment `memnox run` gives an agent, for something else to start
// one (a unit file and an image read no shell profile). It prints; it edits nobody's file.
import { MemnoxError } from "../../../core/errors.ts";
import { shellQuote } from "../../../core/shell-quote.ts";
import { EGRESS_HOST, EGRESS_PORT } from "../../../daemon/egress/proxy.ts";
import { pingDaemon } from "../../../gate/remote/client.ts";
import type { Context } from "../../../ports/context.ts";
import { proxyUrl, readEgress } from "../../../state/egress.ts";
import { systemdWord } from "../../../wire/daemon-units.ts";
import { ensureLink } from "../../../wire/links.ts";
import { agentEnvironment } from "../../shared/agent-env.ts";
import { type CommandFactory, command } from "../command.ts";
import { printJson } from "../output.ts";

const FORMATS = ["sh", "systemd", "docker"] as const;
type Format = (typeof FORMATS)[number];

const sh = (k: string, v: string) => `export ${k}=${shellQuote(v)}`;
const systemd = (k: string, v: string) => `Environment=${systemdWord(`${k}=${v}`)}`;
// A Dockerfile's ENV: double quotes, and `$` kept literal rather than expanded at build time.
const docker = (k: string, v: string) => `ENV ${k}="${v.replace(/["\\$]/g, (c) => `\\${c}`)}"`;
const LINE: Record<Format, (k: string, v: string) => string> = { sh, systemd, docker };

/** Where the daemon's proxy answers; the address it would take when none does (said on stderr). */
async function egressAddress(ctx: Context): Promise<{ host: string; port: number; live: boolean }> {
  const ping = await pingDaemon(ctx.paths.sock);
  if (ping?.egress) return { ...ping.egress, live: true };
  const recorded = readEgress(ctx.paths);
  return { host: recorded?.host ?? EGRESS_HOST, port: recorded?.port ?? EGRESS_PORT, live: false };
}

export const env: CommandFactory = (ctx) =>
  command({
    meta: { name: "env", description: "the environment an agent needs when something else starts it" },
    args: {
      format: { type: "string", description: "sh (default), systemd (Environment= lines) or docker (ENV lines)" },
      agent: { type: "string", description: "the name its rows and rules use (MEMNOX_AGENT_NAME)" },
      json: { type: "boolean", description: "the variables as one JSON object" },
    },
    async run({ args }) {
      const format = (args.format ?? "sh") as Format;
      if (!FORMATS.includes(format)) {
        throw new MemnoxError("usage", `unknown format \`${args.format}\``, `one of ${FORMATS.join(", ")}`);
      }
      const egress = await egressAddress(ctx);
      if (!egress.live) {
        ctx.io.err(
          `memnox: no daemon answers, so nothing listens at ${egress.host}:${egress.port} yet; memnox daemon --background starts one now\n`,
        );
      }
      // SHELL names the governed shell's link, so the link must exist for whatever starts the agent.
      for (const name of ["memnox-bash", "memnox-zsh", "memnox-shell"]) ensureLink(ctx, ctx.paths.bin, name);
      const vars = agentEnvironment(ctx, {
        ...(args.agent ? { agent: args.agent } : {}),
        egress: proxyUrl(egress),
      });
      if (args.json) printJson(ctx, vars);
      else
        ctx.io.out(
          `${Object.entries(vars)
            .map(([k, v]) => LINE[format](k, v))
            .join("\n")}\n`,
        );
      return 0;
    },
  });
