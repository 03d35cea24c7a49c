// `memnox daemon`: hold the rules in one process, answer the socket, run the egress proxy and the keeping passes.
// Until SIGTERM or SIGINT, which end it cleanly: socket and egress.json removed, the ledger closed, nothing half-written.
import { chmodSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { MemnoxError } from "../core/errors.ts";
import { pingDaemon } from "../gate/remote/client.ts";
import { lazyInstant } from "../gate/resolution.ts";
import { withLockAsync } from "../io/files.ts";
import { createArgsDigest, createRecorder } from "../ledger/index.ts";
import type { Context } from "../ports/context.ts";
import { removeEgress, writeEgress } from "../state/egress.ts";
import { cachedReaders, stamp } from "./cached.ts";
import { daemonCore } from "./core.ts";
import { deferringRecorder } from "./deferred.ts";
import { daemonEgressGate } from "./egress/gate.ts";
import { type EgressListeners, egressListeners } from "./egress/listeners.ts";
import { EGRESS_PORT } from "./egress/proxy.ts";
import { daemonLog } from "./log.ts";
import { agentWallPass } from "./passes/agent-wall.ts";
import { driftPass } from "./passes/drift.ts";
import { agentHooksPass } from "./passes/hooks.ts";
import { mcpServersPass } from "./passes/mcp-servers.ts";
import { skillsPass } from "./passes/skills.ts";
import { type DaemonPass, startPasses } from "./passes.ts";
import { startRetentionSweep } from "./retention.ts";
import { ruleCache } from "./rules.ts";
import { listenSocket } from "./socket.ts";

/** The passes every daemon runs: hooks kept, new MCP servers wrapped, drift and dormant agents noticed. */
const PASSES: readonly DaemonPass[] = [agentHooksPass(), mcpServersPass, driftPass(), skillsPass, agentWallPass];

interface ServeOptions {
  readonly passes?: readonly DaemonPass[];
  /** The egress proxy's port: 8888 unless said, any free one when that is taken. */
  readonly egressPort?: number;
  /** Resolves to end the daemon as SIGTERM would (tests, an embedding process). */
  readonly until?: Promise<void>;
  /**
   * Run inside another command (`memnox run --untrusted` with no daemon): the signals stay that command's (it
   * forwards them to its agent), only `until` ends it, and the command says its own words.
   */
  readonly embedded?: true;
  /** Called once the socket answers and the egress proxy listens. */
  readonly onReady?: () => void;
}

const LOCK_STALE_MS = 10_000;
const SOCKET_CHECK_MS = 2_000;

/** MEMNOX_EGRESS_PORT moves the proxy off 8888 (0: any free port); 8888 taken means any free port anyway. */
function egressPortOf(raw: string | undefined): number {
  const n = Number(raw);
  return raw !== undefined && raw !== "" && Number.isInteger(n) && n >= 0 && n < 65536 ? n : EGRESS_PORT;
}

/** Only one daemon starts at a time: a lock file beside the socket while it checks and binds. */
function withStartLock<T>(sock: string, fn: () => Promise<T>): Promise<T> {
  const lock = `${sock}.lock`;
  return withLockAsync(
    lock,
    { staleMs: LOCK_STALE_MS, timeoutMs: 5_000, busy: `another daemon is starting (\`${lock}\`)` },
    fn,
  );
}

/** A socket file nobody answers is stale: found by asking, never assumed from its presence. */
async function claimSocket(sock: string, say: (m: string) => void): Promise<void> {
  if (stamp(sock) === "absent") return;
  const alive = await pingDaemon(sock);
  if (alive) {
    throw new MemnoxError(
      "conflict",
      `a memnox daemon already answers on \`${sock}\` (pid ${alive.pid})`,
      "memnox daemon --status says what starts it",
    );
  }
  rmSync(sock, { force: true });
  say(`removed a stale socket file nothing answered on: ${sock}`);
}

function ownerOnlyRoot(root: string): void {
  mkdirSync(root, { recursive: true, mode: 0o700 });
  chmodSync(root, 0o700);
}

function shutdownSignal(until: Promise<void> | undefined, signals: boolean): Promise<string> {
  return new Promise((resolve) => {
    const on = (sig: NodeJS.Signals) => () => resolve(sig);
    const handlers = (["SIGTERM", "SIGINT", "SIGHUP"] as const).map((s) => [s, on(s)] as const);
    if (signals) for (const [s, h] of handlers) process.once(s, h);
    until?.then(() => resolve("request"));
  }).then((why) => String(why));
}

/** The pid file goes only while it still names this daemon (a second one may have written its own). */
function removeOwnPid(file: string): void {
  try {
    if (readFileSync(file, "utf8").trim() === String(process.pid)) rmSync(file, { force: true });
  } catch {
    // Already gone.
  }
}

/** sockaddr_un holds 104 bytes on macOS (108 on Linux): a longer path cannot be bound or reached. */
const MAX_SOCKET_PATH = 103;

export async function serve(ctx: Context, opts: ServeOptions = {}): Promise<number> {
  const paths = ctx.paths;
  if (Buffer.byteLength(paths.sock) > MAX_SOCKET_PATH) {
    throw new MemnoxError(
      "usage",
      `the socket path \`${paths.sock}\` is longer than the ${MAX_SOCKET_PATH} bytes a Unix socket allows`,
      "set MEMNOX_HOME to a shorter directory; the seams decide in process meanwhile",
    );
  }
  ownerOnlyRoot(paths.root);
  const log = daemonLog(paths.daemonLog, ctx.clock);
  const startedAt = new Date(ctx.clock.now()).toISOString();
  const recorder = deferringRecorder(
    createRecorder(paths, (t) => log.write("ledger", t.trim()), { walAutoCheckpoint: 0 }),
  );
  let egress: EgressListeners | undefined;
  const ping = async (egressFor: string | undefined, held: AbortSignal) => {
    const at = egressFor ? await egress?.forSession(egressFor, held) : egress?.main;
    return {
      pid: process.pid,
      version: ctx.version,
      startedAt,
      ...(at ? { egress: { host: at.host, port: at.port } } : {}),
    };
  };
  const rules = ruleCache({
    paths,
    onReload: (cwd, set, before) =>
      log.write(
        "rules",
        `rules reloaded for ${cwd}: ${set.files.length} file(s), ${before.slice(0, 12)} -> ${set.hash.slice(0, 12)}`,
      ),
  });
  const core = daemonCore({ ctx, recorder, rules, readers: cachedReaders(paths), log, ping });
  const server = await withStartLock(paths.sock, async () => {
    await claimSocket(paths.sock, (m) => log.write("socket", m));
    return listenSocket(paths.sock, core);
  });
  const sockStamp = stamp(paths.sock);
  const sockInode = statSync(paths.sock, { throwIfNoEntry: false })?.ino;
  // Written as soon as the socket answers, so whoever saw it answer finds the pid too.
  if (!opts.embedded) writeFileSync(paths.daemonPid, `${process.pid}\n`, { mode: 0o600 });
  const digest = createArgsDigest(paths);
  const now = () => lazyInstant(ctx.clock.now());
  egress = await egressListeners(daemonEgressGate(paths, core, now, digest, ctx.env.TZ, ctx.version), {
    port: opts.egressPort ?? egressPortOf(ctx.env.MEMNOX_EGRESS_PORT),
    onError: (m) => log.write("egress", m),
  });
  const main = egress.main;
  if (main) writeEgress(paths, { host: main.host, port: main.port, pid: process.pid, startedAt });
  const passes = startPasses({ ctx, passes: opts.passes ?? PASSES, log, recorder });
  // History past retentionDays goes on an hourly sweep, as `memnox purge` would drop it.
  const stopSweep = startRetentionSweep(ctx, recorder, log);
  // The workspace loop: with no account.json it reads that file and calls nothing.
  const { startWorkspaceSync } = await import("../workspace/daemon.ts");
  const sync = startWorkspaceSync(
    ctx,
    (words) => log.write("sync", words),
    (e) => void recorder.record(e),
  );
  const where = main ? `, egress proxy http://${main.host}:${main.port}` : "";
  log.write("started", `pid ${process.pid}, socket ${paths.sock}${where}`);
  opts.onReady?.();
  if (!opts.embedded)
    ctx.io.err(`memnox: daemon ready (pid ${process.pid}) on ${paths.sock}${where}; log ${paths.daemonLog}\n`);

  // A daemon whose socket file was taken (its home deleted, `uninstall --purge`, a second daemon) has nobody left to
  // answer: it ends rather than run on unseen.
  let orphaned: ReturnType<typeof setInterval> | undefined;
  const gone = opts.embedded
    ? undefined
    : new Promise<void>((resolve) => {
        orphaned = setInterval(() => {
          if (statSync(paths.sock, { throwIfNoEntry: false })?.ino !== sockInode) resolve();
        }, SOCKET_CHECK_MS);
      });
  const why = await shutdownSignal(
    gone ? Promise.race([opts.until ?? new Promise<void>(() => undefined), gone]) : opts.until,
    !opts.embedded,
  );
  clearInterval(orphaned);
  server.stop();
  // Only our own socket file goes: a second daemon that failed to start must not take the first one's.
  if (stamp(paths.sock) === sockStamp) rmSync(paths.sock, { force: true });
  removeEgress(paths, process.pid);
  if (!opts.embedded) removeOwnPid(paths.daemonPid);
  await egress?.close();
  stopSweep();
  await passes.close();
  await sync.close();
  rules.close();
  log.write("stopped", `on ${why}`);
  recorder.close();
  return 0;
}
