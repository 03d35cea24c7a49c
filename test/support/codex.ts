// The real Codex CLI (node_modules/.bin/codex, 0.171) offline: a scripted Responses API on loopback that it talks to
// through a custom provider, whole `codex exec` sessions in a temporary HOME, and `codex app-server`'s `hooks/list`
// (what Codex's /hooks shows: each hook's key, current hash and trust status). Facts in
// ../shared/research/real-clients-offline.md.
import { appendFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../src/ports/index.ts";
import { runProcess } from "./binary.ts";
import { hermeticEnv } from "./home.ts";

export const CODEX = join(import.meta.dir, "..", "..", "node_modules", ".bin", "codex");

/** One model turn: run a shell command through `exec_command`, or answer with text. */
export type CodexTurn = { readonly cmd: string } | { readonly text: string };

export interface CodexRequest {
  readonly path: string;
  readonly input: readonly Record<string, unknown>[];
}

export interface ScriptedResponses extends AsyncDisposable {
  readonly url: string;
  readonly requests: readonly CodexRequest[];
  /** What the model was handed back for each call, by call id (`function_call_output`). */
  outputs(): Map<string, string>;
  /** Every developer or user text the model could read. */
  context(): string;
}

/** Serves `turns` in order, one per `POST /v1/responses`, as the server-sent events Codex expects. */
export function scriptedResponses(turns: readonly CodexTurn[]): ScriptedResponses {
  const requests: CodexRequest[] = [];
  let n = 0;
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const text = await req.text();
      const body = (text ? JSON.parse(text) : {}) as { input?: Record<string, unknown>[] };
      requests.push({ path, input: body.input ?? [] });
      if (!path.endsWith("/responses")) return new Response("not found", { status: 404 });
      n += 1;
      return new Response(events(turns[n - 1] ?? { text: "done" }, n), {
        headers: { "content-type": "text/event-stream" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}/v1`,
    requests,
    outputs: () => {
      const out = new Map<string, string>();
      for (const r of requests)
        for (const i of r.input)
          if (i.type === "function_call_output" && typeof i.call_id === "string") out.set(i.call_id, String(i.output));
      return out;
    },
    context: () =>
      requests
        .flatMap((r) => r.input)
        .flatMap((i) => (Array.isArray(i.content) ? i.content : []))
        .map((c) => (typeof c === "object" && c && "text" in c ? String(c.text) : ""))
        .join("\n"),
    [Symbol.asyncDispose]: async () => {
      await server.stop(true);
    },
  };
}

function events(turn: CodexTurn, n: number): string {
  const id = `resp_${n}`;
  const ev = (type: string, data: Record<string, unknown>) =>
    `event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`;
  let item: Record<string, unknown>;
  let out = ev("response.created", { response: { id } });
  if ("cmd" in turn) {
    item = {
      type: "function_call",
      id: `fc_${n}`,
      call_id: `call_${n}`,
      name: "exec_command",
      arguments: JSON.stringify({ cmd: turn.cmd }),
      status: "completed",
    };
    out += ev("response.output_item.added", { output_index: 0, item });
  } else {
    item = {
      type: "message",
      id: `msg_${n}`,
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: turn.text, annotations: [] }],
    };
    out += ev("response.output_item.added", { output_index: 0, item: { ...item, content: [] } });
    out += ev("response.output_text.delta", { output_index: 0, content_index: 0, item_id: item.id, delta: turn.text });
  }
  out += ev("response.output_item.done", { output_index: 0, item });
  const usage = {
    input_tokens: 1,
    input_tokens_details: { cached_tokens: 0 },
    output_tokens: 1,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: 2,
  };
  return out + ev("response.completed", { response: { id, status: "completed", output: [item], usage } });
}

/**
 * `$CODEX_HOME/config.toml` pointing Codex at `url`; a file already there (setup added to it, trust was recorded)
 * only has its provider's base_url changed.
 */
export function codexConfig(home: string, url: string): string {
  const dir = join(home, ".codex");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "config.toml");
  if (existsSync(file) && readFileSync(file, "utf8").includes("[model_providers.mock]")) {
    writeFileSync(file, readFileSync(file, "utf8").replace(/^base_url = ".*"$/m, `base_url = "${url}"`));
    return file;
  }
  writeFileSync(
    file,
    [
      'model = "mock-model"',
      'model_provider = "mock"',
      "",
      "[model_providers.mock]",
      'name = "mock"',
      `base_url = "${url}"`,
      'env_key = "MOCK_API_KEY"',
      'wire_api = "responses"',
      "",
    ].join("\n"),
  );
  return file;
}

export interface CodexRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** One whole `codex exec` session in `cwd`, hooks trusted only as Codex trusts them (no bypass flag). */
export function runCodex(home: string, cwd: string, prompt: string, env: Env = {}): Promise<CodexRun> {
  return runProcess([CODEX, "exec", "--skip-git-repo-check", "--dangerously-bypass-approvals-and-sandbox", prompt], {
    cwd,
    env: hermeticEnv({ HOME: home, CODEX_HOME: join(home, ".codex"), MOCK_API_KEY: "x", ...env }),
  });
}

export interface ListedHook {
  readonly key: string;
  readonly eventName: string;
  readonly command: string;
  readonly timeoutSec: number;
  readonly currentHash: string;
  readonly trustStatus: string;
}

/** `codex app-server` over stdio: initialize, then `hooks/list` for `cwd`, exactly what /hooks reads. */
export async function listHooks(home: string, cwd: string): Promise<ListedHook[]> {
  const child = Bun.spawn([CODEX, "app-server"], {
    env: hermeticEnv({ HOME: home, CODEX_HOME: join(home, ".codex") }),
    stdin: "pipe",
    stdout: "pipe",
    stderr: "ignore",
  });
  const send = (o: unknown) => {
    child.stdin.write(`${JSON.stringify(o)}\n`);
    void child.stdin.flush();
  };
  send({ jsonrpc: "2.0", id: 1, method: "initialize", params: { clientInfo: { name: "memnox-test", version: "1" } } });
  const decoder = new TextDecoder();
  let buffered = "";
  try {
    for await (const chunk of child.stdout) {
      buffered += decoder.decode(chunk, { stream: true });
      for (let i = buffered.indexOf("\n"); i >= 0; i = buffered.indexOf("\n")) {
        const msg = JSON.parse(buffered.slice(0, i)) as { id?: number; result?: unknown; error?: unknown };
        buffered = buffered.slice(i + 1);
        if (msg.id === 1) {
          send({ jsonrpc: "2.0", method: "initialized" });
          send({ jsonrpc: "2.0", id: 2, method: "hooks/list", params: { cwds: [cwd] } });
        } else if (msg.id === 2) {
          if (msg.error) throw new Error(`hooks/list: ${JSON.stringify(msg.error)}`);
          const data = (msg.result as { data: { hooks: ListedHook[] }[] }).data;
          return data.flatMap((d) => d.hooks);
        }
      }
    }
    throw new Error("codex app-server closed before answering hooks/list");
  } finally {
    child.kill();
  }
}

/** What a person does in /hooks: each listed hook's current hash recorded as trusted in config.toml (once per key). */
export function trustAsCodexDoes(home: string, hooks: readonly Pick<ListedHook, "key" | "currentHash">[]): void {
  const file = join(home, ".codex", "config.toml");
  let text = readFileSync(file, "utf8");
  for (const h of hooks) {
    const header = `[hooks.state.${JSON.stringify(h.key)}]`;
    text = text.replace(new RegExp(`\\n?${escapeRegExp(header)}\\ntrusted_hash = "[^"]*"\\n`, "g"), "\n");
  }
  writeFileSync(file, text);
  appendFileSync(
    file,
    hooks.map((h) => `\n[hooks.state.${JSON.stringify(h.key)}]\ntrusted_hash = "${h.currentHash}"\n`).join(""),
  );
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
