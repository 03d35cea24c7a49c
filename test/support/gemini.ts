// The real Gemini CLI (node_modules/.bin/gemini, 0.61) offline: a scripted Gemini API on loopback (the model-router's
// side call and the streamed conversation), whole `gemini -p` sessions in a temporary HOME. Facts in
// ../shared/research/real-clients-offline.md.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../src/ports/index.ts";
import { runProcess } from "./binary.ts";
import { hermeticEnv } from "./home.ts";

export const GEMINI = join(import.meta.dir, "..", "..", "node_modules", ".bin", "gemini");

export type GeminiTurn = { readonly shell: string } | { readonly text: string };

interface Part {
  readonly text?: string;
  readonly functionResponse?: { readonly name: string; readonly response: Record<string, unknown> };
}

export interface ScriptedGemini extends AsyncDisposable {
  readonly url: string;
  /** The conversation's requests (`streamGenerateContent`), each with the contents it sent. */
  readonly requests: readonly { readonly contents: readonly { readonly role: string; readonly parts: Part[] }[] }[];
  /** What each shell call gave back to the model, in order: its output, or the error a hook refusal made. */
  results(): Record<string, unknown>[];
  /** The text parts of the person's first turn, as the model read them. */
  firstTurn(): string[];
}

export function scriptedGemini(turns: readonly GeminiTurn[]): ScriptedGemini {
  const requests: ScriptedGemini["requests"][number][] = [];
  let n = 0;
  const usage = { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 };
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    async fetch(req) {
      const path = new URL(req.url).pathname;
      const body = (await req.json().catch(() => ({}))) as {
        contents?: ScriptedGemini["requests"][number]["contents"];
      };
      if (path.includes(":generateContent")) {
        // The model router's side call: a JSON verdict on the prompt's complexity.
        const text = JSON.stringify({ complexity_reasoning: "simple", complexity_score: 1 });
        return Response.json({
          candidates: [{ content: { role: "model", parts: [{ text }] }, finishReason: "STOP", index: 0 }],
          usageMetadata: usage,
        });
      }
      if (!path.includes(":streamGenerateContent")) return new Response("not found", { status: 404 });
      requests.push({ contents: body.contents ?? [] });
      const turn = turns[n] ?? { text: "done" };
      n += 1;
      const part =
        "shell" in turn ? { functionCall: { name: "run_shell_command", args: { command: turn.shell } } } : turn;
      const chunk = { candidates: [{ content: { role: "model", parts: [part] }, finishReason: "STOP", index: 0 }] };
      return new Response(`data: ${JSON.stringify({ ...chunk, usageMetadata: usage })}\n\n`, {
        headers: { "content-type": "text/event-stream" },
      });
    },
  });
  return {
    url: `http://127.0.0.1:${server.port}`,
    requests,
    results: () => {
      const last = requests.at(-1)?.contents ?? [];
      return last.flatMap((c) => c.parts.flatMap((p) => (p.functionResponse ? [p.functionResponse.response] : [])));
    },
    firstTurn: () => (requests[0]?.contents.find((c) => c.role === "user")?.parts ?? []).map((p) => p.text ?? ""),
    [Symbol.asyncDispose]: async () => {
      await server.stop(true);
    },
  };
}

/** ~/.gemini/settings.json that picks the API-key auth a base URL needs, with updates and telemetry off. */
export function geminiSettings(home: string): void {
  const dir = join(home, ".gemini");
  mkdirSync(dir, { recursive: true });
  const file = join(dir, "settings.json");
  let current: Record<string, unknown> = {};
  try {
    current = JSON.parse(readFileSync(file, "utf8")) as Record<string, unknown>;
  } catch {
    // a first file
  }
  const settings = {
    ...current,
    security: { auth: { selectedType: "gemini-api-key" } },
    general: { disableAutoUpdate: true },
    privacy: { usageStatisticsEnabled: false },
    telemetry: { enabled: false },
  };
  writeFileSync(file, `${JSON.stringify(settings, null, 2)}\n`);
}

export interface GeminiRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The `-o json` result: `session_id`, `response`, `stats`. */
  readonly result: { readonly session_id?: string; readonly response?: string };
}

/** One whole headless session: the shell tool registered (--yolo), the folder trusted for the run. */
export async function runGemini(
  home: string,
  cwd: string,
  url: string,
  prompt: string,
  env: Env = {},
): Promise<GeminiRun> {
  const { code, stdout, stderr } = await runProcess([GEMINI, "-p", prompt, "--yolo", "--skip-trust", "-o", "json"], {
    cwd,
    env: hermeticEnv({ HOME: home, GEMINI_API_KEY: "x", GOOGLE_GEMINI_BASE_URL: url, ...env }),
  });
  let result: GeminiRun["result"] = {};
  try {
    result = JSON.parse(stdout) as GeminiRun["result"];
  } catch {
    // left empty: the caller's assertions show what was printed
  }
  return { code, stdout, stderr, result };
}
