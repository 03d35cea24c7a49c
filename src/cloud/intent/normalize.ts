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

/**
 * Where a decision might be visible, and nothing else: messages and comments, pull requests opened and merged, issues
 * opened and closed.
 */
const SUBSCRIBED_KINDS = [
  "message",
  "comment.created",
  "pull_request.opened",
  "pull_request.merged",
  "issue.opened",
  "issue.closed",
  "document",
] as const;

/**
 * The object a delivery is about, by the names systems give it; the delivery itself when none is there. A comment
 * comes before what it is on: a delivery carrying both is about the comment. `data` is the generic envelope's.
 */
const SUBJECTS = ["event", "comment", "pull_request", "issue", "message", "document", "item", "data"] as const;

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

/** A person named by a field: the field itself when it is text, else the login, account, id or name inside it. */
function who(v: unknown): { name?: string; email?: string } {
  const s = text(v);
  if (s !== undefined) return { name: s };
  const o = obj(v);
  if (!o) return {};
  const name =
    first(o, ["login", "username", "accountId", "id", "name"]) ?? (typeof o.id === "number" ? String(o.id) : undefined);
  const email = first(o, ["email", "emailAddress"]);
  return { ...(name ? { name } : {}), ...(email ? { email } : {}) };
}

function link(v: string | undefined): string | undefined {
  return v && /^https?:\/\/[^\s]+$/.test(v) ? v : undefined;
}

/** An instant from an ISO text (`+0000` offsets too) or a Unix time in seconds (Slack's `ts` has a fraction). */
function instant(v: unknown): string | undefined {
  if (typeof v === "number" && Number.isFinite(v)) return new Date(v * 1000).toISOString();
  const s = text(v);
  if (s === undefined) return undefined;
  if (/^\d+(\.\d+)?$/.test(s)) return new Date(Number(s) * 1000).toISOString();
  const t = Date.parse(s.replace(/([+-]\d{2})(\d{2})$/, "$1:$2"));
  return Number.isNaN(t) ? undefined : new Date(t).toISOString();
}

/** What happened, from `action`, or from an event name (`jira:issue_created`, `comment_created`) when none is given. */
function actionOf(root: Obj): string | undefined {
  const own = first(root, ["action"]);
  if (own !== undefined) return own;
  // The specific name first (`issue_resolved`), the general one when it says nothing (`issue_generic`).
  for (const named of [first(root, ["issue_event_type_name"]), first(root, ["webhookEvent"])]) {
    const verb = named ? /(?:^|[:_])(created|updated|deleted|resolved|closed)$/.exec(named)?.[1] : undefined;
    if (verb) return verb;
  }
  return undefined;
}

/**
 * An update that closed the subject: its completion or cancellation time was empty before it (`updatedFrom`), or the
 * change set its resolution (a `changelog` item).
 */
function closedNow(subject: Obj, root: Obj): boolean {
  const before = obj(root.updatedFrom);
  const marks = ["completedAt", "canceledAt", "closed_at"] as const;
  if (before && marks.some((m) => m in before && before[m] == null && text(subject[m]) !== undefined)) return true;
  const items = obj(root.changelog)?.items;
  return Array.isArray(items) && items.some((i) => obj(i)?.field === "resolution" && text(obj(i)?.to) !== undefined);
}

/** The verb in the vocabulary memnox listens in: an issue or pull request is opened, anything else is created. */
function verbOf(noun: string, subject: Obj, root: Obj, action: string | undefined): string | undefined {
  if (subject.merged === true && action === "closed") return "merged";
  if (action === "update" || action === "updated") return closedNow(subject, root) ? "closed" : "updated";
  if (action === "resolved") return "closed";
  if (action === "create" || action === "created")
    return noun === "issue" || noun === "pull_request" ? "opened" : "created";
  return action;
}

/**
 * `data` as delivered for `sourceType`: the subject found by name, what happened to it (`action`, an event name,
 * `merged`, a message's `subtype`), the words said, who said them, where, when, and the link back. Refused without a
 * permalink that can be found or composed; ignored when it is not something subscribed to.
 */
export function normalize(sourceType: string, data: unknown, setting: SourceSetting): Outcome {
  const root = obj(data);
  if (!root) return { ok: false, status: "rejected", why: "the delivery is not a JSON object" };
  const key = SUBJECTS.find((k) => obj(root[k]));
  const subject = (key ? obj(root[key]) : root) ?? root;
  // A system's own fields (a Jira issue's `fields`) are read beside the subject's.
  const fields = obj(subject.fields);
  const look: Obj = { ...fields, ...subject };
  // A generic envelope names its subject's type beside it (`type: "Issue"`); an event names its own (`message`).
  const typed = key === "data" ? (first(root, ["type"]) ?? first(subject, ["type"])) : first(subject, ["type"]);
  const noun = (key === "event" || key === "data" || key === undefined ? (typed ?? key ?? "item") : key).toLowerCase();
  const sub = first(subject, ["subtype"]);
  const did = verbOf(noun, look, root, actionOf(root));
  const kind = sub ? `${noun}.${sub}` : did ? `${noun}.${did}` : noun;
  if (!(SUBSCRIBED_KINDS as readonly string[]).includes(kind))
    return { ok: false, status: "ignored", why: `\`${kind}\` is not something memnox listens to` };
  // What a comment is on, or the issue itself: where its project or team is named.
  const about = obj(subject.issue) ?? obj(root.issue);
  const stream =
    first(obj(root.repository), ["full_name"]) ??
    first(subject, ["channel"]) ??
    first(root, ["channel"]) ??
    first(obj(obj(about?.fields ?? fields)?.project), ["key"]) ??
    first(subject, ["teamId"]) ??
    first(about, ["teamId"]) ??
    null;
  if (stream !== null && setting.streams.length > 0 && !setting.streams.includes(stream))
    return { ok: false, status: "ignored", why: `\`${stream}\` is not one of the streams chosen for ${sourceType}` };
  if (stream !== null && setting.streams.length === 0)
    return { ok: false, status: "ignored", why: `no stream of ${sourceType} is chosen yet, so it listens to nothing` };
  const content = [first(look, ["title", "summary"]), first(look, ["body", "text", "content", "description"])]
    .filter((s): s is string => s !== undefined)
    .join("\n\n");
  if (content === "") return { ok: false, status: "ignored", why: "it says nothing" };
  const author = who(subject.user ?? subject.author ?? root.sender ?? root.user ?? root.actor);
  const sourceRef = permalink(subject, root, about, setting);
  if (!sourceRef)
    return {
      ok: false,
      status: "rejected",
      why: setting.baseUrl
        ? "it names no permalink and nothing to compose one from"
        : `it names no permalink, and the workspace has no base URL for ${sourceType} to compose one from`,
    };
  const when =
    (did === "merged" ? instant(look.merged_at) : undefined) ??
    (did === "closed"
      ? (instant(look.closed_at) ??
        instant(look.completedAt) ??
        instant(look.canceledAt) ??
        instant(look.resolutiondate))
      : undefined) ??
    instant(look.created_at) ??
    instant(look.createdAt) ??
    instant(look.created) ??
    instant(look.ts) ??
    instant(look.event_ts) ??
    instant(root.event_time) ??
    instant(look.updated_at);
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

/** An issue key as trackers write it (`ENG-42`): what a browse link is composed from. */
const ISSUE_KEY = /^[A-Z][A-Z0-9_]*-\d+$/;

/**
 * The system's own link, else one composed from the base URL: a message's channel and timestamp, or an issue's key
 * (and a comment's id on it).
 */
function permalink(subject: Obj, root: Obj, about: Obj | undefined, setting: SourceSetting): string | undefined {
  const own = link(first(subject, ["permalink", "html_url", "web_url"]) ?? first(root, ["permalink", "url"]));
  if (own) return own;
  const base = setting.baseUrl?.replace(/\/+$/, "");
  if (!base) return undefined;
  const issueKey = first(subject, ["key"]) ?? first(about, ["key"]);
  if (issueKey && ISSUE_KEY.test(issueKey)) {
    const comment = subject !== about && subject.key === undefined ? first(subject, ["id"]) : undefined;
    return link(`${base}/browse/${issueKey}${comment && /^\d+$/.test(comment) ? `?focusedCommentId=${comment}` : ""}`);
  }
  const channel = first(subject, ["channel"]);
  const ts = first(subject, ["ts"]);
  if (!channel || !ts || !/^\d+\.\d+$/.test(ts)) return undefined;
  return link(`${base}/archives/${encodeURIComponent(channel)}/p${ts.replace(".", "")}`);
}

/** A resend of the same thing is the same key: what happened, where it points, and when. */
export function dedupKey(e: Pick<Normalized, "sourceType" | "sourceRef" | "kind" | "occurredAt">): string {
  return sha256Hex(`memnox-source-v1\n${e.sourceType}\n${e.sourceRef}\n${e.kind}\n${e.occurredAt}`);
}
