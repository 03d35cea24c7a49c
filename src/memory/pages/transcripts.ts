// Session transcripts: stored scrubbed under transcripts/<date>/, linked to an episode page, traced back by provenance.
import { existsSync, readdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import * as v from "valibot";
import { MemnoxError } from "../../core/errors.ts";
import { writeFileAtomic } from "../../io/files.ts";
import { subdirs } from "../format/layout.ts";
import type { Scope } from "../format/page.ts";
import type { ProjectRef } from "../format/project.ts";
import { scrub } from "../format/scrub.ts";
import { slugify } from "../format/slug.ts";
import { dateDir, isoSeconds, isTimestamp } from "../format/time.ts";
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
  harness: v.optional(v.string()),
  session_id: v.optional(v.string()),
  started_at: v.optional(v.nullable(v.string())),
  ended_at: v.optional(v.nullable(v.string())),
  token_usage: v.optional(v.record(v.string(), v.number())),
});
type Header = v.InferOutput<typeof Header>;

export interface IngestInput {
  readonly sessionId: string;
  /** The JSONL text: an optional header line, then one turn per line. */
  readonly jsonl: string;
  readonly source: string;
  readonly harness?: string;
  readonly scope?: Scope;
  readonly project?: ProjectRef;
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

function parse(jsonl: string, source: string): { header?: Header; turns: Turn[] } {
  const turns: Turn[] = [];
  let header: Header | undefined;
  for (const [i, line] of jsonl.split("\n").entries()) {
    if (!line.trim()) continue;
    let value: unknown;
    try {
      value = JSON.parse(line);
    } catch {
      throw new MemnoxError("refused", `\`${source}\` line ${i + 1} is not JSON`, "one JSON object per line");
    }
    if (turns.length === 0 && header === undefined && v.is(Header, value)) {
      header = value;
      continue;
    }
    const r = v.safeParse(Turn, value);
    if (!r.success)
      throw new MemnoxError(
        "refused",
        `\`${source}\` line ${i + 1}: ${r.issues[0]?.message ?? "not a turn"}`,
        "a turn is {role: user|agent|tool, content, turn}",
      );
    if (r.output.ts && !isTimestamp(r.output.ts))
      throw new MemnoxError("refused", `\`${source}\` line ${i + 1}: ts must be a UTC time like 2026-09-15T10:00:00Z`);
    turns.push(r.output);
  }
  if (turns.length === 0) throw new MemnoxError("refused", `\`${source}\` holds no turns`);
  return header ? { header, turns } : { turns };
}

/** An existing date folder for this session, so ingesting twice rewrites rather than duplicates. */
function existingDate(store: Store, sessionId: string): string | undefined {
  return subdirs(store.layout.transcripts).find((d) =>
    existsSync(join(store.layout.transcripts, d, `${sessionId}.jsonl`)),
  );
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
    throw new MemnoxError("refused", `invalid session id \`${input.sessionId}\``, "letters, digits, `.`, `_` and `-`");
  const { header, turns } = parse(input.jsonl, input.source);
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
  const date =
    existingDate(store, input.sessionId) ??
    (started && isTimestamp(started) ? started.slice(0, 10) : dateDir(store.now()));
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
  const body = render(stored);
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

export interface ClearReport {
  readonly removed_files: number;
  readonly retired_links: number;
}

/** Deletes every raw transcript; episodes stay, their transcript links marked retired. */
export function clearTranscripts(store: Store, confirm: boolean): ClearReport {
  if (!confirm)
    throw new MemnoxError(
      "refused",
      "clearing transcripts needs --confirm: it permanently deletes every raw session file",
      "episode pages stay, with their transcript links retired",
    );
  let removed = 0;
  for (const date of subdirs(store.layout.transcripts)) {
    const dir = join(store.layout.transcripts, date);
    for (const f of readdirSync(dir)) {
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
  return { removed_files: removed, retired_links: retired };
}

export interface ProvenanceReport {
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
