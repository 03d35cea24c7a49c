// `memnox daemon [--install | --status | --uninstall]`: run it, hand it to the operating system, or ask after it.
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { startBackgroundDaemon, stopDaemon } from "../../../wire/daemon-background.ts";
import {
  daemonServiceStatus,
  installDaemonService,
  type ServiceStatus,
  uninstallDaemonService,
} from "../../../wire/daemon-service.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

const KNOWN = ["--install", "--background", "--status", "--uninstall", "--json"];

export const daemon: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "daemon",
      description: "hold the rules in one process, keep the boundary and run the egress proxy",
    },
    args: {
      install: { type: "boolean", description: "start it at login: a systemd user unit or a launchd agent" },
      background: {
        type: "boolean",
        description: "start it now in the background, where no service manager runs (pid file, log)",
      },
      status: { type: "boolean", description: "whether anything starts it, and whether it answers" },
      uninstall: { type: "boolean", description: "stop it and remove the service file" },
      json: { type: "boolean", description: "structured output" },
    },
    async run({ args, rawArgs }) {
      const unknown = rawArgs.find((a) => !KNOWN.includes(a.split("=")[0] ?? a));
      if (unknown !== undefined) {
        throw new MemnoxError("usage", `unknown argument \`${unknown}\` for memnox daemon`, "memnox help daemon");
      }
      const chosen = [args.install, args.background, args.status, args.uninstall].filter(Boolean).length;
      if (chosen > 1) throw new MemnoxError("usage", "choose one of --install, --background, --status, --uninstall");
      if (args.background) {
        const r = await startBackgroundDaemon(ctx);
        emit(ctx, args.json, r, () => [`daemon   ${r.words}`]);
        return r.status === "failed" ? 1 : 0;
      }
      if (args.install) {
        const report = await installDaemonService(ctx);
        const fallback = report.enabled
          ? []
          : [
              "nothing starts the daemon at login here; `memnox daemon --background` runs it now, and the first agent hook starts it again after a restart",
            ];
        emit(ctx, args.json, report, () => [...report.lines, ...fallback]);
        // Not enabled (or a unit systemd finds faults in) is not installed: a script must be able to tell.
        return report.enabled && report.verified !== "problems" ? 0 : 1;
      }
      if (args.uninstall) {
        const report = await uninstallDaemonService(ctx);
        const stopped = await stopDaemon(ctx);
        emit(ctx, args.json, { ...report, stopped: stopped.stopped ?? null }, () => [...report.lines, stopped.words]);
        return 0;
      }
      if (args.status) {
        const status = await daemonServiceStatus(ctx);
        emit(ctx, args.json, status, () => statusLines(ctx, status));
        return 0;
      }
      const { serve } = await import("../../../daemon/serve.ts");
      return serve(ctx);
    },
  });

function statusLines(ctx: Context, s: ServiceStatus): string[] {
  const d = s.daemon;
  const running = d
    ? `daemon   answers on ${ctx.paths.sock} (pid ${d.pid}, since ${d.startedAt})${d.egress ? `; egress proxy http://${d.egress.host}:${d.egress.port}` : ""}`
    : `daemon   not answering on ${ctx.paths.sock}: the seams decide in process on the same rules, and nothing keeps new agents under memnox; memnox daemon --background starts it`;
  const service =
    s.manager === "none"
      ? "service  no user service manager memnox knows here: memnox daemon --background runs it"
      : s.installed
        ? `service  ${s.file} (${s.manager}), ${s.enabled === "unknown" ? "the service manager did not answer, so it may never start it (memnox daemon --background runs it now)" : s.enabled}`
        : "service  not installed: nothing starts the daemon at login; memnox daemon --install, or memnox daemon --background where no service manager runs";
  return [service, running];
}
