// The seam's side of the socket: one connection per process, opened on first use, answers matched by id.
// No daemon is a supported state: a missing socket file costs one stat, a refused connect one syscall.
import { existsSync } from "node:fs";
import type { DaemonRequest, Envelope, PingReply, Reply } from "./protocol.ts";

/** An answer the hot path waits for longer than this is no faster than deciding in process. */
export const CALL_TIMEOUT_MS = 1500;

/** After a failure a long-lived seam (the MCP proxy, a shell) asks again this much later: a daemon may be back. */
const RETRY_MS = 5000;

interface CallOptions {
  /** Wait this long for the answer, or forever (`hold`). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

export interface DaemonClient {
  /** The daemon's answer, or undefined when none came (no daemon, refused, timed out, broken, or an error). */
  call<R extends DaemonRequest>(request: R, opts?: CallOptions): Promise<Reply<R["method"]> | undefined>;
  /** Whether a daemon may answer now: false with no socket file, and for a while after any failure. */
  readonly reachable: boolean;
  close(): void;
}

type Settle = (value: Envelope | undefined) => void;
type Conn = Awaited<ReturnType<typeof Bun.connect>>;

export function daemonClient(sock: string, opts: { readonly retryMs?: number } = {}): DaemonClient {
  const retryMs = opts.retryMs ?? RETRY_MS;
  let closed = false;
  let retryAt = 0;
  const isDown = () => closed || performance.now() < retryAt;
  let conn: Promise<Conn | undefined> | undefined;
  let open: Conn | undefined;
  let nextId = 1;
  let buffer = "";
  let unsent: Uint8Array | undefined;
  const waiting = new Map<number, Settle>();
  const decoder = new TextDecoder();

  const fail = () => {
    retryAt = performance.now() + retryMs;
    conn = undefined;
    for (const settle of waiting.values()) settle(undefined);
    waiting.clear();
    const was = open;
    open = undefined;
    buffer = "";
    unsent = undefined;
    was?.end();
  };
  /** Only the connection in use can fail this client; an old one closing late changes nothing. */
  const gone = (s: Conn) => {
    if (s === open) fail();
  };
  const onData = (chunk: Uint8Array) => {
    buffer += decoder.decode(chunk, { stream: true });
    for (let nl = buffer.indexOf("\n"); nl >= 0; nl = buffer.indexOf("\n")) {
      const line = buffer.slice(0, nl);
      buffer = buffer.slice(nl + 1);
      let msg: Envelope;
      try {
        msg = JSON.parse(line) as Envelope;
      } catch {
        return fail();
      }
      const settle = waiting.get(msg.id);
      waiting.delete(msg.id);
      settle?.(msg);
    }
    if (waiting.size === 0) open?.unref();
  };
  const encoder = new TextEncoder();
  /** A long line may not fit the socket buffer at once: the rest goes out on drain, in order. */
  const flush = (c: Conn) => {
    if (!unsent) return;
    const n = c.write(unsent);
    unsent = n < unsent.length ? unsent.subarray(Math.max(n, 0)) : undefined;
  };
  const send = (c: Conn, line: string) => {
    const bytes = encoder.encode(line);
    if (unsent) {
      const joined = new Uint8Array(unsent.length + bytes.length);
      joined.set(unsent);
      joined.set(bytes, unsent.length);
      unsent = joined;
      return;
    }
    unsent = bytes;
    flush(c);
  };
  const connect = (): Promise<Conn | undefined> =>
    Bun.connect({
      unix: sock,
      socket: {
        data: (s, d) => {
          if (s === open) onData(d);
        },
        drain: (s) => flush(s),
        close: gone,
        error: gone,
        end: gone,
      },
    }).then(
      (c) => {
        open = c;
        return c;
      },
      () => {
        retryAt = performance.now() + retryMs;
        conn = undefined;
        return undefined;
      },
    );

  /** No socket file means no daemon: one stat, remembered until the retry time. */
  const absent = () => {
    if (conn || existsSync(sock)) return false;
    retryAt = performance.now() + retryMs;
    return true;
  };

  return {
    // Asked before a seam builds its request, so a machine with no daemon pays one stat, not the request's facts.
    get reachable() {
      return !isDown() && !absent();
    },
    async call(request, opts = {}) {
      if (isDown() || absent()) return undefined;
      conn ??= connect();
      const c = await conn;
      if (!c || c !== open) return undefined;
      const id = nextId++;
      const envelope = await new Promise<Envelope | undefined>((resolve) => {
        let timer: ReturnType<typeof setTimeout> | undefined;
        const done: Settle = (v) => {
          if (timer) clearTimeout(timer);
          opts.signal?.removeEventListener("abort", onAbort);
          waiting.delete(id);
          resolve(v);
        };
        const onAbort = () => done(undefined);
        waiting.set(id, done);
        if (opts.timeoutMs !== undefined) {
          // A daemon too slow to answer is treated as absent until the retry time.
          timer = setTimeout(() => {
            fail();
            done(undefined);
          }, opts.timeoutMs);
        }
        opts.signal?.addEventListener("abort", onAbort);
        c.ref();
        send(c, `${JSON.stringify({ ...request, id })}\n`);
      });
      if (waiting.size === 0) open?.unref();
      if (!envelope?.ok) return undefined;
      const { id: _id, ok: _ok, ...body } = envelope;
      return body as unknown as Reply<(typeof request)["method"]>;
    },
    close() {
      closed = true;
      const was = open;
      open = undefined;
      was?.end();
    },
  };
}

/** The daemon's `ping`, or undefined when nothing answers: what tells a running daemon from a socket file. */
export async function pingDaemon(
  sock: string,
  opts: { readonly egressFor?: string; readonly timeoutMs?: number } = {},
): Promise<PingReply | undefined> {
  const client = daemonClient(sock);
  try {
    const request = { method: "ping" as const, ...(opts.egressFor ? { egressFor: opts.egressFor } : {}) };
    return await client.call(request, { timeoutMs: opts.timeoutMs ?? CALL_TIMEOUT_MS });
  } finally {
    client.close();
  }
}
