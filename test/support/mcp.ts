// The MCP proxy in-process: a scripted gate on the real hold store, and the real SDK Client speaking to runProxy.
import { join } from "node:path";
import { ReadBuffer, serializeMessage } from "@modelcontextprotocol/sdk/shared/stdio.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { type ProxyOptions, runProxy } from "../../src/seams/mcp-proxy/run.ts";

export type { Rule, ScriptedGate } from "./holding-gate.ts";
export { scriptedGate } from "./holding-gate.ts";

export const ROOT = join(import.meta.dir, "..", "..");
export const EVERYTHING = [join(ROOT, "node_modules", ".bin", "mcp-server-everything"), "stdio"];
export const SCRIPTED = [process.execPath, join(ROOT, "fixtures", "mcp", "scripted-server.ts")];

/** What a client says first, as raw JSON-RPC lines: initialize, then initialized. */
export const MCP_OPENING = [
  {
    jsonrpc: "2.0",
    id: 1,
    method: "initialize",
    params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
  },
  { jsonrpc: "2.0", method: "notifications/initialized" },
];

/** An SDK Transport over the proxy's own streams, framed by the SDK's ReadBuffer. */
export class ProxyTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  private readonly buffer = new ReadBuffer();
  private controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  readonly input = new ReadableStream<Uint8Array>({
    start: (c) => {
      this.controller = c;
    },
  });
  private closed = false;

  /** One message per macrotask, as separate pipe reads would arrive: the SDK runs notification handlers later. */
  receive(bytes: Uint8Array): void {
    this.buffer.append(Buffer.from(bytes));
    for (let m = this.buffer.readMessage(); m; m = this.buffer.readMessage()) {
      const message = m;
      setImmediate(() => this.onmessage?.(message));
    }
  }

  /** A raw line as an agent could write it, bypassing the SDK's own checks. */
  sendRaw(text: string): void {
    this.controller?.enqueue(new TextEncoder().encode(text));
  }

  async start(): Promise<void> {}

  async send(message: JSONRPCMessage): Promise<void> {
    this.sendRaw(serializeMessage(message));
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.controller?.close();
  }

  ended(): void {
    this.onclose?.();
  }
}

export interface RunningProxy {
  readonly transport: ProxyTransport;
  readonly exit: Promise<number>;
  /** Everything the proxy wrote to stderr so far. */
  readonly log: string[];
  /** Resolves with the first stderr note that matches. */
  logged(pattern: RegExp): Promise<string>;
}

export function startProxy(
  opts: Omit<ProxyOptions, "input" | "output" | "log" | "now"> & Partial<Pick<ProxyOptions, "now">>,
): RunningProxy {
  const transport = new ProxyTransport();
  const log: string[] = [];
  const watchers: { pattern: RegExp; resolve: (line: string) => void }[] = [];
  const exit = runProxy({
    now: () => Date.now(),
    ...opts,
    input: transport.input,
    output: { write: (bytes) => transport.receive(bytes) },
    log: (text) => {
      log.push(text);
      for (const w of [...watchers]) {
        if (w.pattern.test(text)) {
          watchers.splice(watchers.indexOf(w), 1);
          w.resolve(text);
        }
      }
    },
  }).finally(() => setImmediate(() => transport.ended()));
  return {
    transport,
    exit,
    log,
    logged: (pattern) => {
      const seen = log.find((l) => pattern.test(l));
      if (seen) return Promise.resolve(seen);
      return new Promise((resolve) => watchers.push({ pattern, resolve }));
    },
  };
}
