// Run the real program as our child: same stdio and terminal, signals forwarded, its exit code handed back.
import type { Env } from "../../ports/index.ts";

const FORWARDED = ["SIGTERM", "SIGHUP", "SIGQUIT", "SIGUSR1", "SIGUSR2", "SIGWINCH"] as const;

interface ChildRun {
  readonly exitCode: number;
  readonly durationMs: number;
}

/** `interactive`: Ctrl-C reaches the child through the terminal's process group, so we only shield ourselves. */
export async function runChild(
  argv: readonly string[],
  opts: { env: Env; cwd: string; interactive: boolean },
): Promise<ChildRun> {
  const started = performance.now();
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
  // Forwarding is in place before the child exists: a signal sent the moment the child is up is never ours to die of.
  let child: ReturnType<typeof Bun.spawn> | undefined;
  const early: NodeJS.Signals[] = [];
  const handlers = new Map<string, () => void>();
  const forward = (sig: NodeJS.Signals) => () => {
    if (!child) {
      early.push(sig);
      return;
    }
    try {
      child.kill(sig);
    } catch {
      // the child may already be gone
    }
  };
  for (const sig of FORWARDED) handlers.set(sig, forward(sig));
  handlers.set("SIGINT", opts.interactive ? () => {} : forward("SIGINT"));
  for (const [sig, h] of handlers) process.on(sig, h);
  try {
    child = Bun.spawn([...argv], { env, cwd: opts.cwd, stdio: ["inherit", "inherit", "inherit"] });
  } catch (e) {
    for (const [sig, h] of handlers) process.off(sig, h);
    throw e;
  }
  for (const sig of early) forward(sig)();
  try {
    const code = await child.exited;
    const signal = child.signalCode;
    const exitCode = signal ? 128 + signalNumber(signal) : code;
    return { exitCode, durationMs: Math.round(performance.now() - started) };
  } finally {
    for (const [sig, h] of handlers) process.off(sig, h);
  }
}

/** Loaded only when a child died of a signal: the bundle hoists a builtin import into every face's start. */
export function signalNumber(signal: number | string): number {
  if (typeof signal === "number") return signal;
  const { signals } = (require("node:os") as typeof import("node:os")).constants;
  return signals[signal as keyof typeof signals] ?? 0;
}
