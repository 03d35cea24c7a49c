// A real `memnox daemon` process on a fake home: started, awaited on its readiness line, asked, stopped by signal.
import { join } from "node:path";
import { daemonClient } from "../../src/gate/remote/client.ts";
import type { PingReply } from "../../src/gate/remote/protocol.ts";
import { compiledBinary } from "./binary.ts";
import type { FakeHome } from "./home.ts";

export interface RunningDaemon extends AsyncDisposable {
  readonly pid: number;
  readonly sock: string;
  /** What it said on stderr so far. */
  stderr(): string;
  ping(): Promise<PingReply | undefined>;
  /** Sends `signal` and resolves with the exit code. */
  stop(signal?: NodeJS.Signals): Promise<number>;
  readonly exited: Promise<number>;
}

export interface DaemonOptions {
  /** Run from source instead of the compiled binary. */
  readonly source?: boolean;
  readonly env?: Record<string, string>;
}

const ROOT = join(import.meta.dir, "..", "..");

export async function startDaemon(home: FakeHome, opts: DaemonOptions = {}): Promise<RunningDaemon> {
  const argv = opts.source
    ? [process.execPath, join(ROOT, "bin", "memnox.ts"), "daemon"]
    : [await compiledBinary(), "daemon"];
  const env = home.env({ MEMNOX_EGRESS_PORT: "0", ...opts.env });
  const child = Bun.spawn(argv, { env, cwd: home.home, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let said = "";
  const decoder = new TextDecoder();
  const exited = child.exited;
  // One reader for the whole life of the process: it sees the readiness line and keeps the pipe drained.
  const ready = new Promise<boolean>((resolve) => {
    void (async () => {
      for await (const chunk of child.stderr) {
        said += decoder.decode(chunk, { stream: true });
        if (said.includes("daemon ready")) resolve(true);
      }
      resolve(false);
    })();
  });
  if (!(await ready)) throw new Error(`the daemon did not start (exit ${await exited}): ${said}`);
  const sock = join(home.memnoxHome, "memnox.sock");
  const stop = async (signal: NodeJS.Signals = "SIGTERM") => {
    if (child.exitCode === null) child.kill(signal);
    return exited;
  };
  return {
    pid: child.pid,
    sock,
    stderr: () => said,
    async ping() {
      const c = daemonClient(sock);
      try {
        return await c.call({ method: "ping" }, { timeoutMs: 2000 });
      } finally {
        c.close();
      }
    },
    stop,
    exited,
    [Symbol.asyncDispose]: async () => {
      await stop("SIGKILL");
    },
  };
}
