// The daemon's egress listeners: the shared one on 127.0.0.1:8888, and one per `memnox run` session on a port of
// its own, so the address an agent was given is what says whose requests these are. A session's closes when idle.
import { type EgressGate, type EgressProxy, startEgressProxy } from "./proxy.ts";

const IDLE_MS = 30 * 60_000;

export interface EgressListeners {
  readonly main: EgressProxy | undefined;
  /** The session's own listener, opened on first ask. */
  forSession(session: string): Promise<EgressProxy>;
  close(): Promise<void>;
}

export interface ListenerOptions {
  readonly port: number;
  readonly onError: (message: string) => void;
  readonly idleMs?: number;
}

export async function egressListeners(gate: EgressGate, opts: ListenerOptions): Promise<EgressListeners> {
  let main: EgressProxy | undefined;
  try {
    main = await startEgressProxy(gate, { port: opts.port, anyPort: true, onError: opts.onError });
  } catch (e) {
    opts.onError(`the egress proxy could not start: ${(e as Error).message}`);
  }
  const sessions = new Map<string, Promise<EgressProxy>>();
  const idleMs = opts.idleMs ?? IDLE_MS;
  const sweep = setInterval(async () => {
    for (const [session, p] of sessions) {
      const proxy = await p;
      const since = proxy.idleSince();
      if (since !== undefined && performance.now() - since > idleMs) {
        sessions.delete(session);
        await proxy.close();
      }
    }
  }, 60_000);
  sweep.unref();
  return {
    main,
    forSession(session) {
      let p = sessions.get(session);
      if (!p) {
        p = startEgressProxy(gate, { port: 0, caller: { session }, onError: opts.onError });
        sessions.set(session, p);
        p.catch(() => sessions.delete(session));
      }
      return p;
    },
    async close() {
      clearInterval(sweep);
      await Promise.all([main?.close(), ...[...sessions.values()].map(async (p) => (await p).close())]);
    },
  };
}
