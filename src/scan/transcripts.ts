// What an agent said, where the agent itself keeps it: Claude Code's session transcript (the `transcript_path` every
// hook payload names, `<config>/projects/<project>/<session>.jsonl`), Codex's rollout files
// (`$CODEX_HOME/sessions/YYYY/MM/DD/rollout-<time>-<session>.jsonl`) and Gemini CLI's chat recordings
// (`~/.gemini/tmp/<project>/chats/session-<time>-<first 8 of the session>.jsonl`, or `.json` from older versions).
// Read loosely: these are other programs' files, and a line memnox cannot read is skipped, never guessed at.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { claudeDir, codexHome, geminiDir } from "../core/agent-paths.ts";
import { isRecord } from "../core/record.ts";
import type { Env } from "../ports/index.ts";

interface Said {
  /** When the agent said it, where the file keeps a time. */
  readonly at?: string;
  readonly text: string;
}

interface Transcript {
  readonly path: string;
  readonly agent: string;
  /** What the agent wrote to its person, in order: its messages, not its tool calls or their results. */
  readonly said: readonly Said[];
}

type Obj = Record<string, unknown>;
const str = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);

function lines(path: string): unknown[] {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch {
    return [];
  }
  const out: unknown[] = [];
  for (const line of text.split("\n")) {
    if (!line.trim()) continue;
    try {
      out.push(JSON.parse(line));
    } catch {
      // A line still being written, or one this reader does not know: skipped.
    }
  }
  return out;
}

/** Text parts of a message's content: a string, or a list of `{type: "text"|"output_text", text}` parts. */
function textOf(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .map((p) =>
      isRecord(p) && (p.type === "text" || p.type === "output_text" || p.type === undefined) ? (str(p.text) ?? "") : "",
    )
    .filter(Boolean)
    .join("\n");
}

function said(text: string, at: string | undefined): Said[] {
  return text.trim() ? [{ text, ...(at ? { at } : {}) }] : [];
}

function claudeSaid(path: string): Said[] {
  return lines(path).flatMap((l) => {
    if (!isRecord(l) || l.type !== "assistant" || !isRecord(l.message)) return [];
    return said(textOf(l.message.content), str(l.timestamp));
  });
}

function codexSaid(path: string): Said[] {
  const rows = lines(path).filter(isRecord);
  const items = rows.flatMap((l) => {
    const p = l.payload;
    if (l.type !== "response_item" || !isRecord(p) || p.type !== "message" || p.role !== "assistant") return [];
    return said(textOf(p.content), str(l.timestamp));
  });
  if (items.length > 0) return items;
  // Older rollouts carry the agent's words only as events.
  return rows.flatMap((l) => {
    const p = l.payload;
    return l.type === "event_msg" && isRecord(p) && p.type === "agent_message"
      ? said(str(p.message) ?? "", str(l.timestamp))
      : [];
  });
}

function geminiSaid(path: string): Said[] {
  const records = path.endsWith(".json") ? [readJson(path)] : lines(path);
  const byId = new Map<string, Obj>();
  const take = (m: unknown) => {
    if (isRecord(m) && typeof m.id === "string" && typeof m.type === "string") byId.set(m.id, m);
  };
  for (const r of records) {
    if (!isRecord(r)) continue;
    if (Array.isArray(r.messages)) for (const m of r.messages) take(m);
    else if (isRecord(r.$set) && Array.isArray(r.$set.messages)) {
      byId.clear();
      for (const m of r.$set.messages) take(m);
    } else take(r);
  }
  return [...byId.values()]
    .filter((m) => m.type === "gemini")
    .flatMap((m) => said(textOf(m.content), str(m.timestamp)));
}

function readJson(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch {
    return undefined;
  }
}

function dirs(path: string): string[] {
  try {
    return readdirSync(path, { withFileTypes: true })
      .filter((d) => d.isDirectory())
      .map((d) => join(path, d.name));
  } catch {
    return [];
  }
}

function files(path: string): string[] {
  try {
    return readdirSync(path).map((n) => join(path, n));
  } catch {
    return [];
  }
}

const SAFE = /^[A-Za-z0-9._-]{1,128}$/;

function claudeFile(home: string, env: Env, session: string): string | undefined {
  const root = claudeDir(home, env);
  for (const d of dirs(join(root, "projects"))) {
    const f = join(d, `${session}.jsonl`);
    if (isFile(f)) return f;
  }
  return undefined;
}

function codexFile(home: string, env: Env, session: string): string | undefined {
  const root = join(codexHome(home, env), "sessions");
  for (const y of dirs(root))
    for (const m of dirs(y))
      for (const d of dirs(m)) {
        const f = files(d).find((x) => x.endsWith(`-${session}.jsonl`));
        if (f) return f;
      }
  return undefined;
}

function geminiFile(home: string, env: Env, session: string): string | undefined {
  const short = session.slice(0, 8);
  for (const p of dirs(join(geminiDir(home, env), "tmp"))) {
    for (const f of files(join(p, "chats"))) {
      const name = f.slice(f.lastIndexOf("/") + 1);
      if (!name.startsWith("session-") || !(name.endsWith(`-${short}.jsonl`) || name.endsWith(`-${short}.json`)))
        continue;
      const first = f.endsWith(".json") ? readJson(f) : lines(f)[0];
      if (isRecord(first) && first.sessionId === session) return f;
    }
  }
  return undefined;
}

function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

const READERS: Readonly<Record<string, (path: string) => Said[]>> = {
  "claude-code": claudeSaid,
  codex: codexSaid,
  "gemini-cli": geminiSaid,
};

/** The session's transcript where its agent keeps one (or at `given`), read; undefined when there is none. */
export function agentTranscript(
  o: { home: string; env: Env; agent: string; session: string },
  given?: string,
): Transcript | undefined {
  const read = READERS[o.agent];
  if (!read) return undefined;
  let path = given;
  if (!path && SAFE.test(o.session)) {
    if (o.agent === "claude-code") path = claudeFile(o.home, o.env, o.session);
    else if (o.agent === "codex") path = codexFile(o.home, o.env, o.session);
    else path = geminiFile(o.home, o.env, o.session);
  }
  if (!path || !isFile(path)) return undefined;
  return { path, agent: o.agent, said: read(path) };
}
