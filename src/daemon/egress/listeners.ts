// The daemon's egress listeners: the shared one on 127.0.0.1:8888, and one per `memnox run` session on a port of
// its own, so the address an agent was given is what says whose requests these are. A session's listener lives as
// long as a connection that asked for it stays open: the run keeps its connection until the agent exits.
import { type EgressGate, type EgressProxy, startEgressProxy } from "./proxy.ts";

export interface EgressListeners {
  readonly main: EgressProxy | undefined;
  /** The session's own listener, opened on first ask and closed when every asker's `held` signal has aborted. */
  forSession(session: string, held: AbortSignal): Promise<EgressProxy>;
  close(): Promise<void>;
}

export interface ListenerOptions {
  readonly port: number;
  readonly onError: (message: string) => void;
}

interface Session {
  readonly proxy: Promise<EgressProxy>;
  holders: number;
}

export async function egressListeners(gate: EgressGate, opts: ListenerOptions): Promise<EgressListeners> {
  let main: EgressProxy | undefined;
  try {
    main = await startEgressProxy(gate, { port: opts.port, anyPort: true, onError: opts.onError });
  } catch (e) {
    opts.onError(`the egress proxy could not start: ${(e as Error).message}`);
  }
  const sessions = new Map<string, Session>();
  const release = (session: string, s: Session) => {
    s.holders -= 1;
    if (s.holders > 0 || sessions.get(session) !== s) return;
    sessions.delete(session);
    void s.proxy.then(
      (p) => p.close(),
      () => {},
    );
  };
  return {
    main,
    forSession(session, held) {
      let s = sessions.get(session);
      if (!s) {
        s = { proxy: startEgressProxy(gate, { port: 0, caller: { session }, onError: opts.onError }), holders: 0 };
        sessions.set(session, s);
        const made = s;
        made.proxy.catch(() => sessions.delete(session));
      }
      s.holders += 1;
      const mine = s;
      if (held.aborted) release(session, mine);
      else held.addEventListener("abort", () => release(session, mine), { once: true });
      return s.proxy;
    },
    async close() {
      await Promise.all([main?.close(), ...[...sessions.values()].map(async (s) => (await s.proxy).close())]);
      sessions.clear();
    },
  };
}
