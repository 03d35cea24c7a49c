// The files that hand the daemon to the operating system: a systemd user unit on Linux, a launchd agent on macOS.
import { join } from "node:path";
import type { Env } from "../ports/index.ts";

export const UNIT_NAME = "memnox.service";
export const AGENT_LABEL = "com.memnox.daemon";

export type Manager = "systemd" | "launchd";

export function managerFor(platform: NodeJS.Platform): Manager | undefined {
  if (platform === "linux") return "systemd";
  if (platform === "darwin") return "launchd";
  return undefined;
}

export function serviceFile(manager: Manager, home: string, env: Env): string {
  if (manager === "launchd") return join(home, "Library", "LaunchAgents", `${AGENT_LABEL}.plist`);
  return join(env.XDG_CONFIG_HOME || join(home, ".config"), "systemd", "user", UNIT_NAME);
}

/** What the service's process gets beyond what its manager gives: only where memnox keeps its files, if moved. */
export function serviceEnvironment(env: Env): Record<string, string> {
  return env.MEMNOX_HOME ? { MEMNOX_HOME: env.MEMNOX_HOME } : {};
}

/** systemd's quoting: double quotes with C escapes, and `%` doubled so no specifier expands. */
export function systemdWord(s: string): string {
  const escaped = s.replaceAll("\\", "\\\\").replaceAll('"', '\\"').replaceAll("%", "%%");
  return /^[\w@+=:,./-]+$/.test(s) ? escaped : `"${escaped}"`;
}

export function systemdUnit(argv: readonly string[], env: Record<string, string>): string {
  const environment = Object.entries(env).map(([k, v]) => `Environment=${systemdWord(`${k}=${v}`)}\n`);
  return [
    "# Written by `memnox daemon --install`; `memnox daemon --uninstall` removes it.\n",
    "[Unit]\n",
    "Description=memnox daemon: holds the rules, keeps the boundary, runs the egress proxy\n",
    "Documentation=https://docs.memnox.com/reference/runtime-api\n",
    "\n",
    "[Service]\n",
    "Type=simple\n",
    `ExecStart=${[...argv, "daemon"].map(systemdWord).join(" ")}\n`,
    ...environment,
    "Restart=on-failure\n",
    "RestartSec=2\n",
    "\n",
    "[Install]\n",
    "WantedBy=default.target\n",
  ].join("");
}

function xml(s: string): string {
  return s.replaceAll("&", "&amp;").replaceAll("<", "&lt;").replaceAll(">", "&gt;").replaceAll('"', "&quot;");
}

export function launchdPlist(argv: readonly string[], env: Record<string, string>, stderrLog: string): string {
  const args = [...argv, "daemon"].map((a) => `    <string>${xml(a)}</string>\n`).join("");
  const vars = Object.entries(env)
    .map(([k, v]) => `    <key>${xml(k)}</key>\n    <string>${xml(v)}</string>\n`)
    .join("");
  return [
    '<?xml version="1.0" encoding="UTF-8"?>\n',
    '<!DOCTYPE plist PUBLIC "-//Apple//DTD PLIST 1.0//EN" "http://www.apple.com/DTDs/PropertyList-1.0.dtd">\n',
    '<plist version="1.0">\n<dict>\n',
    `  <key>Label</key>\n  <string>${AGENT_LABEL}</string>\n`,
    `  <key>ProgramArguments</key>\n  <array>\n${args}  </array>\n`,
    vars ? `  <key>EnvironmentVariables</key>\n  <dict>\n${vars}  </dict>\n` : "",
    "  <key>RunAtLoad</key>\n  <true/>\n",
    "  <key>KeepAlive</key>\n  <dict>\n    <key>SuccessfulExit</key>\n    <false/>\n  </dict>\n",
    `  <key>StandardErrorPath</key>\n  <string>${xml(stderrLog)}</string>\n`,
    "</dict>\n</plist>\n",
  ].join("");
}
