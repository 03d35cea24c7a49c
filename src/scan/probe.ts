// Starting somebody else's MCP server is the one thing a scan does that runs code: `initialize`, `tools/list`
// (every page), then the child is closed. Its stderr is dropped unread, so nothing it prints can carry a secret out.

export interface ProbeTarget {
  readonly key: string;
  /** The server's name in its client's file, for the progress a person watches. */
  readonly name: string;
  readonly command: string;
  readonly args: readonly string[];
  /** The full environment the agent would hand it, its config's own values included; never printed. */
  readonly env: Readonly<Record<string, string>>;
  readonly cwd: string;
}

export interface ProbedTool {
  readonly name: string;
  readonly annotations?: unknown;
}

export type ProbeResult =
  | { readonly ok: true; readonly tools: readonly ProbedTool[] }
  | { readonly ok: false; readonly why: string };

const MAX_PAGES = 50;
const CLOSE_MS = 3000;
const CLOSE_SLOW_MS = 300;

class TimedOut extends Error {}

function within<T>(p: Promise<T>, ms: number): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const t = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new TimedOut()), ms);
  });
  return Promise.race([p, t]).finally(() => clearTimeout(timer));
}

async function probeOne(t: ProbeTarget, timeoutMs: number, version: string): Promise<ProbeResult> {
  const { Client } = await import("@modelcontextprotocol/sdk/client/index.js");
  const { StdioClientTransport } = await import("@modelcontextprotocol/sdk/client/stdio.js");
  const transport = new StdioClientTransport({
    command: t.command,
    args: [...t.args],
    env: { ...t.env },
    cwd: t.cwd,
    stderr: "ignore",
  });
  const client = new Client({ name: "memnox-scan", version }, { capabilities: {} });
  const work = async (): Promise<ProbedTool[]> => {
    await client.connect(transport, { timeout: timeoutMs });
    const tools: ProbedTool[] = [];
    let cursor: string | undefined;
    for (let page = 0; page < MAX_PAGES; page++) {
      const r = await client.listTools(cursor ? { cursor } : {}, { timeout: timeoutMs });
      for (const tool of r.tools) tools.push({ name: tool.name, annotations: tool.annotations });
      cursor = r.nextCursor;
      if (!cursor) break;
    }
    return tools;
  };
  let slow = false;
  try {
    return { ok: true, tools: await within(work(), timeoutMs) };
  } catch (e) {
    slow = e instanceof TimedOut;
    if (slow) return { ok: false, why: `it did not list its tools within ${Math.round(timeoutMs / 1000)} s` };
    // The SDK's message can quote what the server said; only its kind is kept.
    const code = (e as NodeJS.ErrnoException).code;
    return { ok: false, why: code === "ENOENT" ? "its command was not found" : "it did not answer as an MCP server" };
  } finally {
    // A server that never answered is not waited on again: closing ends its process either way.
    await within(client.close(), slow ? CLOSE_SLOW_MS : CLOSE_MS).catch(() => undefined);
  }
}

/** Where a probe of several servers stands: which have answered (or given up) and which are still starting. */
export interface ProbeProgress {
  readonly total: number;
  readonly done: number;
  readonly waiting: readonly string[];
  readonly timeoutMs: number;
}

/** Every target at once, each bounded by `timeoutMs`; `onProgress` hears each start and each answer. */
export async function probeServers(
  targets: readonly ProbeTarget[],
  timeoutMs: number,
  version: string,
  onProgress?: (p: ProbeProgress) => void,
): Promise<Map<string, ProbeResult>> {
  const waiting = new Set(targets.map((t) => t.key));
  const names = new Map(targets.map((t) => [t.key, t.name]));
  const tell = () =>
    onProgress?.({
      total: targets.length,
      done: targets.length - waiting.size,
      waiting: [...waiting].map((k) => names.get(k) ?? k),
      timeoutMs,
    });
  if (targets.length > 0) tell();
  const results = await Promise.all(
    targets.map(async (t) => {
      const r = await probeOne(t, timeoutMs, version);
      waiting.delete(t.key);
      tell();
      return [t.key, r] as const;
    }),
  );
  return new Map(results);
}
