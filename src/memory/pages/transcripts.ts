// Session transcripts: stored scrubbed under transcripts/<date>/, linked to an episode page, traced back by provenance.
import { existsSync, lstatSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { basename, join } from "node:path";
import * as v from "valibot";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { subdirs } from "../format/layout.ts";
import type { Scope } from "../format/page.ts";
import type { ProjectRef } from "../format/project.ts";
import { scrub } from "../format/scrub.ts";
import { slugify } from "../format/slug.ts";
import { dateDir, isoSeconds, isTimestamp, timestampProblem } from "../format/time.ts";
import { memoryConfig } from "./config.ts";
import { restamp } from "./lifecycle.ts";
import { logOp } from "./oplog.ts";
import { findOne, type Selector, type Store, scanPages } from "./store.ts";
import { writePage } from "./write.ts";

const SESSION_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$/;

const Turn = v.object({
  role: v.picklist(["user", "agent", "tool"]),
  content: v.optional(v.string(), ""),
  turn: v.pipe(v.number(), v.integer(), v.minValue(1)),
  ts: v.optional(v.string()),
  tool_name: v.optional(v.string()),
  result: v.optional(v.string()),
  query: v.optional(v.string()),
  token_usage: v.optional(v.record(v.string(), v.number())),
});
type Turn = v.InferOutput<typeof Turn>;

const Header = v.looseObject({
  type: v.literal("memex_session_header"),
  harness: v.optional(v.nullable(v.string())),
  session_id: v.optional(v.string()),
  started_at: v.optional(v.nullable(v.string())),
  ended_at: v.optional(v.nullable(v.string())),
  token_usage: v.optional(v.record(v.string(), v.number())),
});
type Header = v.InferOutput<typeof Header>;

interface IngestInput {
  readonly sessionId: string;
  /** The JSONL text: an optional header line, then one turn per line. */
  readonly jsonl: string;
  readonly source: string;
  readonly harness?: string;
  readonly scope?: Scope;
  readonly project?: ProjectRef;
  /**
   * A session already stored is refused unless this is set; a harness hook sets it, since it captures the same
   * session again as it grows (the new turns are merged onto the stored ones, never duplicated).
   */
  readonly overwrite?: boolean;
  /** The project the session worked in, named in the sidecar (for a listing by project) when the episode is global. */
  readonly about?: ProjectRef;
}

export interface IngestReport {
  readonly session_id: string;
  readonly transcript_file: string;
  readonly meta_file: string;
  readonly episode_node: string;
  readonly episode_file_path: string;
  readonly turn_count: number;
  readonly user_turns: number;
  readonly agent_turns: number;
  readonly tool_turns: number;
  readonly redacted: readonly string[];
}

/** What is wrong with one turn, in memex's words, or undefined. */
function turnProblem(value: unknown): string | undefined {
  const o = value as Record<string, unknown>;
  // memex reads role, content, then turn; a tool turn may leave content out (the guide's own example does).
  if (!("content" in o) && o.role !== "tool") return "turn entry missing required field: content";
  if (!("turn" in o)) return "turn entry missing required field: turn";
  if (typeof o.role !== "string" || typeof o.turn !== "number" || !Number.isInteger(o.turn))
    return "turn entry fields role/content must be str and turn must be int";
  if (!["user", "agent", "tool"].includes(o.role))
    return `role must be one of ('user', 'agent', 'tool'), got ${pyRepr(o.role)}`;
  if (o.turn < 1) return "turn must be a 1-based integer";
  if (o.role !== "tool" && (o.tool_name !== undefined || o.result !== undefined))
    return "tool_name/result are only allowed when role='tool'";
  if (o.role !== "tool" && typeof o.content !== "string")
    return "turn entry fields role/content must be str and turn must be int";
  for (const key of ["content", "ts", "tool_name", "result", "query"])
    if (o[key] !== undefined && o[key] !== null && typeof o[key] !== "string")
      return `turn field ${key} must be a string`;
  if (typeof o.ts === "string" && o.ts && !isTimestamp(o.ts)) return timestampProblem("ts", o.ts);
  return undefined;
}

/** Every line checked before anything is stored: the first bad one is named as `file:line: why`. */
function parse(jsonl: string, source: string): { header?: Header; turns: Turn[] } {
  const turns: Turn[] = [];
  let header: Header | undefined;
  const at = (i: number) => `${basename(source)}:${i + 1}`;
  for (const [i, line] of jsonl.split("\n").entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch (e) {
      throw new MemnoxError("refused", `${at(i)}: not JSON (${(e as Error).message})`, "one JSON object per line");
    }
    if (turns.length === 0 && header === undefined && v.is(Header, value)) {
      header = value;
      continue;
    }
    // memex reads a line that is not a turn (no role: a header, a harness's own record) as no turn at all.
    if (value === null || typeof value !== "object" || Array.isArray(value) || !("role" in value)) continue;
    const problem = turnProblem(value);
    const r = problem === undefined ? v.safeParse(Turn, value) : undefined;
    if (!r?.success)
      throw new MemnoxError(
        "refused",
        `${at(i)}: ${problem ?? r?.issues[0]?.message ?? "not a turn"}`,
        "a turn is {role: user|agent|tool, content, turn}; nothing was stored",
      );
    turns.push(r.output);
  }
  if (turns.length === 0) throw new MemnoxError("refused", `${basename(source)} holds no turns`);
  return header ? { header, turns } : { turns };
}

/** The turns stored for a session before, header skipped; unreadable lines are dropped, never thrown. */
function storedTurns(file: string): Turn[] {
  if (!existsSync(file)) return [];
  const out: Turn[] = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    try {
      const r = v.safeParse(Turn, JSON.parse(line));
      if (r.success) out.push(r.output);
    } catch {
      // a header or a torn line
    }
  }
  return out;
}

const turnKey = (t: Turn) => `${t.role}\0${t.content}\0${t.result ?? ""}\0${t.query ?? ""}`;

/**
 * A later capture of the same session: normally it extends what was stored and replaces it; after a compaction the
 * harness file may hold less, so the stored turns are kept and only unseen ones appended, renumbered in order.
 */
function mergeTurns(old: readonly Turn[], fresh: readonly Turn[]): Turn[] {
  const extends_ = fresh.length >= old.length && old.every((t, i) => turnKey(t) === turnKey(fresh[i] ?? t));
  if (extends_ || old.length === 0) return [...fresh];
  const seen = new Set(old.map(turnKey));
  return [...old, ...fresh.filter((t) => !seen.has(turnKey(t)))].map((t, i) => ({ ...t, turn: i + 1 }));
}

/** An existing date folder for this session, so ingesting twice rewrites rather than duplicates. */
function existingDate(store: Store, sessionId: string): string | undefined {
  return subdirs(store.layout.transcripts).find((d) =>
    existsSync(join(store.layout.transcripts, d, `${sessionId}.jsonl`)),
  );
}

/** Python's repr of a string, as memex's messages quote a value. */
function pyRepr(v: unknown): string {
  return typeof v === "string" ? `'${v.replaceAll("\\", "\\\\").replaceAll("'", "\\'")}'` : String(v);
}

/** memex's episode summary: the turn counts, the intent (first real user turn), the outcome and the tools. */
function summary(sessionId: string, turns: readonly Turn[]): string {
  const n = (role: string) => turns.filter((t) => t.role === role).length;
  const lines = [
    `Session ${sessionId} with ${turns.length} turns (${n("user")} user, ${n("agent")} agent, ${n("tool")} tool).`,
  ];
  const noise = ["#", "<"];
  const intent = turns.find((t) => t.role === "user" && !noise.some((p) => t.content.startsWith(p)));
  if (intent?.content.trim()) lines.push(`\n**Intent:** ${intent.content.slice(0, 200).trim()}`);
  const outcome = [...turns].reverse().find((t) => t.role === "agent" && t.content.trim());
  if (outcome) lines.push(`\n**Outcome:** ${outcome.content.slice(0, 200).trim()}`);
  const tools = [...new Set(turns.flatMap((t) => (t.tool_name ? [t.tool_name] : [])))].sort().slice(0, 5);
  if (tools.length) lines.push(`\n**Tools:** ${tools.join(", ")}`);
  return lines.join("\n");
}

function render(turns: readonly Turn[]): string {
  return turns
    .map((t) => {
      const text = t.role === "tool" ? `${t.tool_name ?? "tool"}: ${t.result ?? t.content}` : t.content;
      const short = text.length > 1000 ? `${text.slice(0, 1000)}…` : text;
      return `- **${t.role}** (turn ${t.turn}): ${short.replace(/\s+/g, " ").trim()}`;
    })
    .join("\n");
}

export function ingestTranscript(store: Store, input: IngestInput): IngestReport {
  if (!SESSION_ID.test(input.sessionId))
    throw new MemnoxError(
      "refused",
      "session_id must be alphanumeric with '.', '_', '-' only",
      "it names the transcript's file: letters and digits first, then letters, digits, `.`, `_` and `-`",
    );
  const parsed = parse(input.jsonl, input.source);
  const { header } = parsed;
  const before = existingDate(store, input.sessionId);
  if (before !== undefined && !input.overwrite)
    throw new MemnoxError(
      "conflict",
      `transcript already exists: ${input.sessionId}.jsonl`,
      "pass --overwrite to replace it (its episode keeps its identity)",
    );
  const turns =
    before === undefined
      ? parsed.turns
      : mergeTurns(storedTurns(join(store.layout.transcripts, before, `${input.sessionId}.jsonl`)), parsed.turns);
  const kinds = new Set<string>();
  const clean = (s: string | undefined) => {
    if (s === undefined) return undefined;
    const r = scrub(s);
    for (const k of r.kinds) kinds.add(k);
    return r.text;
  };
  const stored = turns.map((t) => ({
    ...t,
    content: clean(t.content) ?? "",
    result: clean(t.result),
    query: clean(t.query),
  }));
  const started = header?.started_at ?? turns.find((t) => t.ts)?.ts;
  const date = before ?? (started && isTimestamp(started) ? started.slice(0, 10) : dateDir(store.now()));
  const dir = join(store.layout.transcripts, date);
  const file = join(dir, `${input.sessionId}.jsonl`);
  const metaFile = join(dir, `${input.sessionId}.meta.json`);
  const headerLine = header ? [JSON.parse(clean(JSON.stringify(header)) ?? "{}") as unknown] : [];
  const lines = [...headerLine, ...stored].map((x) =>
    JSON.stringify(x, (_, val) => (val === undefined ? undefined : val)),
  );
  writeFileAtomic(file, `${lines.join("\n")}\n`, 0o600);
  const count = (role: string) => turns.filter((t) => t.role === role).length;
  const harness = input.harness ?? header?.harness ?? null;
  writeFileAtomic(
    metaFile,
    `${JSON.stringify(
      {
        session_id: input.sessionId,
        harness,
        captured_at: isoSeconds(store.now()),
        started_at: started ?? null,
        ended_at: header?.ended_at ?? turns.at(-1)?.ts ?? null,
        turn_count: turns.length,
        episode_slug: slugify(input.sessionId) || input.sessionId.toLowerCase(),
        scope: input.scope ?? "global",
        project_id: (input.scope === "project" ? input.project : input.about)?.id ?? null,
        project_label: (input.scope === "project" ? input.project : input.about)?.label ?? null,
        token_usage: header?.token_usage ?? null,
        turn_token_usage: turns.flatMap((t) => (t.token_usage ? [{ turn: t.turn, ...t.token_usage }] : [])),
      },
      null,
      2,
    )}\n`,
    0o600,
  );
  const ref = `transcripts/${date}/${input.sessionId}.jsonl`;
  const firstUser =
    stored
      .find((t) => t.role === "user")
      ?.content.replace(/\s+/g, " ")
      .trim() ?? "";
  const max = memoryConfig(store).maxBodyChars;
  const body = `${summary(input.sessionId, stored)}\n\n${render(stored)}`;
  const episode = writePage(store, {
    type: "episode",
    title: `Session ${input.sessionId}`,
    body: body.length > max ? body.slice(0, max) : body,
    description: truncateBytes(firstUser, 200),
    scope: input.scope ?? "global",
    ...(input.project ? { project: input.project } : {}),
    slug: slugify(input.sessionId) || input.sessionId.toLowerCase(),
    sessionId: input.sessionId,
    transcriptRef: ref,
    source: "transcript",
    ...(harness ? { harness } : {}),
    ...(started && isTimestamp(started) ? { occurredAt: started } : {}),
    tags: ["session"],
    author: "person",
  });
  logOp(store, { op: "ingest-transcript", slugs: [episode.slug], count: turns.length, redacted: [...kinds] });
  return {
    session_id: input.sessionId,
    transcript_file: file,
    meta_file: metaFile,
    episode_node: episode.slug,
    episode_file_path: episode.file_path,
    turn_count: turns.length,
    user_turns: count("user"),
    agent_turns: count("agent"),
    tool_turns: count("tool"),
    redacted: [...kinds, ...episode.redacted.filter((k) => !kinds.has(k))],
  };
}

function truncateBytes(text: string, max: number): string {
  let out = text;
  while (new TextEncoder().encode(out).length > max) out = out.slice(0, -1);
  return out;
}

interface ClearReport {
  /** Sessions whose raw files were removed, as memex counts them. */
  readonly cleared: number;
  readonly removed_files: number;
  readonly retired_links: number;
}

/** Deletes every raw transcript; episodes stay, their transcript links marked retired. */
export function clearTranscripts(store: Store, confirm: boolean): ClearReport {
  if (!confirm)
    throw new MemnoxError(
      "refused",
      "transcript clearing requires confirm=True",
      "pass --confirm: it permanently deletes every raw session file; episode pages stay, their transcript links retired",
    );
  let removed = 0;
  let cleared = 0;
  for (const date of subdirs(store.layout.transcripts)) {
    const dir = join(store.layout.transcripts, date);
    for (const f of readdirSync(dir)) {
      if (f.endsWith(".meta.json")) cleared++;
      rmSync(join(dir, f), { force: true });
      removed++;
    }
    rmSync(dir, { recursive: true, force: true });
  }
  let retired = 0;
  for (const page of scanPages(store)) {
    if (page.transcript_ref && !page.transcript_ref.startsWith("retired:")) {
      restamp(store, page, { transcript_ref: `retired:${page.transcript_ref}` });
      retired++;
    }
  }
  logOp(store, { op: "clear-transcripts", count: removed });
  return { cleared, removed_files: removed, retired_links: retired };
}

interface ProvenanceReport {
  readonly slug: string;
  readonly direct_transcript_ref: string | null;
  readonly linked_episodes: readonly string[];
  readonly transcript_files: readonly string[];
  readonly meta_files: readonly string[];
  readonly confidence: "direct" | "inferred" | "none";
}

/** How a page traces back: its own transcript (direct), an episode linking to it (inferred), or none. */
export function provenance(store: Store, slug: string, sel: Selector = {}): ProvenanceReport {
  const page = findOne(store, slug, sel);
  const live = (ref: string | null) =>
    ref && !ref.startsWith("retired:") && existsSync(join(store.layout.root, ref)) ? ref : null;
  const direct = live(page.transcript_ref);
  const episodes = store.hasIndex()
    ? store
        .index()
        .backlinks(slug)
        .filter(({ row }) => row.node_type === "episode")
        .map(({ row }) => row)
    : [];
  const refs = [direct, ...episodes.map((e) => live(e.transcript_ref))].filter((r): r is string => r !== null);
  const files = [...new Set(refs)];
  return {
    slug,
    direct_transcript_ref: direct,
    linked_episodes: [...new Set(episodes.map((e) => e.slug))],
    transcript_files: files,
    meta_files: files.map((f) => f.replace(/\.jsonl$/, ".meta.json")),
    confidence: direct ? "direct" : episodes.length > 0 ? "inferred" : "none",
  };
}

export interface SessionSummary {
  readonly session_id: string;
  /** The transcripts/ folder it is kept under (YYYY-MM-DD). */
  readonly date: string;
  readonly started_at: string | null;
  readonly ended_at: string | null;
  readonly captured_at: string | null;
  readonly turn_count: number;
  readonly harness: string | null;
  readonly episode_slug: string | null;
  readonly project_id: string | null;
  readonly project_label: string | null;
  readonly token_usage: Readonly<Record<string, number>> | null;
  readonly file_path: string;
  readonly meta_path: string | null;
  /** The sidecar is there but cannot be read: the session is listed from its transcript alone. */
  readonly meta_unreadable?: true;
}

const Meta = v.looseObject({
  session_id: v.optional(v.string()),
  harness: v.optional(v.nullable(v.string())),
  captured_at: v.optional(v.nullable(v.string())),
  started_at: v.optional(v.nullable(v.string())),
  ended_at: v.optional(v.nullable(v.string())),
  turn_count: v.optional(v.number()),
  episode_slug: v.optional(v.nullable(v.string())),
  project_id: v.optional(v.nullable(v.string())),
  project_label: v.optional(v.nullable(v.string())),
  token_usage: v.optional(v.nullable(v.record(v.string(), v.number()))),
});

type MetaRead = v.InferOutput<typeof Meta> | "absent" | "unreadable";

/** A sidecar that is a real file in the store (a symlink is never followed), parsed, or why not. */
function readMeta(path: string): MetaRead {
  if (!isRealFile(path)) return "absent";
  try {
    const r = v.safeParse(Meta, JSON.parse(readFileSync(path, "utf8")));
    return r.success ? r.output : "unreadable";
  } catch {
    return "unreadable";
  }
}

function isRealFile(path: string): boolean {
  try {
    return lstatSync(path).isFile();
  } catch {
    return false;
  }
}

/** Every captured session, newest first; a sidecar that cannot be read still lists its transcript. */
export function listSessions(store: Store): SessionSummary[] {
  const out: SessionSummary[] = [];
  for (const date of subdirs(store.layout.transcripts)) {
    const dir = join(store.layout.transcripts, date);
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const name = entry.name;
      // A transcript is a real file here: a symlink could point anywhere, so it is not a session.
      if (!name.endsWith(".jsonl") || !entry.isFile()) continue;
      const id = name.slice(0, -".jsonl".length);
      const metaPath = join(dir, `${id}.meta.json`);
      const read = readMeta(metaPath);
      const meta = typeof read === "string" ? undefined : read;
      out.push({
        session_id: meta?.session_id ?? id,
        date,
        started_at: meta?.started_at ?? null,
        ended_at: meta?.ended_at ?? null,
        captured_at: meta?.captured_at ?? null,
        turn_count: meta?.turn_count ?? storedTurns(join(dir, name)).length,
        harness: meta?.harness ?? null,
        episode_slug: meta?.episode_slug ?? (slugify(id) || null),
        project_id: meta?.project_id ?? null,
        project_label: meta?.project_label ?? null,
        token_usage: meta?.token_usage ?? null,
        file_path: join(dir, name),
        meta_path: meta ? metaPath : null,
        ...(read === "unreadable" ? { meta_unreadable: true as const } : {}),
      });
    }
  }
  const when = (s: SessionSummary) => s.started_at ?? s.captured_at ?? `${s.date}T00:00:00Z`;
  return out.sort((a, b) => (when(b) < when(a) ? -1 : when(b) > when(a) ? 1 : a.session_id < b.session_id ? -1 : 1));
}

/** One session's stored turns for a replay, by id; undefined when it was never captured. */
export function sessionTurns(store: Store, sessionId: string): { summary: SessionSummary; turns: Turn[] } | undefined {
  if (!SESSION_ID.test(sessionId)) return undefined;
  const summary = listSessions(store).find((s) => s.session_id === sessionId);
  return summary ? { summary, turns: storedTurns(summary.file_path) } : undefined;
}
