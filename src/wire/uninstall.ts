// `memnox uninstall`: every seam taken back out, each file restored byte for byte where it is still exactly what
// memnox wrote, else only memnox's entries removed, and which of the two said per file. `--purge` also deletes
// ~/.memnox, history and rules included.
import { existsSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { AGENTS } from "../../hooks/types.ts";
import { MemnoxError } from "../core/errors.ts";
import type { Context } from "../ports/context.ts";
import { codexShellOff } from "./agent-shell.ts";
import { removeAgentWallWiring, type WallRemoval } from "./agent-wall.ts";
import { removeApp } from "./app.ts";
import { type GitHooksReport, removeGitHooks } from "./git-hooks.ts";
import { type HookReport, removeAgentHook } from "./hooks/install.ts";
import { type InterceptorRemoval, removeInterceptors } from "./interceptors.ts";
import { removeLoginPath } from "./login-path.ts";
import { type McpReport, unwrapMcpServers } from "./mcp-wrap.ts";
import { type NativeRevert, revertNative } from "./protect/native.ts";
import { type SessionServerReport, sessionServerOff } from "./session-server.ts";
import { type Step, uninstallDaemonService } from "./setup.ts";

export interface UninstallReport {
  readonly interceptors: InterceptorRemoval;
  readonly gitHooks: readonly GitHooksReport[];
  readonly hooks: readonly HookReport[];
  readonly mcp: McpReport;
  readonly session: SessionServerReport;
  readonly native: NativeRevert;
  readonly loginPath: readonly { readonly file: string; readonly outcome: string }[];
  /** memnox's keys out of agents' shell settings (Codex's shell_environment_policy). */
  readonly shells: readonly { readonly file: string; readonly outcome: string }[];
  /** The agent wall's managed settings, user prefix and applier taken out. */
  readonly wall: WallRemoval;
  readonly daemon: Step;
  readonly app: boolean;
  readonly kept: boolean;
  /** The directory deleted by --purge. */
  readonly purged?: string;
}

/** MEMNOX_HOME only when it plainly is memnox's: never HOME itself, never `/`. */
function purgeable(ctx: Pick<Context, "paths">): string {
  const root = resolve(ctx.paths.root);
  const ours =
    basename(root).startsWith(".memnox") ||
    ["config.toml", "memnox.db", "kept.json", "machine.policies.toml"].some((f) => existsSync(join(root, f)));
  if (root === "/" || root === resolve(ctx.paths.home) || !ours) {
    throw new MemnoxError(
      "refused",
      `\`${root}\` does not look like memnox's own directory, so --purge will not delete it`,
      "delete it yourself if you are sure; everything else was taken out",
    );
  }
  return root;
}

export async function uninstallMachine(ctx: Context, opts: { readonly purge: boolean }): Promise<UninstallReport> {
  const root = opts.purge ? purgeable(ctx) : undefined;
  const interceptors = removeInterceptors(ctx);
  const gitHooks = await removeGitHooks(ctx, ctx.cwd);
  const mcp = await unwrapMcpServers(ctx);
  const session = await sessionServerOff(ctx);
  const wall = removeAgentWallWiring(ctx);
  const hooks = AGENTS.map((a) => removeAgentHook(ctx, a));
  const native = revertNative(ctx);
  const loginPath = removeLoginPath(ctx);
  const shells = codexShellOff(ctx);
  const daemon = await uninstallDaemonService(ctx);
  const kept = existsSync(ctx.paths.kept);
  rmSync(ctx.paths.kept, { force: true });
  const app = removeApp(ctx);
  if (root) rmSync(root, { recursive: true, force: true });
  return {
    interceptors,
    gitHooks,
    hooks,
    mcp,
    session,
    native,
    loginPath,
    shells,
    wall,
    daemon,
    app,
    kept,
    ...(root ? { purged: root } : {}),
  };
}
