// runProxy: start the real server as a child and pump lines both ways through the one inspection point.
import { MemnoxError } from "../../core/errors.ts";
import type { GateServices } from "../../gate/types.ts";
import type { Env } from "../../ports/index.ts";
import { loadManifest, ManifestBuilder } from "../../state/mcp-manifest.ts";
import { signalNumber } from "../shared/child.ts";
import { type HookedLookup, ProxyCore } from "./core.ts";
import { LineSplitter } from "./framing.ts";
import { visibilityFrom } from "./visibility.ts";

/** The SDK's own stdio limit; a larger message would break most clients anyway. */
const DEFAULT_MAX_MESSAGE_BYTES = 10 * 1024 * 1024;
const FORWARDED_SIGNALS = ["SIGTERM", "SIGINT", "SIGHUP"] as const;

interface ByteSink {
  write(bytes: Uint8Array): void;
}

export interface ProxyOptions {
  /** The server's name in rules (`mcp.<name>.<tool>`) and in the manifest file name. */
  readonly name: string;
  /** The real server's argv. */
  readonly command: readonly string[];
  readonly gate: GateServices;
  /** What the agent writes to us. */
  readonly input: ReadableStream<Uint8Array>;
  /** What the agent reads from us. */
  readonly output: ByteSink;
  /** Our own notes (the server's stderr goes straight to ours). */
  readonly log: (text: string) => void;
  /** The whole environment: the child gets all of it; MEMNOX_TOOLS_ALLOW/DENY are read from it. */
  readonly env: Env;
  readonly cwd: string;
  /** Where `<name>.json`, the classified tool manifest, is kept (`paths.mcp`). */
  readonly manifestDir: string;
  readonly session?: string;
  readonly agent?: string;
  readonly now: () => number;
  readonly maxMessageBytes?: number;
  readonly holdHeartbeatMs?: number;
  /** After the agent closes: how long the server has to exit on its own before SIGTERM, then SIGKILL. */
  readonly shutdownGraceMs?: number;
  /** Pass SIGTERM/SIGINT/SIGHUP on to the server (the face does; in-process tests do not). */
  readonly forwardSignals?: boolean;
  /** The agent's own session for a call its hook recorded too (the face reads the ledger). */
  readonly hookedSession?: (call: HookedLookup) => Promise<string | undefined>;
  /** Called with each hold the proxy waits on (the face stamps it with the proxy's own process). */
  readonly waitingOn?: (holdId: string) => void;
}

/** Runs until the server exits; returns its exit code (128 + signal when a signal ended it). */
export async function runProxy(o: ProxyOptions): Promise<number> {
  const visibility = visibilityFrom(o.env);
  const maxMessageBytes = o.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES;
  const manifestDir = o.manifestDir;
  const child = spawnServer(o);
  let serverOpen = true;
  const toServer = (bytes: Uint8Array) => {
    if (!serverOpen) return;
    try {
      child.stdin.write(bytes);
      child.stdin.flush();
    } catch {
      serverOpen = false;
    }
  };
  const core = new ProxyCore({
    server: o.name,
    gate: o.gate,
    visibility,
    manifest: new ManifestBuilder(manifestDir, o.name, o.now, loadManifest(manifestDir, o.name)),
    cwd: o.cwd,
    ...(o.env.HOME ? { home: o.env.HOME } : {}),
    ...(o.session ? { session: o.session } : {}),
    ...(o.agent ? { agent: o.agent } : {}),
    toClient: (bytes) => o.output.write(bytes),
    toServer,
    log: o.log,
    maxMessageBytes,
    holdHeartbeatMs: o.holdHeartbeatMs ?? 15_000,
    elapsed: () => performance.now(),
    ...(o.hookedSession ? { hookedSession: o.hookedSession } : {}),
    ...(o.waitingOn ? { waitingOn: o.waitingOn } : {}),
  });
  const grace = o.shutdownGraceMs ?? 2_000;
  const timers: ReturnType<typeof setTimeout>[] = [];
  let closing = false;
  // EOF first (what the protocol asks), then SIGTERM, then SIGKILL, each after the grace period.
  const closeServerInput = () => {
    serverOpen = false;
    try {
      void child.stdin.end();
    } catch {
      // already closed
    }
    if (closing) return;
    closing = true;
    timers.push(setTimeout(() => signalGroup(child, "SIGTERM"), grace));
    timers.push(setTimeout(() => signalGroup(child, "SIGKILL"), grace * 2));
  };
  // A signal reaches the server's whole group, and its stdin closes too.
  const unforward = o.forwardSignals ? forwardSignals(child, closeServerInput) : () => {};
  const clientReader = o.input.getReader();
  const clientSplitter = new LineSplitter(maxMessageBytes, {
    line: (l) => core.fromClient(l),
    oversize: (i) => core.clientOversize(i),
  });
  const clientDone = (async () => {
    await drain(clientReader, clientSplitter);
    await core.closeClient();
    closeServerInput();
  })();
  const serverSplitter = new LineSplitter(maxMessageBytes, {
    line: (l) => core.fromServer(l),
    oversize: (i) => core.serverOversize(i),
  });
  const serverReader = child.stdout.getReader();
  const serverDrained = drain(serverReader, serverSplitter);
  try {
    await child.exited;
    // What the server left behind (a pipeline's other members, a helper) is ours to end, and may hold the pipe.
    signalGroup(child, "SIGTERM");
    let timer: ReturnType<typeof setTimeout> | undefined;
    await Promise.race([serverDrained, new Promise<void>((r) => (timer = setTimeout(r, grace)))]);
    clearTimeout(timer);
    await serverReader.cancel().catch(() => {});
    await serverDrained;
  } finally {
    serverOpen = false;
    unforward();
    await clientReader.cancel().catch(() => {});
    await clientDone.catch(() => {});
    await core.closeClient();
    for (const t of timers) clearTimeout(t);
  }
  return exitCodeOf(child);
}

type Child = Bun.Subprocess<"pipe", "pipe", "inherit">;

function spawnServer(o: ProxyOptions): Child {
  const [bin] = o.command;
  if (!bin) throw new MemnoxError("usage", "no server command given", "memnox-mcp-proxy --name <server> -- <command…>");
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(o.env)) if (v !== undefined) env[k] = v;
  try {
    // Its own process group, so a signal reaches everything the server started (`npx`, `sh -c`, pipelines).
    return Bun.spawn([...o.command], {
      cwd: o.cwd,
      env,
      stdin: "pipe",
      stdout: "pipe",
      stderr: "inherit",
      detached: true,
    });
  } catch (e) {
    throw new MemnoxError(
      "not_found",
      `could not start the \`${o.name}\` server \`${bin}\`: ${(e as Error).message}`,
      "check the command after `--`",
    );
  }
}

interface ByteReader {
  read(): Promise<{ done: boolean; value?: Uint8Array | undefined }>;
}

async function drain(reader: ByteReader, splitter: LineSplitter): Promise<void> {
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (value) splitter.push(value);
    }
  } catch {
    // a stream that breaks has ended
  }
  splitter.end();
}

function forwardSignals(child: Child, then: () => void): () => void {
  const handlers = FORWARDED_SIGNALS.map((sig) => {
    const h = () => {
      signalGroup(child, sig);
      then();
    };
    process.on(sig, h);
    return [sig, h] as const;
  });
  return () => {
    for (const [sig, h] of handlers) process.off(sig, h);
  };
}

function signalGroup(child: Child, sig: NodeJS.Signals): void {
  try {
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}

function exitCodeOf(child: Child): number {
  const signal = child.signalCode;
  if (signal) return 128 + signalNumber(signal);
  return child.exitCode ?? 1;
}
