// The listening side of memnox.sock: one JSON request per line in, one JSON answer per line out, by id.
import { chmodSync } from "node:fs";
import type { ActionClass } from "../core/action.ts";
import { describeError } from "../core/errors.ts";
import type { EvaluateRequest, Replies } from "../gate/remote/protocol.ts";
import { MAX_LINE } from "../gate/remote/protocol.ts";
import { verbTable } from "../resolve/tables/index.ts";
import { actionPattern } from "../resolve/tables/match.ts";
import type { DaemonCore } from "./core.ts";
import { parseDirect, parseRequest } from "./requests.ts";

interface Conn {
  buffer: string;
  unsent: Uint8Array | undefined;
  readonly aborts: AbortController;
  readonly decoder: TextDecoder;
}

type Sock = Bun.Socket<Conn>;

export interface SocketServer {
  /** Stops accepting, ends every connection and aborts what they wait on. */
  stop(): void;
}

const encoder = new TextEncoder();

function flush(s: Sock): void {
  const pending = s.data.unsent;
  if (!pending) return;
  const n = s.write(pending);
  s.data.unsent = n < pending.length ? pending.subarray(Math.max(n, 0)) : undefined;
}

function send(s: Sock, body: Record<string, unknown>): void {
  const bytes = encoder.encode(`${JSON.stringify(body)}\n`);
  const pending = s.data.unsent;
  if (pending) {
    const joined = new Uint8Array(pending.length + bytes.length);
    joined.set(pending);
    joined.set(bytes, pending.length);
    s.data.unsent = joined;
    return;
  }
  s.data.unsent = bytes;
  flush(s);
}

async function answer(core: DaemonCore, s: Sock, line: string): Promise<void> {
  let raw: unknown;
  try {
    raw = JSON.parse(line);
  } catch {
    return send(s, { id: 0, ok: false, error: "the line is not JSON" });
  }
  const id = typeof (raw as { id?: unknown })?.id === "number" ? (raw as { id: number }).id : 0;
  const direct = parseDirect(raw);
  if (direct) return answerDirect(core, s, id, direct);
  const parsed = parseRequest(raw);
  if (!parsed.ok) return send(s, { id, ok: false, error: parsed.error });
  const r = parsed.request;
  try {
    switch (r.method) {
      case "evaluate":
        send(s, { id, ok: true, ...withVerdict(await core.evaluate(r)) });
        // The row follows its answer in the same turn: nothing else is read before it is on the record.
        return core.settle();
      case "hold":
        return send(s, { id, ok: true, ...(await core.hold(r, s.data.aborts.signal)) });
      case "record":
        return send(s, { id, ok: true, ...core.record(r) });
      case "ping":
        return send(s, { id, ok: true, ...(await core.ping(r, s.data.aborts.signal)) });
      case "briefing":
        return send(s, { id, ok: true, ...core.briefing(r) });
    }
  } catch (e) {
    send(s, { id, ok: false, error: describeError(e) });
  }
}

/** `effect`, `reason` and `alternative` beside the answer, as the reference names them. */
function withVerdict(reply: Replies["evaluate"]): Record<string, unknown> {
  if (!("answer" in reply)) return reply;
  const a = reply.answer;
  return {
    ...reply,
    effect: a.effect,
    reason: a.reason,
    ...(a.alternative ? { alternative: a.alternative } : {}),
    // A held call: the id a person answers, and who may (a retry is claimed by fingerprint, the id is optional).
    ...(a.holdId ? { approvalId: a.holdId } : {}),
    ...(a.quorum ? { approvers: a.quorum.approvers, minApprovals: a.quorum.minApprovals } : {}),
  };
}

/** One action asked about by something that is not a seam: decided here, recorded with surface `cli`. */
async function answerDirect(
  core: DaemonCore,
  s: Sock,
  id: number,
  parsed: NonNullable<ReturnType<typeof parseDirect>>,
): Promise<void> {
  if (!parsed.ok) return send(s, { id, ok: false, error: parsed.error });
  const d = parsed.request;
  const cli = d.action.split(".")[0] ?? "";
  const entry = verbTable(cli)?.verbs.find((e) => actionPattern(e) === d.action);
  const cls: ActionClass = entry?.class ?? FILE_CLASSES[d.action] ?? "unknown";
  const request: EvaluateRequest = {
    method: "evaluate",
    version: core.version,
    surface: "cli",
    cwd: d.cwd ?? "/",
    canAsk: false,
    ...(d.agent ? { agent: d.agent } : {}),
    ...(d.session ? { session: d.session } : {}),
    caller: {},
    given: "action",
    actions: [{ name: d.action, class: cls, targets: d.target ? [d.target] : [], args: false }],
    normalized: d.action,
    unknown: [],
    rawArguments: false,
    argsDigest: d.argsDigest ?? "",
    at: { epochMs: core.now() },
  };
  try {
    send(s, { id, ok: true, ...withVerdict(await core.evaluate(request, true)) });
    return core.settle();
  } catch (e) {
    send(s, { id, ok: false, error: describeError(e) });
  }
}

const FILE_CLASSES: Readonly<Record<string, ActionClass>> = {
  "filesystem.read": "read",
  "filesystem.list": "read",
  "filesystem.write": "write",
  "filesystem.delete": "destructive",
  "http.request": "communication",
  "http.loopback": "read",
};

function onData(core: DaemonCore, s: Sock, chunk: Uint8Array): void {
  const c = s.data;
  c.buffer += c.decoder.decode(chunk, { stream: true });
  for (let nl = c.buffer.indexOf("\n"); nl >= 0; nl = c.buffer.indexOf("\n")) {
    const line = c.buffer.slice(0, nl);
    c.buffer = c.buffer.slice(nl + 1);
    if (line.trim()) void answer(core, s, line);
  }
  if (c.buffer.length > MAX_LINE) {
    send(s, { id: 0, ok: false, error: `a request line is longer than ${MAX_LINE} bytes` });
    s.end();
  }
}

/** Listens on `path`, owner only: the socket 0600 inside the 0700 directory that holds it. */
export function listenSocket(path: string, core: DaemonCore): SocketServer {
  const conns = new Set<Sock>();
  const server = Bun.listen<Conn>({
    unix: path,
    socket: {
      open(s) {
        s.data = { buffer: "", unsent: undefined, aborts: new AbortController(), decoder: new TextDecoder() };
        conns.add(s);
      },
      data: (s, chunk) => onData(core, s, chunk),
      drain: flush,
      close(s) {
        conns.delete(s);
        s.data.aborts.abort();
      },
      error(s) {
        conns.delete(s);
        s.data.aborts.abort();
      },
    },
  });
  chmodSync(path, 0o600);
  return {
    stop() {
      for (const s of conns) {
        s.data.aborts.abort();
        s.end();
      }
      server.stop(true);
    },
  };
}
