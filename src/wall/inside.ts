// Inside a wall: the variable `memnox run` sets for what it starts (the session's wall file), and what the agent is
// told about it. The variable only ever makes a seam stricter; the kernel holds the wall whatever it says.

import { WALL_VAR } from "../core/wall.ts";
import type { AgentWallFile } from "./agent.ts";
import { shown } from "./description.ts";
import { readSessionWall, type SessionWall } from "./files.ts";

export { WALL_VAR };

export function insideWall(env: Readonly<Record<string, string | undefined>>): boolean {
  return Boolean(env[WALL_VAR]);
}

/** This process's wall, when it runs inside one whose file is still there. */
export function currentWall(env: Readonly<Record<string, string | undefined>>): SessionWall | undefined {
  const file = env[WALL_VAR];
  if (!file) return undefined;
  try {
    return readSessionWall(file);
  } catch {
    return undefined;
  }
}

/** The boundary block's line: what the agent cannot reach from inside, held parts only. */
export function wallLine(s: SessionWall): string {
  const held = new Set(s.claims.filter((c) => c.held).map((c) => c.part));
  const w = s.wall;
  const parts: string[] = [];
  if (held.has("read")) {
    const some = w.unreadable.slice(0, 3).map((u) => shown(w, u.path));
    parts.push(`it cannot read credentials or home dotfiles (${some.join(", ")}, ...)`);
  }
  if (held.has("write") && w.writable) {
    parts.push(`it can write only ${w.writable.map((x) => shown(w, x.path)).join(", ")}`);
  }
  if (held.has("tcp") && w.hosts) {
    parts.push(
      `its network goes only through the egress proxy ${w.hosts.proxy}, where a host other than a package registry or its model provider waits for a person`,
    );
  }
  const what = parts.length > 0 ? `: ${parts.join("; ")}` : "";
  return `Kernel wall: this session runs inside a wall the kernel holds${what}. Inside it a shell command that would ask is refused with its reason; a person can run it outside the wall.`;
}

/** The boundary block's line for an agent whose shell commands run inside the machine's agent wall. */
export function agentWallLine(file: AgentWallFile): string {
  const w = file.wall;
  const named = (list: readonly { path: string }[]) =>
    list
      .slice(0, 4)
      .map((u) => shown(w, u.path))
      .join(", ");
  const held = new Set(file.claims.filter((c) => c.held).map((c) => c.part));
  const covered = held.has("named")
    ? ` Files the rules deny reading by name (${(w.names?.globs ?? []).map((g) => g.glob).join(", ")}) open as "No such device or address", for every program here, the project's own included: a program that needs their values runs in the person's terminal.`
    : "";
  const servers = held.has("servers")
    ? " Servers outside the wall (systemd's user bus, tmux, screen, docker, the display) are not reachable from here."
    : "";
  return `Kernel wall: every shell command here runs inside a wall the kernel holds: credentials cannot be read (${named(w.unreadable)}, ...) and memnox's files, every agent's settings, hooks and skills, shell start-up files and other places whose content runs later cannot be written (${named(w.unwritable)}, ...). A command that needs one fails with "Permission denied"; a person does that from their own terminal.${covered}${servers}`;
}
