// An action a seam handed over (a hook's file or MCP call), or one the resolver gave, settled against the disk (its paths
// already expanded to where they really lead): whether a milestone covers a delete, what class an MCP tool is.
import type { Action } from "../core/action.ts";
import { repoRoot } from "../io/repo.ts";
import { classFromName } from "../resolve/mcp-tools.ts";
import { recoverable } from "../resolve/project.ts";
import { loadManifest } from "../state/mcp-manifest.ts";
import { unkeptDeletes } from "./kept.ts";
import { sessionToolClass } from "./session-tools.ts";

/**
 * The class a milestone or a manifest settles: a delete is a write only while every path it really reaches is inside
 * the checkout (a symlink out of it makes it destructive again); an MCP tool the hook could not class takes the class
 * the proxy recorded for it, else the one its name gives (the same as the proxy's).
 */
export function settled(action: Action, cwd: string, mcpDir: string): Action {
  // Its targets went through THE expansion first (expand.ts): every physical path they reach is among them.
  const real = action;
  if (real.name === "filesystem.delete") {
    const root = repoRoot(cwd);
    // Inside the checkout, what a milestone keeps is bounded (ignored files): past it the delete is not taken back.
    // A move leaves what it takes on the disk, under its new name.
    const moved = real.arguments.argv?.[0]?.split("/").pop() === "mv";
    const covered =
      recoverable(real.targets, root) &&
      (moved || !root || recoverable(real.targets, root, unkeptDeletes(root, real.targets)));
    const cls = covered ? "write" : "destructive";
    return cls === real.class || real.class === "read" ? real : { ...real, class: cls };
  }
  // memnox's own session tools take their own class, or stay unknown where a project file could shadow the server.
  const own = sessionToolClass(real, cwd);
  if (own !== undefined) return own === real.class ? real : { ...real, class: own };
  if (real.class === "unknown" && real.name.startsWith("mcp.")) {
    const [, server = "*", ...rest] = real.name.split(".");
    const tool = rest.join(".");
    const recorded = server === "*" ? undefined : loadManifest(mcpDir, server).find((t) => t.name === tool)?.class;
    const cls = recorded ?? classFromName(tool)?.class;
    return cls ? { ...real, class: cls } : real;
  }
  return real;
}
