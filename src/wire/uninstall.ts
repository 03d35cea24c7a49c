// `memnox uninstall`: the daemon stopped first (so nothing puts a hook back), then every seam taken back out, each
// file restored byte for byte where it is still exactly what memnox wrote, else only memnox's entries removed, and
// which of the two said per file. The binary and its links stay, so `memnox uninstall --purge` still runs: that
// also deletes ~/.memnox (history and rules included), the links, the repository rule files setup created and left
// as they were, and memnox's refs in every repository it kept milestones in.
import { existsSync, lstatSync, readFileSync, readlinkSync, rmSync } from "node:fs";
import { basename, join, resolve } from "node:path";
import { AGENTS } from "../../hooks/types.ts";
import { MemnoxError } from "../core/errors.ts";
import { sha256Hex } from "../io/hash.ts";
import type { Context } from "../ports/context.ts";
import { readReceipt } from "../update/receipt.ts";
import { codexMemnoxTrustKeys, codexShellOff, forgetCodexTrust } from "./agent-shell.ts";
import { removeAgentWallWiring, type WallRemoval } from "./agent-wall.ts";
import { removeApp } from "./app.ts";
import { type CreatedFile, readCreated } from "./created.ts";
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
  /** Whether the installed binary was deleted (only by --purge). */
  readonly app: boolean;
  readonly kept: boolean;
  /** The directory deleted by --purge. */
  readonly purged?: string;
  /** --purge: the links to the binary taken out of their folder. */
  readonly links?: readonly string[];
  /** --purge: repository rule files setup created, removed or left (edited, or committed). */
  readonly teamFiles?: readonly {
    readonly path: string;
    readonly outcome: "removed" | "kept";
    readonly why?: string;
  }[];
  /** --purge: memnox's refs taken out of each repository. */
  readonly repos?: readonly RefsPurged[];
}

/** What --purge took out of one repository's .git (see src/rewind/purge.ts). */
interface RefsPurged {
  readonly repo: string;
  readonly refs: number;
  readonly objects: number;
  readonly packed: number;
  readonly problem?: string;
}

interface UninstallOptions {
  readonly purge: boolean;
  /** --purge: takes memnox's refs out of every repository it kept milestones in (the CLI knows which). */
  readonly purgeRepos?: () => Promise<readonly RefsPurged[]>;
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

export async function uninstallMachine(ctx: Context, opts: UninstallOptions): Promise<UninstallReport> {
  const root = opts.purge ? purgeable(ctx) : undefined;
  // kept.json first: without it no hook starts a daemon and no daemon pass puts anything back; then the daemon.
  const kept = existsSync(ctx.paths.kept);
  rmSync(ctx.paths.kept, { force: true });
  const daemon = await uninstallDaemonService(ctx);
  const interceptors = removeInterceptors(ctx);
  const gitHooks = await removeGitHooks(ctx, ctx.cwd);
  // Read before memnox's entries leave hooks.json: which trust records Codex keeps for them.
  const codexKeys = codexMemnoxTrustKeys(ctx);
  const mcp = await unwrapMcpServers(ctx);
  const session = await sessionServerOff(ctx, { unrecorded: true });
  const wall = removeAgentWallWiring(ctx);
  const hooks = AGENTS.map((a) => removeAgentHook(ctx, a));
  const native = revertNative(ctx);
  const loginPath = removeLoginPath(ctx);
  const shells = codexShellOff(ctx);
  forgetCodexTrust(ctx, codexKeys);
  const purge = root ? await purgeAll(ctx, root, readCreated(ctx.paths).files, opts) : undefined;
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
    app: purge !== undefined,
    kept,
    ...(root ? { purged: root } : {}),
    ...(purge ?? {}),
  };
}

/** Everything --purge adds: memnox's refs, the team files as setup left them, the binary's links, then ~/.memnox. */
async function purgeAll(ctx: Context, root: string, teamFiles: readonly CreatedFile[], opts: UninstallOptions) {
  const repos = (await opts.purgeRepos?.()) ?? [];
  const team = await Promise.all(teamFiles.map((f) => removeTeamFile(ctx, f)));
  const links = removeLinks(ctx);
  removeApp(ctx);
  rmSync(root, { recursive: true, force: true });
  return { repos, teamFiles: team, links };
}

/** A rule file setup created goes only while it is exactly what setup wrote and git does not track it. */
async function removeTeamFile(ctx: Context, f: CreatedFile) {
  const text = existsSync(f.path) ? readFileSync(f.path) : undefined;
  if (text === undefined) return { path: f.path, outcome: "kept" as const, why: "already gone" };
  if (sha256Hex(text) !== f.sha256)
    return { path: f.path, outcome: "kept" as const, why: "changed since setup wrote it: the rules in it are yours" };
  const dir = f.path.slice(0, f.path.lastIndexOf("/")) || "/";
  const tracked = await ctx.git.run(["ls-files", "--error-unmatch", "--", basename(f.path)], { cwd: dir });
  if (tracked.code === 0)
    return { path: f.path, outcome: "kept" as const, why: "committed: it is the repository's now" };
  rmSync(f.path, { force: true });
  return { path: f.path, outcome: "removed" as const };
}

const LINK_NAMES = ["memnox", "memnox-mcp-proxy", "memnox-shell", "memnox-session"];

/** The links install.sh made to the binary (its receipt names the folder), each only while it points at it. */
function removeLinks(ctx: Context): string[] {
  let prefix = join(ctx.paths.home, ".local", "bin");
  try {
    const receipt = readReceipt(ctx.paths);
    if (receipt?.method === "script") prefix = receipt.prefix;
  } catch {
    // An unreadable receipt: the default folder is the one to look in.
  }
  const app = resolve(ctx.paths.app);
  return LINK_NAMES.map((n) => join(prefix, n)).filter((link) => {
    try {
      if (!lstatSync(link).isSymbolicLink() || resolve(prefix, readlinkSync(link)) !== app) return false;
    } catch {
      return false;
    }
    rmSync(link, { force: true });
    return true;
  });
}
