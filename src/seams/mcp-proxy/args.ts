// `memnox-mcp-proxy --name <server> -- <command…>`: the server's name in rules, then the real server's argv.
import { MemnoxError } from "../../core/errors.ts";

export interface ProxyArgs {
  readonly name: string;
  readonly command: readonly string[];
}

const USAGE = "memnox-mcp-proxy --name <server> -- <command…>";
/** The name becomes `mcp.<name>.<tool>` and a file name, so a dot or a slash would change its meaning. */
const NAME = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;

export function parseProxyArgs(args: readonly string[]): ProxyArgs {
  let name: string | undefined;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i] ?? "";
    if (a === "--") {
      i++;
      break;
    }
    if (a === "--name") name = args[++i];
    else if (a.startsWith("--name=")) name = a.slice("--name=".length);
    else throw new MemnoxError("usage", `unknown option \`${a}\``, USAGE);
  }
  if (!name) throw new MemnoxError("usage", "the server needs a name", USAGE);
  if (!NAME.test(name)) {
    throw new MemnoxError(
      "usage",
      `\`${name}\` is not a usable server name`,
      "use letters, digits, `_` and `-` (at most 64), as rules name calls `mcp.<server>.<tool>`",
    );
  }
  const command = args.slice(i);
  if (command.length === 0) throw new MemnoxError("usage", "no server command after `--`", USAGE);
  return { name, command };
}
