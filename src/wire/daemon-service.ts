// `memnox daemon --install/--status/--uninstall`: the daemon as a user service that starts at login. Setup and
// uninstall call installDaemonService/uninstallDaemonService. Where no service manager answers (a container, CI)
// the file is still written, and the report says it could not be enabled.
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { pingDaemon } from "../gate/remote/client.ts";
import type { PingReply } from "../gate/remote/protocol.ts";
import { writeFileAtomic } from "../io/files.ts";
import type { Context } from "../ports/context.ts";
import { missingDirs, noteCreatedDirs, removeCreatedDirs } from "./created.ts";
import {
  AGENT_LABEL,
  launchdPlist,
  type Manager,
  managerFor,
  serviceEnvironment,
  serviceFile,
  systemdUnit,
  UNIT_NAME,
} from "./daemon-units.ts";
import { linkTarget } from "./links.ts";

type ServiceContext = Pick<Context, "paths" | "env" | "proc" | "selfArgv">;

interface ServiceReport {
  readonly manager: Manager | "none";
  readonly file?: string;
  /** The file was written (or removed) by this call; false when it already said exactly this. */
  readonly changed: boolean;
  /** `systemd-analyze verify --user` on the unit: `ok`, the problems it named, or not available here. */
  readonly verified: "ok" | "problems" | "unavailable";
  readonly problems?: string;
  /** Whether the service manager now starts it at login (install) or no longer does (uninstall). */
  readonly enabled: boolean;
  /** One line per thing done or not done, in words. */
  readonly lines: readonly string[];
}

export interface ServiceStatus {
  readonly manager: Manager | "none";
  readonly file?: string;
  readonly installed: boolean;
  /** What the manager says: `enabled`, `disabled`, or `unknown` when it does not answer. */
  readonly enabled: "enabled" | "disabled" | "unknown";
  /** The running daemon's ping, when one answers on the socket. */
  readonly daemon?: PingReply;
}

interface Ran {
  readonly ok: boolean;
  readonly text: string;
}

async function run(ctx: ServiceContext, argv: readonly string[], env?: Record<string, string>): Promise<Ran> {
  if (!Bun.which(argv[0] ?? "", { PATH: ctx.env.PATH ?? "" }))
    return { ok: false, text: `${argv[0]} is not installed` };
  try {
    const r = await ctx.proc.run(argv, { env: { ...ctx.env, ...env } });
    const out = `${r.stderr}\n${new TextDecoder().decode(r.stdout)}`.trim();
    return { ok: r.code === 0, text: out.split("\n").find((l) => l.trim()) ?? `exit ${r.code}` };
  } catch (e) {
    return { ok: false, text: (e as Error).message };
  }
}

function uid(): number {
  return process.getuid?.() ?? 0;
}

function render(ctx: ServiceContext, manager: Manager): string {
  const argv = linkTarget(ctx);
  const env = serviceEnvironment(ctx.env);
  return manager === "systemd"
    ? systemdUnit(argv, env)
    : launchdPlist(argv, env, join(ctx.paths.root, "daemon.stderr.log"));
}

/** systemd-analyze needs a runtime directory even to read a file; a private one stands in where none is set. */
async function verifyUnit(ctx: ServiceContext, file: string): Promise<Pick<ServiceReport, "verified" | "problems">> {
  if (!Bun.which("systemd-analyze", { PATH: ctx.env.PATH ?? "" })) return { verified: "unavailable" };
  const runtime = ctx.env.XDG_RUNTIME_DIR || mkdtempSync(join(tmpdir(), "memnox-verify-"));
  try {
    const r = await ctx.proc.run(["systemd-analyze", "verify", "--user", file], {
      env: { ...ctx.env, XDG_RUNTIME_DIR: runtime },
    });
    const said = r.stderr.trim();
    if (r.code === 0 && !said) return { verified: "ok" };
    if (/RuntimeDirectory|initialize manager/i.test(said)) return { verified: "unavailable" };
    return { verified: "problems", problems: said || `exit ${r.code}` };
  } finally {
    if (!ctx.env.XDG_RUNTIME_DIR) rmSync(runtime, { recursive: true, force: true });
  }
}

async function enable(ctx: ServiceContext, manager: Manager, file: string): Promise<Ran> {
  if (manager === "systemd") {
    const reload = await run(ctx, ["systemctl", "--user", "daemon-reload"]);
    if (!reload.ok) return reload;
    return run(ctx, ["systemctl", "--user", "enable", "--now", UNIT_NAME]);
  }
  await run(ctx, ["launchctl", "bootout", `gui/${uid()}/${AGENT_LABEL}`]);
  return run(ctx, ["launchctl", "bootstrap", `gui/${uid()}`, file]);
}

export async function installDaemonService(
  ctx: ServiceContext,
  platform: NodeJS.Platform = process.platform,
): Promise<ServiceReport> {
  const manager = managerFor(platform);
  if (!manager) {
    return {
      manager: "none",
      changed: false,
      verified: "unavailable",
      enabled: false,
      lines: [`no user service manager memnox knows on ${platform}`],
    };
  }
  const file = serviceFile(manager, ctx.paths.home, ctx.env);
  const text = render(ctx, manager);
  const before = existsSync(file) ? readFileSync(file, "utf8") : undefined;
  const changed = before !== text;
  if (changed) {
    noteCreatedDirs(ctx.paths, missingDirs(dirname(file), ctx.paths.home));
    writeFileAtomic(file, text, 0o644);
  }
  const lines = [`${changed ? "wrote" : "kept"} ${file}`];
  const check = manager === "systemd" ? await verifyUnit(ctx, file) : { verified: "unavailable" as const };
  if (check.verified === "problems") {
    lines.push(`systemd-analyze verify found problems, so it was not enabled: ${check.problems}`);
    return { manager, file, changed, ...check, enabled: false, lines };
  }
  if (check.verified === "ok") lines.push("systemd-analyze verify --user: no problems");
  const on = await enable(ctx, manager, file);
  const how =
    manager === "systemd" ? `systemctl --user enable --now ${UNIT_NAME}` : `launchctl bootstrap gui/${uid()} ${file}`;
  lines.push(
    on.ok
      ? `enabled: the daemon starts at login and runs now`
      : `could not be enabled (${on.text}); the file is in place, and \`${how}\` enables it once a user service manager runs`,
  );
  return { manager, file, changed, ...check, enabled: on.ok, lines };
}

export async function uninstallDaemonService(
  ctx: ServiceContext,
  platform: NodeJS.Platform = process.platform,
): Promise<ServiceReport> {
  const manager = managerFor(platform);
  if (!manager) return { manager: "none", changed: false, verified: "unavailable", enabled: false, lines: [] };
  const file = serviceFile(manager, ctx.paths.home, ctx.env);
  const lines: string[] = [];
  const existed = existsSync(file);
  // No file: nothing was installed, and a service manager asked about it would only say so at length.
  if (existed) {
    const off =
      manager === "systemd"
        ? await run(ctx, ["systemctl", "--user", "disable", "--now", UNIT_NAME])
        : await run(ctx, ["launchctl", "bootout", `gui/${uid()}/${AGENT_LABEL}`]);
    lines.push(off.ok ? "stopped and disabled" : `the service manager did not answer (${off.text})`);
    rmSync(file, { force: true });
    lines.push(`removed ${file}`);
    if (manager === "systemd") await run(ctx, ["systemctl", "--user", "daemon-reload"]);
  }
  removeCreatedDirs(ctx.paths);
  return { manager, file, changed: existed, verified: "unavailable", enabled: false, lines };
}

export async function daemonServiceStatus(
  ctx: ServiceContext,
  platform: NodeJS.Platform = process.platform,
): Promise<ServiceStatus> {
  const daemon = await pingDaemon(ctx.paths.sock);
  const manager = managerFor(platform);
  const answering = daemon ? { daemon } : {};
  if (!manager) return { manager: "none", installed: false, enabled: "unknown", ...answering };
  const file = serviceFile(manager, ctx.paths.home, ctx.env);
  const installed = existsSync(file);
  const asked =
    manager === "systemd"
      ? await run(ctx, ["systemctl", "--user", "is-enabled", UNIT_NAME])
      : await run(ctx, ["launchctl", "print", `gui/${uid()}/${AGENT_LABEL}`]);
  const said = asked.text.trim();
  const enabled =
    manager === "systemd"
      ? said === "enabled"
        ? "enabled"
        : /^(disabled|masked|static|not-found)/.test(said)
          ? "disabled"
          : "unknown"
      : asked.ok
        ? "enabled"
        : "unknown";
  return { manager, file, installed, enabled, ...answering };
}

/** After an upgrade: a service already installed is restarted so the daemon runs the new binary; none is left alone. */
export async function restartDaemonService(
  ctx: ServiceContext,
  platform: NodeJS.Platform = process.platform,
): Promise<string | undefined> {
  const manager = managerFor(platform);
  if (!manager || !existsSync(serviceFile(manager, ctx.paths.home, ctx.env))) return undefined;
  const r =
    manager === "systemd"
      ? await run(ctx, ["systemctl", "--user", "try-restart", UNIT_NAME])
      : await run(ctx, ["launchctl", "kickstart", "-k", `gui/${uid()}/${AGENT_LABEL}`]);
  return r.ok ? "the daemon restarted on the new binary" : `the daemon was not restarted (${r.text})`;
}
