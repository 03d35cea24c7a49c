// Harness-native session files (pi, Claude Code, Codex) read into memex turns and a session header. Tolerant: a line
// that is not JSON or not conversation is skipped, an unparseable time becomes unknown; token counts are metadata.

export const HARNESSES = ["pi", "claude", "codex", "custom"] as const;
export type Harness = (typeof HARNESSES)[number];

interface HarnessTurn {
  readonly role: "user" | "agent" | "tool";
  readonly content: string;
  readonly turn: number;
  readonly ts?: string;
  readonly tool_name?: string;
  readonly result?: string;
  readonly query?: string;
  readonly token_usage?: Readonly<Record<string, number>>;
}

interface HarnessHeader {
  readonly type: "memex_session_header";
  readonly harness: string;
  readonly session_id: string;
  readonly started_at: string | null;
  readonly ended_at: string | null;
  readonly duration_s: number | null;
  readonly token_usage?: Readonly<Record<string, number>>;
  readonly meta: Readonly<Record<string, unknown>>;
}

interface ParsedSession {
  readonly header: HarnessHeader;
  readonly turns: readonly HarnessTurn[];
}

type Json = Record<string, unknown>;
type Draft = Omit<HarnessTurn, "turn">;

const obj = (v: unknown): Json | undefined =>
  v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Json) : undefined;
const str = (v: unknown): string | undefined => (typeof v === "string" && v ? v : undefined);

function lines(text: string): Json[] {
  const out: Json[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      const o = obj(JSON.parse(line));
      if (o) out.push(o);
    } catch {
      // a torn or foreign line is not conversation
    }
  }
  return out;
}

/** ISO 8601 UTC to the second, from an ISO string or epoch milliseconds; undefined when unknown. */
function normalizeTs(v: unknown): string | undefined {
  const ms = typeof v === "number" ? v : typeof v === "string" ? Date.parse(v) : Number.NaN;
  return Number.isFinite(ms) ? `${new Date(ms).toISOString().slice(0, 19)}Z` : undefined;
}

function blocksText(content: unknown, kinds: readonly string[] = ["text"]): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .flatMap((b) => {
      const o = obj(b);
      const t = o && kinds.includes(String(o.type)) ? o.text : undefined;
      return typeof t === "string" && t ? [t] : [];
    })
    .join("\n");
}

function usageOf(v: unknown): Record<string, number> | undefined {
  const o = obj(v);
  if (!o) return undefined;
  const out: Record<string, number> = {};
  for (const [k, n] of Object.entries(o)) if (typeof n === "number" && Number.isInteger(n)) out[k] = n;
  return Object.keys(out).length > 0 ? out : undefined;
}

function opt<K extends string, T>(key: K, v: T | undefined): { [P in K]?: T } {
  return (v === undefined ? {} : { [key]: v }) as { [P in K]?: T };
}

/** Numbered from 1 in file order; a turn with no text at all is dropped. */
function finalize(drafts: readonly Draft[]): HarnessTurn[] {
  return drafts
    .filter((d) => (d.content + (d.result ?? "") + (d.query ?? "")).trim())
    .map((d, i) => ({ ...d, turn: i + 1 }));
}

function duration(start: string | undefined, end: string | undefined): number | null {
  if (!start || !end) return null;
  const d = (Date.parse(end) - Date.parse(start)) / 1000;
  return d >= 0 ? d : null;
}

function header(
  harness: string,
  id: string,
  start: string | undefined,
  end: string | undefined,
  meta: Json,
  usage?: Record<string, number>,
): HarnessHeader {
  return {
    type: "memex_session_header",
    harness,
    session_id: id,
    started_at: start ?? null,
    ended_at: end ?? null,
    duration_s: duration(start, end),
    ...(usage ? { token_usage: usage } : {}),
    meta: Object.fromEntries(Object.entries(meta).filter(([, v]) => v !== undefined && v !== null)),
  };
}

/** pi's session JSONL (v3): user and assistant text, toolResult and bashExecution as tool turns. */
function parsePi(entries: readonly Json[], fallbackId: string): ParsedSession {
  const drafts: Draft[] = [];
  let session: Json | undefined;
  let start: string | undefined;
  let end: string | undefined;
  for (const e of entries) {
    const ts = normalizeTs(e.timestamp);
    if (ts) {
      start ??= ts;
      end = ts;
    }
    if (e.type === "session") session ??= e;
    const m = e.type === "message" ? obj(e.message) : undefined;
    if (!m) continue;
    const at = normalizeTs(m.timestamp) ?? ts;
    const base = opt("ts", at);
    if (m.role === "user") drafts.push({ role: "user", content: blocksText(m.content), ...base });
    else if (m.role === "assistant") drafts.push({ role: "agent", content: blocksText(m.content), ...base });
    else if (m.role === "toolResult") {
      const name = str(m.toolName) ?? "tool";
      drafts.push({ role: "tool", content: name, tool_name: name, result: blocksText(m.content), ...base });
    } else if (m.role === "bashExecution") {
      const command = str(m.command) ?? "";
      drafts.push({
        role: "tool",
        content: command,
        tool_name: "bash",
        result: typeof m.output === "string" ? m.output : "",
        query: command,
        ...base,
      });
    }
  }
  const id = str(session?.id) ?? fallbackId;
  return { header: header("pi", id, start, end, { cwd: session?.cwd }), turns: finalize(drafts) };
}

/** Claude Code's transcript JSONL: text turns, tool_use and tool_result blocks as tool turns; sidechains excluded. */
function parseClaude(entries: readonly Json[], fallbackId: string): ParsedSession {
  const drafts: Draft[] = [];
  let start: string | undefined;
  let end: string | undefined;
  let id: string | undefined;
  let latest: Json | undefined;
  const models: string[] = [];
  const totals: Record<string, number> = {};
  let lastAgent = -1;
  for (const e of entries) {
    const ts = normalizeTs(e.timestamp);
    if (ts) {
      start ??= ts;
      end = ts;
    }
    id ??= str(e.sessionId);
    if ("cwd" in e || "version" in e || "gitBranch" in e) latest = e;
    if (e.isSidechain === true || (e.type !== "user" && e.type !== "assistant")) continue;
    const m = obj(e.message);
    if (!m) continue;
    const blocks = Array.isArray(m.content) ? m.content.map(obj).filter((b): b is Json => b !== undefined) : [];
    const base = opt("ts", ts);
    if (e.type === "assistant") {
      const model = str(m.model);
      if (model && !models.includes(model)) models.push(model);
      const usage = usageOf(m.usage);
      for (const [k, n] of Object.entries(usage ?? {})) totals[k] = (totals[k] ?? 0) + n;
      const text = blocksText(m.content);
      if (text.trim()) {
        drafts.push({ role: "agent", content: text, ...base, ...opt("token_usage", usage) });
        lastAgent = drafts.length - 1;
      } else if (usage && lastAgent >= 0) {
        const prev = drafts[lastAgent];
        if (prev) drafts[lastAgent] = { ...prev, token_usage: usage };
      }
      for (const b of blocks) {
        if (b.type !== "tool_use") continue;
        const name = str(b.name) ?? "tool";
        drafts.push({ role: "tool", content: name, tool_name: name, query: JSON.stringify(b.input ?? {}), ...base });
      }
    } else {
      const text = blocksText(m.content);
      if (text.trim()) drafts.push({ role: "user", content: text, ...base });
      for (const b of blocks) {
        if (b.type !== "tool_result") continue;
        drafts.push({ role: "tool", content: "tool_result", result: blocksText(b.content), ...base });
      }
    }
  }
  const meta = { cli_version: latest?.version, cwd: latest?.cwd, git_branch: latest?.gitBranch, models };
  const usage = Object.keys(totals).length > 0 ? totals : undefined;
  return { header: header("claude", id ?? fallbackId, start, end, meta, usage), turns: finalize(drafts) };
}

/** A Codex rollout: response items as turns, function calls and their outputs as tool turns, usage never summed. */
function parseCodex(entries: readonly Json[], fallbackId: string): ParsedSession {
  const drafts: Draft[] = [];
  let first: Json | undefined;
  let latest: Json | undefined;
  let start: string | undefined;
  let end: string | undefined;
  let thread: Record<string, number> | undefined;
  let lastAgent = -1;
  const models: string[] = [];
  const calls = new Map<string, string>();
  for (const e of entries) {
    const ts = normalizeTs(e.timestamp);
    if (ts) end = ts;
    const p = obj(e.payload);
    if (!p) continue;
    const base = opt("ts", ts);
    if (e.type === "session_meta") {
      if (!first) {
        first = p;
        start = normalizeTs(p.timestamp) ?? ts;
      }
      latest = p;
      continue;
    }
    if (e.type === "turn_context") {
      const model = str(p.model);
      if (model && !models.includes(model)) models.push(model);
      continue;
    }
    if (e.type === "token_usage_record" || e.type === "event_msg") {
      thread = usageOf(p.thread_token_usage) ?? thread;
      const turn = usageOf(p.turn_token_usage);
      const prev = drafts[lastAgent];
      if (turn && prev) drafts[lastAgent] = { ...prev, token_usage: turn };
      continue;
    }
    if (e.type !== "response_item") continue;
    if (p.type === "message") {
      const text = blocksText(p.content, ["input_text", "output_text", "text"]);
      if (!text.trim()) continue;
      if (p.role === "user") drafts.push({ role: "user", content: text, ...base });
      else if (p.role === "assistant") {
        drafts.push({ role: "agent", content: text, ...base });
        lastAgent = drafts.length - 1;
      }
    } else if (p.type === "function_call" || p.type === "custom_tool_call") {
      const name = str(p.name) ?? String(p.type);
      const callId = str(p.call_id);
      if (callId) calls.set(callId, name);
      const query = str(p.arguments) ?? str(p.input);
      drafts.push({ role: "tool", content: name, tool_name: name, ...opt("query", query), ...base });
    } else if (p.type === "function_call_output" || p.type === "custom_tool_call_output") {
      const name = calls.get(str(p.call_id) ?? "");
      const output = typeof p.output === "string" ? p.output : JSON.stringify(p.output ?? "");
      drafts.push({ role: "tool", content: name ?? "tool_output", ...opt("tool_name", name), result: output, ...base });
    }
  }
  const meta = {
    cli_version: latest?.cli_version,
    provider: latest?.model_provider,
    cwd: latest?.cwd,
    git: obj(latest?.git),
    models,
    ...(latest && latest !== first ? { resumed: true } : {}),
  };
  const id = str(first?.session_id) ?? str(first?.id) ?? fallbackId;
  return { header: header("codex", id, start, end, meta, thread), turns: finalize(drafts) };
}

/** A file already in memex's format (an optional header, then turns): for harnesses memnox does not know. */
function parseCustom(entries: readonly Json[], fallbackId: string): ParsedSession {
  const head = entries[0]?.type === "memex_session_header" ? entries[0] : undefined;
  const turns: Draft[] = entries.flatMap((e) => {
    if (e.role !== "user" && e.role !== "agent" && e.role !== "tool") return [];
    return [
      {
        role: e.role,
        content: typeof e.content === "string" ? e.content : "",
        ...opt("ts", normalizeTs(e.ts)),
        ...opt("tool_name", e.role === "tool" ? str(e.tool_name) : undefined),
        ...opt("result", e.role === "tool" ? str(e.result) : undefined),
        ...opt("query", str(e.query)),
      },
    ];
  });
  const start = str(head?.started_at) ?? turns.find((t) => t.ts)?.ts;
  const end = str(head?.ended_at) ?? turns.findLast((t) => t.ts)?.ts;
  const id = str(head?.session_id) ?? fallbackId;
  return { header: header(str(head?.harness) ?? "custom", id, start, end, {}), turns: finalize(turns) };
}

/** A session id safe as a file name, from the harness and the file's name when the file names none. */
export function suggestSessionId(harness: string, fileName: string): string {
  const stem = fileName.replace(/\.[^./]*$/, "");
  return cleanSessionId(`${harness}-${stem}`) || `${harness}-session`;
}

export function cleanSessionId(raw: string): string {
  return raw
    .replace(/[^A-Za-z0-9._-]+/g, "-")
    .replace(/^[-.]+|[-.]+$/g, "")
    .slice(0, 80);
}

export function parseHarnessSession(harness: Harness, text: string, fileName: string): ParsedSession {
  const entries = lines(text);
  const fallback = suggestSessionId(harness, fileName);
  if (harness === "pi") return parsePi(entries, fallback);
  if (harness === "claude") return parseClaude(entries, fallback);
  if (harness === "codex") return parseCodex(entries, fallback);
  return parseCustom(entries, fallback);
}
