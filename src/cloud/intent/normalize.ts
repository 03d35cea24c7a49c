// One normalizer for every connected system: fields are found by name, never by provider, and everything leaves in the
// same shape. A delivery with nowhere to point back to is rejected here rather than stored without evidence: a system
// that ships no permalink has one composed from the workspace's configured base URL, and without that URL it is refused.

import { isRecord } from "../../core/record.ts";
import { sha256Hex } from "../../io/hash.ts";

export interface Normalized {
  readonly sourceType: string;
  readonly sourceRef: string;
  /** What happened: `message`, `pull_request.opened`, `pull_request.merged`, `issue.closed`, `document`. */
  readonly kind: string;
  /** Where in the system it was said: a channel, a repository. */
  readonly stream: string | null;
  readonly author: string | null;
  /** An address the system itself reported for the author: the only evidence strong enough to merge accounts. */
  readonly authorEmail: string | null;
  /** The author belongs to another team than the one the system delivers for (a shared channel's guest). */
  readonly outsideTeam: boolean;
  readonly content: string;
  readonly occurredAt: string;
}

type Outcome =
  | { readonly ok: true; readonly event: Normalized }
  | { readonly ok: false; readonly status: "rejected" | "ignored"; readonly why: string };

export interface SourceSetting {
  /** What permalinks are composed from when the system ships none (a Slack workspace's https://acme.slack.com). */
  readonly baseUrl: string | null;
  /** The streams chosen: a connection on its own is quiet, choosing what it listens to starts the flow. */
  readonly streams: readonly string[];
}

/** Where a decision might be visible, and nothing else: messages, pull requests opened and merged, issues opened and closed. */
const SUBSCRIBED_KINDS = [
  "message",
  "pull_request.opened",
  "pull_request.merged",
  "issue.opened",
  "issue.closed",
  "document",
] as const;

/** The object a delivery is about, by the names systems give it; the delivery itself when none is there. */
const SUBJECTS = ["event", "pull_request", "issue", "comment", "message", "document", "item"] as const;

type Obj = Readonly<Record<string, unknown>>;

const obj = (v: unknown): Obj | undefined => (isRecord(v) ? v : undefined);
const text = (v: unknown): string | undefined => (typeof v === "string" && v.trim() !== "" ? v : undefined);

function first(o: Obj | undefined, names: readonly string[]): string | undefined {
  for (const n of names) {
    const v = text(o?.[n]);
    if (v !== undefined) return v;
  }
  return undefined;
}

/** A person named by a field: the field itself when it is text, else the login, id or name inside it. */
function who(v: unknown): { name?: string; email?: string } {
  const s = text(v);
  if (s !== undefined) return { name: s };
  const o = obj(v);
  if (!o) return {};
  const name = first(o, ["login", "username", "id", "name"]) ?? (typeof o.id === "number" ? String(o.id) : undefined);
  const email = first(o, ["email"]);
  return { ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

function link(v: string | undefined): string | undefined {
  return v && /^https?:\/\/[^\s]+$/.test(v) ? v : undefined;
}

/** An instant from an ISO text or a Unix time in seconds (Slack's `ts` is seconds with a fraction). */
function instant(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return new Date(v * 1000).toISOString();
  const s = text(v);
  if (s === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return new Date(Number(s) * 1000).toISOString();
  const t = Date.parse(s);
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/**
 * `data` as delivered for `sourceType`: the subject found by name, what happened to it (`action`, `merged`, a
 * message's `subtype`), the words said, who said them, where, when, and the link back. Refused without a permalink
 * that can be found or composed; ignored when it is not something subscribed to.
 */
export function normalize(sourceType: string, data: unknown, setting: SourceSetting): Outcome {
  const root = obj(data);
  if (!root) return { ok: false, status: "rejected", why: "the delivery is not a JSON object" };
  const key = SUBJECTS.find((k) => obj(root[k]));
  const subject = (key ? obj(root[key]) : root) ?? root;
  const noun = key === "event" || key === undefined ? (first(subject, ["type"]) ?? key ?? "item") : key;
  const sub = first(subject, ["subtype"]);
  const action = first(root, ["action"]);
  const did = subject.merged === true && action === "closed" ? "merged" : action;
  const kind = sub ? `${noun}.${sub}` : did ? `${noun}.${did}` : noun;
  if (!(SUBSCRIBED_KINDS as readonly string[]).includes(kind))
    return { ok: false, status: "ignored", why: `\`${kind}\` is not something memnox listens to` };
  const stream =
    first(obj(root.repository), ["full_name"]) ?? first(subject, ["channel"]) ?? first(root, ["channel"]) ?? null;
  if (stream !== null && setting.streams.length > 0 && !setting.streams.includes(stream))
    return { ok: false, status: "ignored", why: `\`${stream}\` is not one of the streams chosen for ${sourceType}` };
  if (stream !== null && setting.streams.length === 0)
    return { ok: false, status: "ignored", why: `no stream of ${sourceType} is chosen yet, so it listens to nothing` };
  const content = [first(subject, ["title"]), first(subject, ["body", "text", "content", "description"])]
    .filter((s): s is string => s !== undefined)
    .join("\n\n");
  if (content === "") return { ok: false, status: "ignored", why: "it says nothing" };
  const author = who(subject.user ?? subject.author ?? root.sender ?? root.user);
  const sourceRef = permalink(subject, root, setting);
  if (!sourceRef)
    return {
      ok: false,
      status: "rejected",
      why: setting.baseUrl
        ? "it names no permalink and nothing to compose one from"
        : `it names no permalink, and the workspace has no base URL for ${sourceType} to compose one from`,
    };
  const when =
    (did === "merged" ? instant(subject.merged_at) : undefined) ??
    (did === "closed" ? instant(subject.closed_at) : undefined) ??
    instant(subject.created_at) ??
    instant(subject.ts) ??
    instant(subject.event_ts) ??
    instant(root.event_time) ??
    instant(subject.updated_at);
  if (!when) return { ok: false, status: "rejected", why: "it says nothing about when it happened" };
  const team = first(root, ["team_id"]);
  const authorTeam = first(subject, ["user_team"]);
  return {
    ok: true,
    event: {
      sourceType,
      sourceRef,
      kind,
      stream,
      author: author.name ?? null,
      authorEmail: author.email?.toLowerCase() ?? null,
      outsideTeam: team !== undefined && authorTeam !== undefined && authorTeam !== team,
      content: content.slice(0, 20_000),
      occurredAt: when,
    },
  };
}

/** The system's own link, else one composed from the base URL and the message's channel and timestamp. */
function permalink(subject: Obj, root: Obj, setting: SourceSetting): string | undefined {
  const own = link(first(subject, ["permalink", "html_url", "web_url"]) ?? first(root, ["permalink"]));
  if (own) return own;
  const channel = first(subject, ["channel"]);
  const ts = first(subject, ["ts"]);
  const base = setting.baseUrl?.replace(/\/+$/, "");
  if (!base || !channel || !ts || !/^\d+\.\d+$/.test(ts)) return undefined;
  return link(`${base}/archives/${encodeURIComponent(channel)}/p${ts.replace(".", "")}`);
}

/** A resend of the same thing is the same key: what happened, where it points, and when. */
export function dedupKey(e: Pick<Normalized, "sourceType" | "sourceRef" | "kind" | "occurredAt">): string {
  return sha256Hex(`memnox-source-v1\n${e.sourceType}\n${e.sourceRef}\n${e.kind}\n${e.occurredAt}`);
}
