// What a kernel holds of a wall, part by part, in the words the start screen, doctor and the boundary block use.
// Nothing is claimed that the kernel's own rules do not enforce: a part the kernel cannot hold says "not held".
// Pure: the kernel arrives probed.

import { FS } from "./abi.ts";
import { shown, type Wall } from "./description.ts";
import type { LandlockPlan } from "./landlock.ts";

export type Kernel =
  /** `namespaces`: a command can be given a mount namespace of its own (unprivileged user namespaces work here). */
  | { readonly kind: "landlock"; readonly abi: number; readonly namespaces?: boolean }
  | { readonly kind: "seatbelt" }
  | { readonly kind: "none"; readonly why: string };

/** Each part a test can attempt: `held` claims the kernel refuses it; not held claims it goes through. */
type Part =
  | "read"
  | "write"
  | "kept"
  | "git"
  | "truncate"
  | "tcp"
  | "bind"
  | "udp"
  | "unix"
  | "scope"
  | "ioctl"
  | "servers"
  | "named";

export interface Claim {
  readonly part: Part;
  readonly held: boolean;
  readonly text: string;
}

/** Whether this kernel can hold a wall at all: without it an untrusted run does not start (unless --no-guard). */
export function canHold(kernel: Kernel): boolean {
  return kernel.kind === "seatbelt" || (kernel.kind === "landlock" && kernel.abi >= 1);
}

export function kernelName(kernel: Kernel): string {
  if (kernel.kind === "landlock") return `Landlock ABI ${kernel.abi}`;
  if (kernel.kind === "seatbelt") return "seatbelt";
  return `no kernel wall (${kernel.why})`;
}

function list(wall: Wall, paths: readonly { path: string }[], named = 4): string {
  const names = paths.slice(0, named).map((p) => shown(wall, p.path));
  const rest = paths.length - names.length;
  return rest > 0 ? `${names.join(", ")} and ${rest} more` : names.join(", ");
}

function readText(wall: Wall): string {
  return `reading: ${wall.unreadable.length} credential and dotfile paths cannot be read (${list(wall, wall.unreadable)})`;
}

function writeText(wall: Wall): string {
  const groups = new Map<string, string[]>();
  for (const w of wall.writable ?? []) groups.set(w.why, [...(groups.get(w.why) ?? []), shown(wall, w.path)]);
  const parts = [...groups].map(([why, paths]) => `${why} (${paths.join(", ")})`);
  const last = parts.pop();
  const roots = parts.length > 0 ? `${parts.join(", ")} and ${last}` : (last ?? "nowhere");
  const n = wall.unwritable.length;
  const kept = n > 0 ? `; ${list(wall, wall.unwritable, 3)} ${n === 1 ? "stays" : "stay"} unwritable` : "";
  return `writing: only ${roots}${kept}`;
}

const abiNeeds = (abi: number, needs: number, linux: string) =>
  `Landlock ABI ${abi} lacks it; ABI ${needs} (Linux ${linux}) has it`;

/**
 * The agent's own state holds memnox's hook: writable from inside on every kernel, put back by the keeper. And the
 * repository's git directory is the repository's: git writes it on every commit, so its hooks and config are too.
 */
function keptClaim(wall: Wall): Claim[] {
  const repo = wall.writable?.find((w) => w.why === "the repository");
  const git: Claim[] = repo
    ? [
        {
          part: "git",
          held: false,
          text: `${shown(wall, repo.path)}/.git, its hooks and config included: writable, as the repository is; what a session leaves there runs when git next runs outside the wall`,
        },
      ]
    : [];
  if (!wall.kept?.length) return git;
  return [
    ...git,
    {
      part: "kept",
      held: false,
      text: `${list(wall, wall.kept, 3)}: writable from inside, as the agent's own state is; memnox's keeper puts back a hook or MCP entry the session takes out`,
    },
  ];
}

function serversClaim(wall: Wall, namespaces: boolean): Claim {
  const names = [...new Set((wall.servers?.paths ?? []).map((p) => p.why.replace(/ \(.*$/, "")))].join(", ");
  return namespaces
    ? {
        part: "servers",
        held: true,
        text: `servers outside the wall that run what they are sent (${names}): each command runs where their sockets are not`,
      }
    : {
        part: "servers",
        held: false,
        text: `servers outside the wall that run what they are sent (${names}): this system gives a command no mount namespace of its own (unprivileged user namespaces are off, or perl is missing)`,
      };
}

function namedClaim(wall: Wall, namespaces: boolean): Claim {
  const globs = (wall.names?.globs ?? []).map((g) => g.glob).join(", ");
  return namespaces
    ? {
        part: "named",
        held: true,
        text: `files the rules deny reading by name (${globs}): covered in each command, where found untracked in a checkout memnox knows or a session started in`,
      }
    : {
        part: "named",
        held: false,
        text: `files the rules deny reading by name (${globs}): left to the rules, as this system gives a command no mount namespace of its own`,
      };
}

function landlockClaims(wall: Wall, abi: number, namespaces = false): Claim[] {
  const out: Claim[] = [{ part: "read", held: abi >= 1, text: readText(wall) }];
  if (wall.writable) {
    out.push({ part: "write", held: abi >= 1, text: writeText(wall) }, ...keptClaim(wall));
    out.push(
      abi >= 3
        ? { part: "truncate", held: true, text: "truncating a file: only where writing is allowed" }
        : { part: "truncate", held: false, text: `truncating a file by its path (${abiNeeds(abi, 3, "6.2")})` },
    );
    out.push(
      abi >= 5
        ? { part: "ioctl", held: true, text: "device ioctls: only on terminals" }
        : { part: "ioctl", held: false, text: `device ioctls (${abiNeeds(abi, 5, "6.10")})` },
    );
  }
  if (wall.tcp) {
    const ports = wall.tcp.connect.join(", ");
    out.push(
      abi >= 4
        ? {
            part: "tcp",
            held: true,
            text: `TCP: connects only to port ${ports}, ${wall.tcp.why} (the kernel matches the port, on any address)`,
          }
        : { part: "tcp", held: false, text: `network: TCP connects anywhere (${abiNeeds(abi, 4, "6.7")})` },
    );
    out.push({ part: "bind", held: false, text: "listening on a TCP port: left open" });
    out.push({
      part: "udp",
      held: false,
      text: "UDP and other traffic that is not TCP, DNS included (Landlock has no rule for it)",
    });
    out.push({
      part: "unix",
      held: false,
      text: "Unix sockets reached by path, such as an ssh-agent or docker.sock (Landlock has no rule for them)",
    });
  }
  if (wall.scopedSockets && !wall.scoped) {
    out.push(
      abi >= 6
        ? {
            part: "scope",
            held: true,
            text: "abstract Unix sockets (a display's): reach only what runs inside the wall",
          }
        : {
            part: "scope",
            held: false,
            text: `abstract Unix sockets, a display's among them (${abiNeeds(abi, 6, "6.12")})`,
          },
    );
  }
  if (wall.servers) out.push(serversClaim(wall, namespaces));
  if (wall.names) out.push(namedClaim(wall, namespaces));
  if (wall.scoped) {
    out.push(
      abi >= 6
        ? { part: "scope", held: true, text: "signals and abstract Unix sockets: reach only what runs inside the wall" }
        : { part: "scope", held: false, text: `signals and abstract Unix sockets (${abiNeeds(abi, 6, "6.12")})` },
    );
  }
  return out;
}

function seatbeltClaims(wall: Wall): Claim[] {
  const out: Claim[] = [{ part: "read", held: true, text: readText(wall) }];
  if (wall.writable) out.push({ part: "write", held: true, text: writeText(wall) }, ...keptClaim(wall));
  if (wall.tcp) {
    const ports = wall.tcp.connect.join(", ");
    out.push({ part: "tcp", held: true, text: `TCP: connects only to localhost:${ports}, ${wall.tcp.why}` });
    out.push({ part: "bind", held: false, text: "listening on a TCP port: left open" });
    out.push({ part: "udp", held: true, text: "UDP and other traffic that is not TCP: refused" });
    out.push({ part: "unix", held: true, text: "Unix sockets: only memnox's own" });
  }
  if (wall.scoped) out.push({ part: "scope", held: true, text: "signals: reach only what runs inside the wall" });
  return out;
}

/** Every part of `wall`, held or not, on `kernel`. */
export function claims(wall: Wall, kernel: Kernel): Claim[] {
  if (kernel.kind === "landlock") return landlockClaims(wall, kernel.abi, kernel.namespaces === true);
  if (kernel.kind === "seatbelt") return seatbeltClaims(wall);
  return landlockClaims(wall, 0);
}

/**
 * What Landlock's grain cost: directories whose own entries cannot be made or removed (something unwritable is
 * beneath them), and writable files in an unwritable folder, which can be written but not replaced by a rename.
 */
export function costs(wall: Wall, plan: LandlockPlan | undefined): string[] {
  if (!plan) return [];
  const carved = plan.costs.map(
    (c) => `new entries directly in ${shown(wall, c.path)} cannot be made or removed (${c.because} is beneath it)`,
  );
  const files = (wall.writable ?? []).filter((w) => {
    const r = plan.paths.find((p) => p.path === w.path);
    return r !== undefined && (r.access & FS.WRITE_FILE) !== 0 && (r.access & FS.MAKE_REG) === 0;
  });
  const replaced = files.map(
    (f) =>
      `${shown(wall, f.path)} can be written in place, not replaced by renaming a new file over it (its folder is not writable)`,
  );
  return [...carved, ...replaced];
}
