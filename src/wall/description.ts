// THE description of a wall: which files cannot be read, where writes may go, which TCP ports and hosts are
// reached. `run --untrusted`, `protect --os-guard`, the start screen, doctor and the boundary block all read this
// one shape; the Landlock ruleset (landlock.ts) and the seatbelt profile (seatbelt.ts) are both built from it, so
// the two kernels cannot drift apart. Pure: every path arrives as an argument, already physical.

type WallKind = "untrusted" | "os-guard" | "agent";

export interface WallPath {
  /** Absolute and physical (symlinks resolved where the path exists): what a kernel is given. */
  readonly path: string;
  /** Why it is here, in the words a screen uses. */
  readonly why: string;
  /** The CLI that reads this credential itself (the os-guard leaves it readable to that CLI's interceptor). */
  readonly cli?: string;
}

export interface Wall {
  readonly version: 1;
  readonly kind: WallKind;
  readonly home: string;
  /** Nothing beneath these can be read or run; everything else can be read (directories listed everywhere). */
  readonly unreadable: readonly WallPath[];
  /** Where files may be written, made and removed. Absent: writes are not walled, only ruled (the os-guard). */
  readonly writable?: readonly WallPath[];
  /** Device files that may be written; the terminals among them also take ioctls. */
  readonly devices?: readonly string[];
  /** Beneath `writable`, what stays unwritable. */
  readonly unwritable: readonly WallPath[];
  /**
   * memnox's files inside the agent's own state (its hook, the MCP servers memnox wraps): writable from inside,
   * since the agent keeps its state beside them, and put back by memnox's keeper when the session rewrites them.
   */
  readonly kept?: readonly WallPath[];
  /** TCP connects only to these ports, on any address (Landlock matches the port alone). Absent: not walled. */
  readonly tcp?: { readonly connect: readonly number[]; readonly why: string };
  /** The session's egress proxy, and the hosts it lets through without asking; every other host asks. */
  readonly hosts?: { readonly proxy: string; readonly through: readonly string[] };
  /** Unix sockets by path that stay reachable (memnox's own): seatbelt refuses every other one, Landlock cannot. */
  readonly sockets?: readonly string[];
  /** Signals and abstract Unix sockets reach only processes inside the wall. */
  readonly scoped: boolean;
  /** Abstract Unix sockets alone reach only processes inside the wall (signals stay free where `scoped` is false). */
  readonly scopedSockets?: true;
  /**
   * Servers outside the wall that run what a command sends them through a socket's path (systemd's user manager,
   * tmux, screen, docker, the display): Landlock has no rule for such a socket, so each command gets a mount namespace
   * where they are not there. `paths` are hidden where they exist; `env` names variables holding such a socket's path.
   */
  readonly servers?: { readonly paths: readonly WallPath[]; readonly env: readonly string[] };
  /**
   * File names the rules deny reading wherever they are (`.env`, `*.env`): no Landlock rule can name every such file
   * without listing its siblings, so each command's namespace covers the ones found, untracked, in the checkouts
   * memnox knows when the wall is written and in each checkout a session starts in.
   */
  readonly names?: { readonly globs: readonly { glob: string; why: string }[]; readonly found: readonly WallPath[] };
  /** Patterns from the rules that no kernel can hold as a path: printed, never dropped. */
  readonly unexpressed: readonly string[];
}

/** Home paths that hold credentials whatever the scan finds in them today, with the CLI that reads each itself. */
export const HOME_SECRETS: readonly (readonly [path: string, cli?: string])[] = [
  [".ssh", "git"],
  [".aws", "aws"],
  [".config/gh", "gh"],
  [".kube", "kubectl"],
  [".docker", "docker"],
  [".npmrc", "npm"],
  [".netrc"],
  [".gnupg", "gpg"],
  [".git-credentials", "git"],
  [".config/git/credentials", "git"],
  [".pgpass", "psql"],
  [".my.cnf", "mysql"],
  [".mylogin.cnf", "mysql"],
  [".pypirc"],
  [".gem/credentials", "gem"],
  [".cargo/credentials", "cargo"],
  [".cargo/credentials.toml", "cargo"],
  [".config/gcloud", "gcloud"],
  [".azure", "az"],
  [".terraform.d/credentials.tfrc.json", "terraform"],
  [".vault-token", "vault"],
  [".password-store", "pass"],
  [".local/share/keyrings"],
];

/** Shell start-up files: people export tokens in them, and a write to one runs at the next login. */
export const SHELL_STARTUP: readonly string[] = [
  ".bashrc",
  ".bash_profile",
  ".bash_login",
  ".bash_logout",
  ".profile",
  ".zshrc",
  ".zshenv",
  ".zprofile",
  ".zlogin",
  ".zlogout",
  ".kshrc",
  ".cshrc",
  ".tcshrc",
  ".config/fish",
  ".env",
];

/** Every agent's own settings, hooks, skills, commands and subagents: what its next session is made of. */
export const AGENT_CONFIG: readonly string[] = [
  ".claude",
  ".claude.json",
  ".codex",
  ".gemini",
  ".cursor",
  ".codeium",
  ".windsurf",
  ".config/opencode",
  ".copilot",
  ".config/github-copilot",
  ".continue",
  ".aider.conf.yml",
  ".config/goose",
];

/** Variables that name a server's socket: the terminal multiplexer or editor the agent runs in, the buses. */
export const SERVER_ENV: readonly string[] = [
  "TMUX",
  "DBUS_SESSION_BUS_ADDRESS",
  "DOCKER_HOST",
  "NVIM",
  "NVIM_LISTEN_ADDRESS",
  "SWAYSOCK",
  "I3SOCK",
  "WAYLAND_DISPLAY",
  "KITTY_LISTEN_ON",
  "WEZTERM_UNIX_SOCKET",
];

export interface ServerPlaces {
  readonly home: string;
  readonly uid: number;
  readonly user: string;
  /** XDG_RUNTIME_DIR, else /run/user/<uid>. */
  readonly runtime: string;
  /** TMUX_TMPDIR, else /tmp. */
  readonly tmuxTmp: string;
}

/** Where servers that run what they are sent listen by default, whether or not one runs now. */
export function serverSockets(p: ServerPlaces): WallPath[] {
  const at = (why: string, ...paths: string[]) => paths.map((path) => ({ path, why }));
  const r = p.runtime;
  const all = [
    ...at("systemd's user manager (systemd-run --user runs a command outside the wall)", `${r}/bus`, `${r}/systemd`),
    ...at("tmux's server (a new window runs outside the wall)", `${p.tmuxTmp}/tmux-${p.uid}`, `/tmp/tmux-${p.uid}`),
    ...at("screen's sessions", `/run/screen/S-${p.user}`, `${p.home}/.screen`),
    ...at("zellij's sessions", `${r}/zellij`, `/tmp/zellij-${p.uid}`),
    ...at(
      "docker or podman (a container mounting your home)",
      `${r}/docker.sock`,
      `${r}/podman`,
      "/run/docker.sock",
      "/var/run/docker.sock",
      "/run/podman",
    ),
    ...at("the display (keys typed into your terminal)", "/tmp/.X11-unix", `${r}/wayland-0`, `${r}/wayland-1`),
  ];
  return unique(all);
}

/**
 * Places whose content runs later with nobody running it: login keys, git's global settings and templates, service
 * units, autostart entries, user site-packages, programs ahead on PATH, package managers' settings.
 */
export const PERSISTENCE: readonly string[] = [
  ".ssh",
  ".gitconfig",
  ".config/git",
  ".git-templates",
  ".config/systemd",
  ".config/autostart",
  ".config/environment.d",
  "Library/LaunchAgents",
  ".local/bin",
  ".local/lib",
  ".pam_environment",
  ".xprofile",
  ".xsessionrc",
  ".config/pip",
  ".pip",
  ".pydistutils.cfg",
  // Settings files whose lines run code in a later command of the person's: npm's node-options and script-shell,
  // yarn's yarnPath, bun's preload, an editor's, a debugger's, a REPL's or a client's start-up, direnv's.
  ".npmrc",
  ".yarnrc",
  ".yarnrc.yml",
  ".bunfig.toml",
  ".vimrc",
  ".exrc",
  ".config/nvim",
  ".tmux.conf",
  ".gdbinit",
  ".psqlrc",
  ".sqliterc",
  ".irbrc",
  ".pryrc",
  ".Rprofile",
  ".direnvrc",
  ".config/direnv",
];

const ASSIGNED = /^\s*(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)=(?:"([^"]*)"|'([^']*)'|([^\s;&|]*))/;
const SOURCED = /(?:^|[;&|{(]|\bthen|\bdo|\belse)\s*(?:source|\\?\.)\s+(?:"([^"]+)"|'([^']+)'|([^\s;&|)]+))/g;

/**
 * What a start-up file sources, by literal path (`~`, `$HOME` and the variables it set before expanded): as much
 * start-up as the file itself. Pure; a path still holding a variable is left out.
 */
export function sourcedPaths(text: string, home: string): string[] {
  const vars = new Map<string, string>([["HOME", home]]);
  const expand = (w: string) =>
    w
      .replace(/^~(?=\/|$)/, home)
      .replace(/\$\{?([A-Za-z_][A-Za-z0-9_]*)\}?/g, (all, name: string) => vars.get(name) ?? all);
  const out: string[] = [];
  for (const line of text.split("\n")) {
    if (/^\s*#/.test(line)) continue;
    const a = ASSIGNED.exec(line);
    if (a?.[1]) vars.set(a[1], expand(a[2] ?? a[3] ?? a[4] ?? ""));
    for (const m of line.matchAll(SOURCED)) {
      const p = expand(m[1] ?? m[2] ?? m[3] ?? "");
      if (p.startsWith("/") && !p.includes("$")) out.push(p.replace(/\/+$/, ""));
    }
  }
  return [...new Set(out)];
}

/** What a person typed, passwords included. */
export const HISTORIES: readonly string[] = [
  ".bash_history",
  ".zsh_history",
  ".history",
  ".python_history",
  ".node_repl_history",
  ".psql_history",
  ".mysql_history",
  ".sqlite_history",
  ".local/share/fish/fish_history",
];

/** The system temp directories (the ones the project boundary exempts) and shared memory, where it exists. */
export const TEMPS: readonly string[] = ["/tmp", "/var/tmp", "/dev/shm"];

/** Device files any program writes to; the ttys among them take terminal ioctls. */
export const DEVICES: readonly string[] = [
  "/dev/null",
  "/dev/zero",
  "/dev/full",
  "/dev/random",
  "/dev/urandom",
  "/dev/tty",
  "/dev/ptmx",
  "/dev/pts",
];
export const TERMINALS: readonly string[] = ["/dev/tty", "/dev/ptmx", "/dev/pts"];

export interface UntrustedInput {
  readonly home: string;
  /** MEMNOX_HOME: rules, config, held answers, ledger, trust. */
  readonly memnoxRoot: string;
  /** memnox's own signing key, which nothing inside needs and which would forge a signed export. */
  readonly memnoxKeys: readonly string[];
  readonly repo: string;
  /** A linked worktree's git directories (its own and the common one), written by every commit. */
  readonly gitDirs: readonly string[];
  readonly temps: readonly string[];
  /** The agent's own state (its settings folder and files): written by it, its sign-in read by it. */
  readonly agentState: readonly string[];
  /** Every credential and secret dotfile found or expected, physical. */
  readonly secrets: readonly WallPath[];
  /** Files memnox keeps that sit where the agent may write (its hook file, its MCP servers). */
  readonly kept: readonly WallPath[];
  readonly proxy?: { readonly url: string; readonly port: number; readonly through: readonly string[] };
  /** memnox's socket, which the seams inside answer through. */
  readonly socket: string;
}

const beneath = (p: string, root: string) => p === root || p.startsWith(root === "/" ? "/" : `${root}/`);

/** The preset for a repository nobody here vouched for. */
export function untrustedWall(input: UntrustedInput): Wall {
  // The agent's own sign-in stays readable to it (without it the agent cannot reach its model), and so does all
  // of the repository: a file it makes there must be one it can read back, so its .env is left to the rules.
  const readable = (p: string) => beneath(p, input.repo) || input.agentState.some((s) => beneath(p, s));
  const unreadable = dedupe([
    ...input.secrets.filter((s) => !readable(s.path)),
    ...input.memnoxKeys.map((path) => ({ path, why: "memnox's signing key" })),
  ]);
  const writable = unique([
    { path: input.repo, why: "the repository" },
    ...input.gitDirs.map((path) => ({ path, why: "the repository's git directory" })),
    ...input.temps.map((path) => ({ path, why: "temp" })),
    ...input.agentState.map((path) => ({ path, why: "the agent's own state" })),
  ]);
  const inWritable = (p: string) => writable.some((w) => w.path !== p && beneath(p, w.path));
  // What is not beneath a writable path is unwritable already; named only where it needs carving out.
  const unwritable = unique([
    { path: input.memnoxRoot, why: "memnox's rules, config, held answers, ledger and trust" },
    // A home inside temp (a test's, a container's) stays as unwritable as any other home.
    { path: input.home, why: "your home directory" },
  ]).filter((u) => u.path === input.memnoxRoot || inWritable(u.path));
  const kept = unique(input.kept).filter((k) => inWritable(k.path) || writable.some((w) => w.path === k.path));
  return {
    version: 1,
    kind: "untrusted",
    home: input.home,
    unreadable,
    writable,
    devices: DEVICES,
    unwritable,
    ...(kept.length > 0 ? { kept } : {}),
    ...(input.proxy
      ? {
          tcp: { connect: [input.proxy.port], why: "the session's egress proxy" },
          hosts: { proxy: input.proxy.url, through: input.proxy.through },
        }
      : {}),
    sockets: [input.socket],
    scoped: true,
    unexpressed: [],
  };
}

export interface AgentWallInput {
  readonly home: string;
  /** MEMNOX_HOME: rules, config, held answers, ledger, trust, the binary the hooks run. */
  readonly memnoxRoot: string;
  readonly memnoxKeys: readonly string[];
  /** Every credential place and every literal path the rules deny reading, physical. */
  readonly secrets: readonly WallPath[];
  /** Rule patterns no literal path can stand for. */
  readonly unexpressed: readonly string[];
  /** Where no agent may write: every agent's configuration, start-up files, persistence places, other repositories. */
  readonly protectedPaths: readonly WallPath[];
  /** The system temp directories: writable even where their parent is not (/dev/shm under /dev). */
  readonly temps: readonly string[];
  /** Kernel and device trees a shell never writes into (/sys, /dev but for its devices). */
  readonly system: readonly WallPath[];
  /** Sockets of servers outside the wall that would run what a command sends them. */
  readonly servers?: readonly WallPath[];
  /** Names the rules deny reading wherever a file is so named, and the files so named found in known checkouts. */
  readonly names?: { readonly globs: readonly { glob: string; why: string }[]; readonly found: readonly WallPath[] };
}

/**
 * Every shell command of a hooked agent: it may write everywhere its account may, except where no agent may write,
 * and read everything but credentials and what the rules deny reading. Asks stay the hook's: this holds only what
 * the rules deny outright, so a session is never wedged by it.
 */
export function agentWall(input: AgentWallInput): Wall {
  const unwritable = unique([
    { path: input.memnoxRoot, why: "memnox's rules, config, held answers, ledger and binary" },
    ...input.protectedPaths,
    ...input.system,
  ]).filter((u) => u.path !== "/");
  return {
    version: 1,
    kind: "agent",
    home: input.home,
    unreadable: dedupe([...input.secrets, ...input.memnoxKeys.map((path) => ({ path, why: "memnox's signing key" }))]),
    writable: unique([{ path: "/", why: "everywhere else" }, ...input.temps.map((path) => ({ path, why: "temp" }))]),
    devices: DEVICES,
    unwritable,
    // Signals stay free (a later command stops the server an earlier one started); abstract sockets do not.
    scoped: false,
    scopedSockets: true,
    ...(input.servers ? { servers: { paths: input.servers, env: SERVER_ENV } } : {}),
    ...(input.names?.globs.length ? { names: input.names } : {}),
    unexpressed: [...new Set(input.unexpressed)].sort(),
  };
}

export interface OsGuardInput {
  readonly home: string;
  readonly secrets: readonly WallPath[];
  /** Literal paths the rules deny reading. */
  readonly denied: readonly WallPath[];
  /** Rule patterns no literal path can stand for. */
  readonly unexpressed: readonly string[];
}

/** The machine's guard: credentials and what the rules deny reading stay unreadable to what a seam starts. */
export function osGuardWall(input: OsGuardInput): Wall {
  return {
    version: 1,
    kind: "os-guard",
    home: input.home,
    unreadable: dedupe([...input.denied, ...input.secrets]),
    unwritable: [],
    scoped: false,
    unexpressed: [...new Set(input.unexpressed)].sort(),
  };
}

/** The wall with the credentials one CLI reads itself left readable (its own interceptor's children). */
export function exceptFor(wall: Wall, cli: string): Wall {
  return { ...wall, unreadable: wall.unreadable.filter((u) => u.cli !== cli) };
}

/** One entry per path, in the order given, the first reason kept. */
function unique(paths: readonly WallPath[]): WallPath[] {
  const byPath = new Map<string, WallPath>();
  for (const p of paths) if (!byPath.has(p.path)) byPath.set(p.path, p);
  return [...byPath.values()];
}

/** One entry per path, in the order given, the first reason kept; a path beneath another of the list adds nothing. */
function dedupe(paths: readonly WallPath[]): WallPath[] {
  const byPath = new Map<string, WallPath>();
  for (const p of paths) if (!byPath.has(p.path)) byPath.set(p.path, p);
  const all = [...byPath.values()];
  return all.filter((p) => !all.some((q) => q.path !== p.path && beneath(p.path, q.path)));
}

/** `~/x` for a path under home, for a screen. */
export function shown(wall: Pick<Wall, "home">, path: string): string {
  if (path === wall.home) return "~";
  return path.startsWith(`${wall.home}/`) ? `~/${path.slice(wall.home.length + 1)}` : path;
}

export { beneath };
