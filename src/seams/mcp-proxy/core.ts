// The one inspection point between agent and server: everything is relayed as it came except tools/list and tools/call.

import { isAbsolute, join, resolve } from "node:path";
import { describeError } from "../../core/errors.ts";
import { pathArguments, toolFileVerb } from "../../core/mcp-paths.ts";
import { isRecord } from "../../core/record.ts";
import { credentialShapes, maskSecrets } from "../../core/secrets.ts";
import type { GateRequest, GateServices } from "../../gate/types.ts";
import { classFromName, mcpActionName, mcpArguments } from "../../resolve/mcp-tools.ts";
import type { ManifestBuilder } from "../../state/mcp-manifest.ts";
import { type CallVerdict, heldProgress, judgeCall, type StopReason } from "./calls.ts";
import { frame, frameBytes, type Oversize } from "./framing.ts";
import { inspectToolResult } from "./instructions.ts";
import {
  errorMessage,
  INVALID_PARAMS,
  INVALID_REQUEST,
  idKey,
  isId,
  isModern,
  isResponse,
  type JsonRpcId,
  MESSAGE_TOO_LARGE,
  type Message,
  PARSE_ERROR,
  params,
  resultMessage,
  SERVER_INFO_KEY,
} from "./jsonrpc.ts";
import { refusalResult } from "./refusal.ts";
import { sortPage } from "./tools-page.ts";
import type { Visibility } from "./visibility.ts";

interface CoreOptions {
  /** The server's name in rules: calls are `mcp.<server>.<tool>`. */
  readonly server: string;
  readonly gate: GateServices;
  readonly visibility: Visibility;
  readonly manifest: ManifestBuilder;
  readonly cwd: string;
  /** The home `~` in a path argument stands for. */
  readonly home?: string;
  readonly session?: string;
  readonly agent?: string;
  readonly toClient: (bytes: Uint8Array) => void;
  readonly toServer: (bytes: Uint8Array) => void;
  /** Our own notes, on stderr beside the server's. */
  readonly log: (text: string) => void;
  readonly maxMessageBytes: number;
  /** How often a held call with a progress token hears that it is still held. */
  readonly holdHeartbeatMs: number;
  /** Monotonic milliseconds, for durations. */
  readonly elapsed: () => number;
  /** The agent's own session when its hook recorded this call too, so wariness reaches its other tools. */
  readonly hookedSession?: (call: HookedLookup) => Promise<string | undefined>;
  /** A hold this proxy waits on is stamped as its own, so it stops waiting once the proxy (and its agent) is gone. */
  readonly waitingOn?: (holdId: string) => void;
}

/** A relayed call as the agent's hook would have recorded it: the action, the raw arguments, how long ago it began. */
export interface HookedLookup {
  readonly action: string;
  readonly rawArguments: string;
  readonly sinceMs: number;
}

type Awaiting =
  | { readonly kind: "list"; readonly firstPage: boolean }
  | {
      readonly kind: "call";
      readonly action: string;
      readonly eventId?: string;
      readonly started: number;
      readonly rawArguments: string;
    };

const decoder = new TextDecoder();

export class ProxyCore {
  /** Client requests relayed to the server whose responses we read, by id (client id space). */
  private readonly awaiting = new Map<string, Awaiting>();
  /** Client calls not yet relayed: being decided or held for a person. */
  private readonly gating = new Map<string, AbortController>();
  private readonly tasks = new Set<Promise<void>>();
  private serverInfo: unknown;

  constructor(private readonly o: CoreOptions) {}

  fromClient(line: Uint8Array): void {
    let parsed: unknown;
    try {
      parsed = JSON.parse(decoder.decode(line));
    } catch {
      this.o.log("memnox: the agent sent a line that is not JSON; it was not relayed\n");
      this.o.toClient(frame(errorMessage(null, PARSE_ERROR, "parse error: the line is not JSON")));
      return;
    }
    // A batch is taken apart so each call in it meets the gate; its answers come back one by one.
    if (Array.isArray(parsed)) for (const m of parsed) this.clientMessage(m, undefined);
    else this.clientMessage(parsed, line);
  }

  fromServer(line: Uint8Array): void {
    let parsed: unknown;
    try {
      // Only a line that may answer a call or list we wait for is parsed; the rest is relayed untouched.
      parsed = this.awaiting.size > 0 ? JSON.parse(decoder.decode(line)) : undefined;
    } catch {
      parsed = undefined;
    }
    if (parsed === undefined) {
      this.o.toClient(frameBytes(line));
    } else if (Array.isArray(parsed) && parsed.some((m) => this.awaited(m))) {
      for (const m of parsed) this.serverMessage(m, undefined);
    } else {
      this.serverMessage(parsed, line);
    }
  }

  clientOversize(info: Oversize): void {
    const what = `a message of ${info.bytes} bytes from the agent is over memnox's limit of ${this.o.maxMessageBytes} bytes`;
    this.o.log(`memnox: ${what}; it was not relayed\n`);
    if (info.hasId && isId(info.id) && info.method === undefined) {
      // The agent's answer to a server request: the server hears that it failed instead of waiting forever.
      this.o.toServer(frame(errorMessage(info.id, MESSAGE_TOO_LARGE, `${what}; it was not relayed`)));
    } else if (info.hasId || info.method === undefined) {
      const id = isId(info.id) ? info.id : null;
      this.o.toClient(frame(errorMessage(id, MESSAGE_TOO_LARGE, `${what}; it was not relayed`)));
    }
  }

  serverOversize(info: Oversize): void {
    const what = `a message of ${info.bytes} bytes from the server is over memnox's limit of ${this.o.maxMessageBytes} bytes`;
    this.o.log(`memnox: ${what}; it was not relayed\n`);
    if (!info.hasId || !isId(info.id)) return;
    if (info.method !== undefined) {
      this.o.toServer(frame(errorMessage(info.id, MESSAGE_TOO_LARGE, `${what}; it was not relayed`)));
      return;
    }
    const key = idKey(info.id);
    const entry = this.awaiting.get(key);
    this.awaiting.delete(key);
    if (entry?.kind === "call") this.outcome(entry, 1, "result over the size limit, not relayed");
    this.o.toClient(frame(errorMessage(info.id, MESSAGE_TOO_LARGE, `${what}; it was not relayed`)));
  }

  /** The agent is gone: held calls stop waiting, calls being decided finish deciding and are relayed or refused. */
  async closeClient(): Promise<void> {
    for (const c of this.gating.values()) c.abort("closing" satisfies StopReason);
    await this.settled();
  }

  /** Everything started has finished: decisions, outcome rows, wary marks. */
  async settled(): Promise<void> {
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
  }

  private clientMessage(m: unknown, raw: Uint8Array | undefined): void {
    if (!isRecord(m)) {
      this.o.toClient(frame(errorMessage(null, INVALID_REQUEST, "invalid request: a message must be an object")));
      return;
    }
    const msg = m as Message;
    if (msg.method === "tools/call") {
      this.startCall(msg);
      return;
    }
    if (msg.method === "tools/list" && isId(msg.id)) {
      this.awaiting.set(idKey(msg.id), { kind: "list", firstPage: params(msg).cursor === undefined });
    } else if (msg.method === "notifications/cancelled" && this.cancel(params(msg).requestId)) {
      return;
    }
    this.o.toServer(raw ? frameBytes(raw) : frame(JSON.stringify(msg)));
  }

  private startCall(msg: Message): void {
    if (!isId(msg.id)) {
      this.o.log("memnox: a tools/call without a usable id was not relayed\n");
      if (msg.id !== undefined) this.o.toClient(frame(errorMessage(null, INVALID_REQUEST, "tools/call needs an id")));
      return;
    }
    const id = msg.id;
    const key = idKey(id);
    if (this.awaiting.has(key) || this.gating.has(key)) {
      this.o.toClient(frame(errorMessage(id, INVALID_REQUEST, `request id ${JSON.stringify(id)} is already in use`)));
      return;
    }
    const tool = params(msg).name;
    if (typeof tool !== "string" || tool === "") {
      this.o.toClient(frame(errorMessage(id, INVALID_PARAMS, "tools/call needs params.name")));
      return;
    }
    const controller = new AbortController();
    this.gating.set(key, controller);
    this.track(
      this.call(msg, id, tool, controller.signal).finally(() => {
        this.gating.delete(key);
      }),
    );
  }

  private async call(msg: Message, id: JsonRpcId, tool: string, signal: AbortSignal): Promise<void> {
    const action = mcpActionName(this.o.server, tool);
    const judge = (request: GateRequest, name: string) =>
      judgeCall({
        gate: this.o.gate,
        request,
        action: name,
        tool,
        hiddenBy: this.o.visibility.hiddenBy(tool),
        signal,
        log: this.o.log,
        onHeld: (holdId) => {
          this.o.waitingOn?.(holdId);
          return heldProgress(msg, holdId, this.o.holdHeartbeatMs, (line) => this.o.toClient(frame(line)));
        },
      });
    const called = await judge(this.request(action, tool, params(msg).arguments), action);
    // The files its arguments name meet the rules about them too: a filesystem server's read of `.env` is a read.
    const files = called.kind === "forward" ? this.fileRequest(tool, params(msg).arguments) : undefined;
    const onFiles = files ? await judge(files, files.action?.name ?? action) : undefined;
    const verdict: CallVerdict = onFiles && onFiles.kind !== "forward" ? onFiles : called;
    if (verdict.kind === "cancelled") return;
    if (verdict.kind === "refuse") {
      const result = refusalResult(verdict.refusal, isModern(msg), this.serverInfo);
      this.o.toClient(frame(resultMessage(id, result)));
      return;
    }
    this.awaiting.set(idKey(id), {
      kind: "call",
      action,
      started: this.o.elapsed(),
      rawArguments: rawArgumentsOf(params(msg).arguments),
      ...(verdict.eventId ? { eventId: verdict.eventId } : {}),
    });
    // Re-serialised, so the server reads exactly the object that was gated (no duplicate keys read two ways).
    this.o.toServer(frame(JSON.stringify(msg)));
  }

  private request(action: string, tool: string, args: unknown): GateRequest {
    return {
      surface: "mcp",
      action: { name: action, class: this.classOf(tool), targets: [], arguments: mcpArguments(args) },
      cwd: this.o.cwd,
      canAsk: false,
      rawArguments: rawArgumentsOf(args),
      ...(this.o.session ? { session: this.o.session } : {}),
      ...(this.o.agent ? { agent: this.o.agent } : {}),
    };
  }

  /** The file action the call's path arguments name, if any. */
  private fileRequest(tool: string, args: unknown): GateRequest | undefined {
    const paths = pathArguments(args).map((p) => {
      const expanded = this.o.home && (p === "~" || p.startsWith("~/")) ? join(this.o.home, p.slice(1)) : p;
      return isAbsolute(expanded) ? resolve(expanded) : resolve(this.o.cwd, expanded);
    });
    if (paths.length === 0) return undefined;
    const verb = toolFileVerb(tool);
    const cls = verb === "delete" ? "destructive" : verb;
    return {
      surface: "mcp",
      action: { name: `filesystem.${verb}`, class: cls, targets: paths, arguments: mcpArguments(args) },
      cwd: this.o.cwd,
      canAsk: false,
      rawArguments: rawArgumentsOf(args),
      ...(this.o.session ? { session: this.o.session } : {}),
      ...(this.o.agent ? { agent: this.o.agent } : {}),
    };
  }

  private classOf(tool: string) {
    return this.o.manifest.classOf(tool) ?? classFromName(tool)?.class ?? "unknown";
  }

  /** A cancelled call that never reached the server ends here; the server is not told of a call it never saw. */
  private cancel(requestId: unknown): boolean {
    if (!isId(requestId)) return false;
    const key = idKey(requestId);
    const held = this.gating.get(key);
    if (held) {
      held.abort("cancelled" satisfies StopReason);
      return true;
    }
    const entry = this.awaiting.get(key);
    if (entry?.kind === "call") {
      this.awaiting.delete(key);
      this.outcome(entry, 1, "cancelled by the agent");
    }
    return false;
  }

  private awaited(m: unknown): boolean {
    return isRecord(m) && isResponse(m) && isId(m.id) && this.awaiting.has(idKey(m.id));
  }

  private serverMessage(m: unknown, raw: Uint8Array | undefined): void {
    const passOn = () => {
      this.o.toClient(raw ? frameBytes(raw) : frame(JSON.stringify(m)));
    };
    if (!this.awaited(m) || !isRecord(m) || !isId(m.id)) {
      passOn();
      return;
    }
    const key = idKey(m.id);
    const entry = this.awaiting.get(key);
    this.awaiting.delete(key);
    if (isRecord(m.result)) this.noteServerInfo(m.result);
    const replaced = entry?.kind === "list" ? this.listed(m, entry.firstPage) : entry && this.called(m, entry);
    if (replaced) this.o.toClient(frame(JSON.stringify(replaced)));
    else passOn();
  }

  private noteServerInfo(result: Record<string, unknown>): void {
    const meta = result._meta;
    if (isRecord(meta) && meta[SERVER_INFO_KEY] !== undefined) this.serverInfo = meta[SERVER_INFO_KEY];
  }

  /** Classify and cache every tool on the page; hidden ones leave the page. */
  private listed(m: Message, firstPage: boolean): Message | undefined {
    const result = m.result;
    if (!isRecord(result) || !Array.isArray(result.tools)) return undefined;
    const { entries, shown } = sortPage(result.tools, this.o.visibility);
    try {
      this.o.manifest.page(entries, firstPage, result.nextCursor === undefined);
    } catch (e) {
      this.o.log(`memnox: the tool manifest was not saved: ${describeError(e)}\n`);
    }
    return shown.length === result.tools.length ? undefined : { ...m, result: { ...result, tools: shown } };
  }

  /** Outcome row either way; a result that reads like instructions is quoted and the session made wary. */
  private called(m: Message, entry: Extract<Awaiting, { kind: "call" }>): Message | undefined {
    if (!isRecord(m.result)) {
      const code = isRecord(m.error) ? m.error.code : undefined;
      this.outcome(entry, 1, `json-rpc error ${String(code)}`);
      return undefined;
    }
    // A credential in what the server hands back is masked before the model reads it, as in memnox's own output.
    const masked = maskedResult(m.result);
    const inspected = inspectToolResult(masked.result);
    const exitCode = m.result.isError === true ? 1 : 0;
    if (inspected.rules.length === 0) {
      this.outcome(
        entry,
        exitCode,
        masked.kinds.length > 0 ? `credentials masked (${masked.kinds.join(", ")})` : undefined,
      );
      return masked.kinds.length > 0 ? { ...m, result: masked.result } : undefined;
    }
    const rules = inspected.rules.join(", ");
    this.outcome(entry, exitCode, `tool result read like instructions (${rules}); quoted as data`);
    this.wary(`instruction-shaped result from ${entry.action} (${rules})`, entry);
    return { ...m, result: inspected.result };
  }

  private outcome(entry: Extract<Awaiting, { kind: "call" }>, exitCode: number, note?: string): void {
    const eventId = entry.eventId;
    if (!eventId) return;
    const durationMs = Math.max(0, Math.round(this.o.elapsed() - entry.started));
    this.background(() =>
      this.o.gate.recordOutcome(eventId, { exitCode, durationMs, ...(note !== undefined ? { note } : {}) }),
    );
  }

  private wary(reason: string, entry: Extract<Awaiting, { kind: "call" }>): void {
    const session = this.o.session;
    const lookup = this.o.hookedSession;
    if (!session && !lookup) {
      this.o.log(`memnox: ${reason}, but no session is known to make wary\n`);
      return;
    }
    this.o.log(`memnox: ${reason}; this session's outward and destructive actions ask for 30 minutes\n`);
    if (session) this.background(() => this.o.gate.markWary(session, reason));
    if (!lookup) return;
    const call = { action: entry.action, rawArguments: entry.rawArguments, sinceMs: this.o.elapsed() - entry.started };
    // Without `memnox run` the agent's hook knows its session by another id: that one is made wary too.
    this.background(async () => {
      const hooked = await lookup(call);
      if (hooked && hooked !== session) await this.o.gate.markWary(hooked, reason);
    });
  }

  /** Recording never holds up the relay, and a record that fails is said on stderr, never to the model. */
  private background(fn: () => Promise<void>): void {
    this.track(
      fn().catch((e: unknown) => {
        this.o.log(`memnox: could not record: ${describeError(e)}\n`);
      }),
    );
  }

  private track(p: Promise<void>): void {
    const done = p
      .catch((e: unknown) => this.o.log(`memnox: ${describeError(e)}\n`))
      .finally(() => {
        this.tasks.delete(done);
      });
    this.tasks.add(done);
  }
}

/**
 * The result with every credential in its text masked (text content, and structured content as JSON text), and the
 * kinds found; the same result when there were none.
 */
function maskedResult(result: Record<string, unknown>): { result: Record<string, unknown>; kinds: string[] } {
  const kinds = new Set<string>();
  const mask = (text: string): string => {
    for (const k of credentialShapes(text)) kinds.add(k);
    const out = maskSecrets(text);
    if (out !== text && kinds.size === 0) kinds.add("secret");
    return out;
  };
  const content = Array.isArray(result.content)
    ? result.content.map((c) => (isRecord(c) && typeof c.text === "string" ? { ...c, text: mask(c.text) } : c))
    : result.content;
  let structured = result.structuredContent;
  if (structured !== undefined) {
    const text = JSON.stringify(structured);
    const out = mask(text);
    if (out !== text) structured = JSON.parse(out) as unknown;
  }
  if (kinds.size === 0) return { result, kinds: [] };
  return {
    result: { ...result, content, ...(structured !== undefined ? { structuredContent: structured } : {}) },
    kinds: [...kinds],
  };
}

/** The arguments as the gate digests them, the same for the relayed call and its later lookup. */
function rawArgumentsOf(args: unknown): string {
  return JSON.stringify(args ?? {});
}
