// The egress proxy: plain HTTP and CONNECT tunnels on loopback, each request ruled by its host as `http.request`.
// It sees the destination and nothing else: one ledger row per request names the host, never a path or a header.
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { settle } from "../../gate/settle.ts";
import type { GateAnswer, HoldOutcome } from "../../gate/types.ts";
import { hostOf } from "../../resolve/commands/network.ts";

export interface EgressCaller {
  /** The session this listener was opened for (`memnox run` asks for one per session), when it was. */
  readonly session?: string;
}

/** How the proxy asks: the daemon's own decide(), or the gate of the `memnox run` that started it. */
export interface EgressGate {
  decide(host: string, caller: EgressCaller): Promise<GateAnswer>;
  awaitHold(holdId: string, signal: AbortSignal): Promise<HoldOutcome>;
}

export interface EgressProxy {
  readonly host: string;
  readonly port: number;
  /** When a request last arrived, and whether any connection is still open: a session's listener closes idle. */
  idleSince(): number | undefined;
  close(): Promise<void>;
}

export interface EgressOptions {
  /** 8888 unless said; when it is taken and `anyPort`, any free port. */
  readonly port?: number;
  readonly anyPort?: boolean;
  /** Whose requests arrive on this listener; the address itself is what declares the session. */
  readonly caller?: EgressCaller;
  readonly onError?: (message: string) => void;
}

export const EGRESS_HOST = "127.0.0.1";
export const EGRESS_PORT = 8888;

const HOP = new Set([
  "proxy-authorization",
  "proxy-connection",
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

type Admission = { readonly ok: true } | { readonly ok: false; readonly status: number; readonly reason: string };

/** Allow, or a refusal with words; an ask waits for a person (or the hold's expiry) before it is either. */
async function admit(gate: EgressGate, host: string, caller: EgressCaller, signal: AbortSignal): Promise<Admission> {
  const settled = await settle({
    decide: () => gate.decide(host, caller),
    awaitHold: (id, s) => gate.awaitHold(id, s ?? signal),
    signal,
  });
  if (settled.kind === "allow") return { ok: true };
  const a = settled.answer;
  const alt = a.alternative ? `\ninstead: ${a.alternative.note}` : "";
  return { ok: false, status: 403, reason: `memnox refused a request to ${host}: ${a.reason}${alt}` };
}

function refusalText(status: number, reason: string): string {
  const body = `${reason}\n`;
  const title = status === 403 ? "Forbidden" : status === 400 ? "Bad Request" : "Bad Gateway";
  return `HTTP/1.1 ${status} ${title}\r\ncontent-type: text/plain; charset=utf-8\r\ncontent-length: ${Buffer.byteLength(body)}\r\nx-memnox: refused\r\nconnection: close\r\n\r\n${body}`;
}

function onClose(stream: Duplex): AbortSignal {
  const ac = new AbortController();
  stream.once("close", () => ac.abort());
  return ac.signal;
}

async function plain(
  gate: EgressGate,
  caller: EgressCaller,
  req: http.IncomingMessage,
  res: http.ServerResponse,
): Promise<void> {
  const refuse = (status: number, reason: string) => {
    res.writeHead(status, { "content-type": "text/plain; charset=utf-8", "x-memnox": "refused" });
    res.end(`${reason}\n`);
  };
  let url: URL;
  try {
    url = new URL(req.url ?? "");
  } catch {
    return refuse(400, "this is memnox's egress proxy: send it absolute http:// URLs, or CONNECT for https");
  }
  const host = url.protocol === "http:" ? hostOf(url.host) : undefined;
  if (!host) return refuse(400, "this is memnox's egress proxy: only http:// URLs and CONNECT tunnels pass it");
  const admitted = await admit(gate, host, caller, onClose(req.socket));
  if (!admitted.ok) return refuse(admitted.status, admitted.reason);
  const headers: http.OutgoingHttpHeaders = {};
  for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k) && v !== undefined) headers[k] = v;
  const upstream = http.request(
    {
      host: url.hostname.replace(/^\[|\]$/g, ""),
      port: url.port || 80,
      method: req.method,
      path: url.pathname + url.search,
      headers,
    },
    (up) => {
      const out: http.OutgoingHttpHeaders = {};
      for (const [k, v] of Object.entries(up.headers)) if (!HOP.has(k) && v !== undefined) out[k] = v;
      res.writeHead(up.statusCode ?? 502, up.statusMessage, out);
      up.pipe(res);
    },
  );
  upstream.on("error", (e) => {
    if (!res.headersSent) refuse(502, `memnox's egress proxy could not reach ${host}: ${e.message}`);
    else res.destroy();
  });
  req.pipe(upstream);
}

async function tunnel(
  gate: EgressGate,
  caller: EgressCaller,
  req: http.IncomingMessage,
  client: Duplex,
  head: Buffer,
): Promise<void> {
  client.on("error", () => client.destroy());
  const target = req.url ?? "";
  const m = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(target);
  const host = m?.[1] ? hostOf(m[1]) : undefined;
  if (!host || !m?.[2]) {
    client.end(refusalText(400, "CONNECT needs host:port"));
    return;
  }
  const admitted = await admit(gate, host, caller, onClose(client));
  if (!admitted.ok) {
    client.end(refusalText(admitted.status, admitted.reason));
    return;
  }
  const upstream = net.connect(Number(m[2]), host.replace(/^\[|\]$/g, ""), () => {
    client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
    if (head.length > 0) upstream.write(head);
    upstream.pipe(client);
    client.pipe(upstream);
  });
  upstream.on("error", (e) => {
    if (upstream.connecting)
      client.end(refusalText(502, `memnox's egress proxy could not reach ${host}: ${e.message}`));
    else client.destroy();
  });
  client.on("close", () => upstream.destroy());
}

function listen(server: http.Server, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const failed = (e: Error) => reject(e);
    server.once("error", failed);
    server.listen(port, EGRESS_HOST, () => {
      server.off("error", failed);
      const addr = server.address();
      resolve(typeof addr === "object" && addr ? addr.port : port);
    });
  });
}

export async function startEgressProxy(gate: EgressGate, opts: EgressOptions = {}): Promise<EgressProxy> {
  const report = opts.onError ?? (() => {});
  const caller = opts.caller ?? {};
  const server = http.createServer((req, res) => {
    plain(gate, caller, req, res).catch((e) => {
      report(`egress request failed: ${(e as Error).message}`);
      if (!res.headersSent) res.writeHead(502).end();
    });
  });
  // A tunnel leaves the HTTP server's books once established; closing the proxy must still end it.
  const tunnels = new Set<Duplex>();
  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Buffer) => {
    tunnels.add(client);
    client.once("close", () => tunnels.delete(client));
    tunnel(gate, caller, req, client, head).catch((e) => {
      report(`egress tunnel failed: ${(e as Error).message}`);
      client.destroy();
    });
  });
  let open = 0;
  let lastAt = performance.now();
  server.on("connection", (socket: Duplex) => {
    open += 1;
    lastAt = performance.now();
    socket.once("close", () => {
      open -= 1;
      lastAt = performance.now();
    });
  });
  const wanted = opts.port ?? EGRESS_PORT;
  let port: number;
  try {
    port = await listen(server, wanted);
  } catch (e) {
    if (!opts.anyPort || (e as NodeJS.ErrnoException).code !== "EADDRINUSE") throw e;
    port = await listen(server, 0);
  }
  return {
    host: EGRESS_HOST,
    port,
    idleSince: () => (open > 0 || tunnels.size > 0 ? undefined : lastAt),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        for (const t of tunnels) t.destroy();
      }),
  };
}
