// A memory page: the OKF v0.2 fields then memex's own, written in one fixed order and read strictly.
import { sha256Hex } from "../../io/hash.ts";
import {
  type FmItem,
  type FmValue,
  floatText,
  parseFrontMatter,
  renderFrontMatter,
  renderLine,
} from "./frontmatter.ts";
import { isBuiltin, validTypeName } from "./kinds.ts";
import { isTimestamp } from "./time.ts";

export const OKF_VERSION = "0.2";

export const PAGE_KEYS = [
  "okf_version",
  "type",
  "title",
  "description",
  "resource",
  "tags",
  "timestamp",
  "valid_from",
  "valid_until",
  "stale_after",
  "updated_at",
  "parent",
  "supersedes",
  "implements",
  "depends_on",
  "links",
  "id",
  "created",
  "importance",
  "access_count",
  "last_access",
  "content_hash",
  "status",
  "occurred_at",
  "source",
  "harness",
  "confidence",
  "scope",
  "project_id",
  "project_label",
  "session_id",
  "transcript_ref",
] as const;

export type Status = "active" | "pending" | "superseded" | "archived";
export const STATUSES: readonly Status[] = ["active", "pending", "superseded", "archived"];
export type Scope = "global" | "project";

export interface TypedLink {
  readonly target: string;
  readonly rel: string;
}

export interface PageMeta {
  readonly type: string;
  readonly title: string;
  readonly description: string;
  readonly resource: string | null;
  readonly tags: readonly string[];
  readonly timestamp: string;
  readonly valid_from: string | null;
  readonly valid_until: string | null;
  readonly stale_after: string | null;
  readonly updated_at: string;
  readonly parent: string | null;
  readonly supersedes: readonly string[];
  readonly implements: readonly string[];
  readonly depends_on: readonly string[];
  readonly links: readonly TypedLink[];
  readonly id: string;
  readonly created: string;
  readonly importance: number;
  readonly access_count: number;
  readonly last_access: string | null;
  readonly content_hash: string;
  readonly status: Status;
  readonly occurred_at: string | null;
  readonly source: string | null;
  readonly harness: string | null;
  readonly confidence: string | null;
  readonly scope: Scope;
  readonly project_id: string | null;
  readonly project_label: string | null;
  readonly session_id: string | null;
  readonly transcript_ref: string | null;
}

export interface Page extends PageMeta {
  readonly slug: string;
  readonly path: string;
  readonly body: string;
}

export class PageError extends Error {
  override readonly name = "PageError";
}

export function hashBody(body: string): string {
  return `sha256:${sha256Hex(body)}`;
}

/** Importance keeps three decimals so it always prints as a plain decimal memex can read back. */
export function roundImportance(n: number): number {
  return Math.round(n * 1000) / 1000;
}

export function renderPage(meta: PageMeta, body: string): string {
  const lines = PAGE_KEYS.map((key) => {
    if (key === "okf_version") return renderLine(key, OKF_VERSION);
    if (key === "importance") return renderLine(key, { raw: floatText(roundImportance(meta.importance)) });
    if (key === "links")
      return renderLine(
        key,
        meta.links.map((l) => ({ target: l.target, rel: l.rel })),
      );
    return renderLine(key, meta[key]);
  });
  return renderFrontMatter(lines, body);
}

const KNOWN: ReadonlySet<string> = new Set(PAGE_KEYS);
const TIME_FIELDS = ["timestamp", "updated_at", "created", "last_access", "occurred_at"] as const;
const WINDOW_FIELDS = ["valid_from", "valid_until", "stale_after"] as const;

/** Reads a page strictly: exactly memex's key set, typed values; anything else names the line and the fix. */
export function parsePage(text: string, slug: string, path: string): Page {
  let parsed: ReturnType<typeof parseFrontMatter>;
  try {
    parsed = parseFrontMatter(text);
  } catch (e) {
    throw new PageError((e as Error).message);
  }
  const { data, lineOf, body } = parsed;
  const at = (key: string) => (lineOf.has(key) ? `line ${lineOf.get(key)}: ` : "");
  for (const key of data.keys()) {
    if (!KNOWN.has(key)) throw new PageError(`${at(key)}unknown front matter key \`${key}\``);
  }
  const f = new Fields(data, at);
  if (data.get("okf_version") !== OKF_VERSION)
    throw new PageError(`${at("okf_version")}okf_version must be "${OKF_VERSION}"`);
  const type = f.requireString("type");
  if (!isBuiltin(type) && !validTypeName(type)) throw new PageError(`${at("type")}invalid type \`${type}\``);
  for (const key of TIME_FIELDS) f.timestamp(key, false);
  for (const key of WINDOW_FIELDS) f.timestamp(key, true);
  const importance = data.get("importance") ?? 0.5;
  if (typeof importance !== "number" || importance < 0 || importance > 1)
    throw new PageError(`${at("importance")}importance must be a number from 0 to 1`);
  const accessCount = data.get("access_count") ?? 0;
  if (typeof accessCount !== "number" || !Number.isInteger(accessCount) || accessCount < 0)
    throw new PageError(`${at("access_count")}access_count must be a whole number`);
  const status = data.get("status") ?? "active";
  if (typeof status !== "string" || !(STATUSES as readonly string[]).includes(status))
    throw new PageError(`${at("status")}status must be one of ${STATUSES.join(", ")}`);
  const scope = data.get("scope") ?? "global";
  if (scope !== "global" && scope !== "project") throw new PageError(`${at("scope")}scope must be global or project`);
  const projectId = f.string("project_id");
  if (scope === "project" && !projectId) throw new PageError(`${at("scope")}a project page needs a project_id`);
  return {
    slug,
    path,
    body,
    type,
    title: f.requireString("title"),
    description: f.string("description") ?? "",
    resource: f.string("resource"),
    tags: f.strings("tags"),
    timestamp: f.requireString("timestamp"),
    valid_from: f.string("valid_from"),
    valid_until: f.string("valid_until"),
    stale_after: f.string("stale_after"),
    updated_at: f.requireString("updated_at"),
    parent: f.string("parent"),
    supersedes: f.strings("supersedes"),
    implements: f.strings("implements"),
    depends_on: f.strings("depends_on"),
    links: f.links(),
    id: f.requireString("id"),
    created: f.requireString("created"),
    importance,
    access_count: accessCount,
    last_access: f.string("last_access"),
    content_hash: f.string("content_hash") ?? "",
    status: status as Status,
    occurred_at: f.string("occurred_at"),
    source: f.string("source"),
    harness: f.string("harness"),
    confidence: f.string("confidence"),
    scope,
    project_id: projectId,
    project_label: f.string("project_label"),
    session_id: f.string("session_id"),
    transcript_ref: f.string("transcript_ref"),
  };
}

class Fields {
  constructor(
    private readonly data: Map<string, FmValue>,
    private readonly at: (key: string) => string,
  ) {}

  string(key: string): string | null {
    const v = this.data.get(key) ?? null;
    if (v !== null && typeof v !== "string")
      throw new PageError(`${this.at(key)}\`${key}\` must be a quoted string or null`);
    return v;
  }

  requireString(key: string): string {
    const v = this.string(key);
    if (!v) throw new PageError(`${this.at(key)}\`${key}\` is required`);
    return v;
  }

  strings(key: string): string[] {
    const v = this.data.get(key) ?? [];
    if (!Array.isArray(v) || !v.every((item: FmItem) => typeof item === "string"))
      throw new PageError(`${this.at(key)}\`${key}\` must be a list of quoted strings`);
    return v as string[];
  }

  timestamp(key: string, allowDate: boolean): void {
    const v = this.string(key);
    if (v !== null && !isTimestamp(v, allowDate))
      throw new PageError(`${this.at(key)}\`${key}\` must be a UTC time like 2026-09-15T10:00:00Z`);
  }

  links(): TypedLink[] {
    const v = this.data.get("links") ?? [];
    if (!Array.isArray(v)) throw new PageError(`${this.at("links")}\`links\` must be a list`);
    return v.map((item: FmItem) => {
      if (typeof item === "string") return { target: item, rel: "relates-to" };
      const keys = Object.keys(item).sort().join(",");
      if (keys !== "rel,target" || !item.target || !item.rel)
        throw new PageError(`${this.at("links")}each link is {target: "slug", rel: "relation"}`);
      return { target: item.target, rel: item.rel };
    });
  }
}
