// What a wrapped server entry looks like, and how to see one: `<memnox> mcp proxy --name N -- <original…>`.
import { basename } from "node:path";

interface Wrapped {
  /** The server name the proxy was told. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
}

/** memnox's own session server: never put behind the proxy, which would put memnox in front of itself. */
export const SESSION_SERVER = "memnox-session";

const PROXY = ["mcp", "proxy", "--name"];

/** The entry that runs `command args` through the proxy, launched by `launcher` (memnox's argv prefix). */
export function wrapCommand(
  launcher: readonly string[],
  name: string,
  command: string,
  args: readonly string[],
): { command: string; args: string[] } {
  const [bin, ...prefix] = launcher;
  if (bin === undefined) throw new Error("an empty launcher");
  return { command: bin, args: [...prefix, ...PROXY, name, "--", command, ...args] };
}

function isMemnoxProgram(command: string): boolean {
  return basename(command).startsWith("memnox");
}

/** The original server behind a wrapped entry, or undefined when the entry is not memnox's wrapping. */
export function unwrapCommand(command: string, args: readonly string[]): Wrapped | undefined {
  const named = basename(command) === "memnox-mcp-proxy" ? 0 : undefined;
  const start = named ?? proxyStart(command, args);
  if (start === undefined) return undefined;
  const rest = named === 0 ? args : args.slice(start + 2);
  if (rest[0] !== "--name" || rest[2] !== "--") return undefined;
  const name = rest[1];
  const original = rest[3];
  if (name === undefined || original === undefined) return undefined;
  return { name, command: original, args: rest.slice(4) };
}

/** Index of `mcp proxy` in the arguments of a memnox launcher (`memnox …`, or `bun …/memnox.ts …` from source). */
function proxyStart(command: string, args: readonly string[]): number | undefined {
  if (isMemnoxProgram(command) && args[0] === "mcp" && args[1] === "proxy") return 0;
  if (basename(args[0] ?? "").startsWith("memnox") && args[1] === "mcp" && args[2] === "proxy") return 1;
  return undefined;
}

/** memnox's session server, under whatever name somebody gave it. */
export function isSessionServer(name: string, command: string | undefined, args: readonly string[] = []): boolean {
  if (name === SESSION_SERVER) return true;
  if (command === undefined) return false;
  if (basename(command) === SESSION_SERVER) return true;
  const at = args.indexOf("session");
  return (
    at > 0 &&
    args[at - 1] === "mcp" &&
    args[at + 1] === "serve" &&
    (isMemnoxProgram(command) || basename(args[0] ?? "").startsWith("memnox"))
  );
}
