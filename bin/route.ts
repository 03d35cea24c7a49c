// Pure: which face runs, from the name we were invoked by and the arguments. No I/O, no environment.

export type Face = "cli" | "hook" | "mcp-proxy" | "session" | "shell" | "shim" | "daemon" | "wall";

export interface Route {
  readonly face: Face;
  /** Arguments the face receives. */
  readonly args: readonly string[];
  /** For a shim: the command it stands in for (`git`, `gh`...). */
  readonly name?: string;
}

const NAMED_FACES: Readonly<Record<string, Face>> = {
  "memnox-mcp-proxy": "mcp-proxy",
  "memnox-session": "session",
  "memnox-shell": "shell",
  // Claude Code only accepts a SHELL/CLAUDE_CODE_SHELL whose path names bash or zsh.
  "memnox-bash": "shell",
  "memnox-zsh": "shell",
};

function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const i = trimmed.lastIndexOf("/");
  return i >= 0 ? trimmed.slice(i + 1) : trimmed;
}

/** `invokedAs` is argv0 as the OS gave it; `args` are the arguments after it. */
export function route(invokedAs: string, args: readonly string[]): Route {
  const name = basename(invokedAs);
  const named = NAMED_FACES[name];
  if (named) return { face: named, args };
  // The agent wall's applier by name (an agent's shell prefix where no perl applier was written).
  if (name === "memnox-wall") return { face: "wall", args: ["agent", ...args] };
  if (name === "memnox" || name.startsWith("memnox-") || name.startsWith("memnox.") || name === "bun") {
    return explicit(args);
  }
  return { face: "shim", name, args };
}

/** The explicit forms, so a quirk in argv0 degrades to a subcommand rather than a silent allow. */
function explicit(args: readonly string[]): Route {
  const [first, second, ...rest] = args;
  switch (first) {
    case "hook":
      return { face: "hook", args: args.slice(1) };
    case "shim":
      if (second === undefined || second.startsWith("-")) return { face: "cli", args };
      return { face: "shim", name: basename(second), args: rest };
    case "shell":
      return { face: "shell", args: args.slice(1) };
    case "daemon":
      return { face: "daemon", args: args.slice(1) };
    case "wall":
      return { face: "wall", args: args.slice(1) };
    case "mcp":
      if (second === "proxy") return { face: "mcp-proxy", args: rest };
      if (second === "session" && rest[0] === "serve") return { face: "session", args: rest.slice(1) };
      return { face: "cli", args };
    default:
      return { face: "cli", args };
  }
}
