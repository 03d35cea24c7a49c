// Where an event lands: taint and classification decided once, at arrival, deterministically, then stored once (a
// resend is the same dedup key) and projected into the team graph. Nothing is refused for being tainted: it is stored
// and searchable, and it raises the bar for what reads it.
import { maskSecrets } from "../../core/secrets.ts";
import type { Db } from "../store/db.ts";
import * as store from "../store/sources.ts";
import { classify, DEFAULT_RULES, type SensitivityRule } from "./classify.ts";
import type { Level } from "./clearance.ts";
import { projectSourceEvent } from "./graph.ts";
import { dedupKey, type Normalized } from "./normalize.ts";

/** Source types that are third-party by nature: they stay tainted whoever forwarded them. */
const THIRD_PARTY = new Set(["files", "email", "web", "rss"]);

interface Arrival {
  readonly event: Normalized;
  /** A file an admin marked as the team's own: the one way a document is not third-party. */
  readonly own?: boolean;
  readonly fileId?: string;
  readonly deliveryId?: string;
  /** For an uploaded file, the member who uploaded it: they forwarded it, which is not the same as writing it. */
  readonly uploaderId?: string;
}

interface Landed {
  readonly id: number;
  readonly duplicate: boolean;
  readonly tainted: boolean;
  readonly classification: Level;
}

interface Author {
  readonly memberId: string | null;
  readonly trusted: boolean;
  readonly why?: string;
}

/** The author looked up against people: a linked account, or an address the system itself reported for them. */
async function authorOf(db: Db, workspaceId: string, e: Normalized): Promise<Author> {
  if (e.outsideTeam) return { memberId: null, trusted: false, why: "author outside the workspace trust boundary" };
  if (!e.author && !e.authorEmail) return { memberId: null, trusted: false, why: "no author the system could name" };
  if (e.author) {
    const linked = await store.accountMember(db, workspaceId, e.sourceType, e.author);
    if (linked) return { memberId: linked.member_id, trusted: true };
  }
  if (e.authorEmail) {
    // Email is the only evidence strong enough to merge accounts: the system reported it, and a member holds it.
    const m = await store.workspaceMemberByEmail(db, workspaceId, e.authorEmail);
    if (m) {
      if (e.author) await store.noteReportedAccount(db, workspaceId, e.sourceType, e.author, m.id, e.authorEmail);
      return { memberId: m.id, trusted: true };
    }
  }
  return { memberId: null, trusted: false, why: "author outside the workspace trust boundary" };
}

export async function sensitivityRules(db: Db, workspaceId: string): Promise<SensitivityRule[]> {
  const rows = await store.sensitivityRows(db, workspaceId);
  if (rows.length === 0) return [...DEFAULT_RULES];
  return rows.map((r) => ({ level: r.level, terms: r.terms, ...(r.audience ? { audience: r.audience } : {}) }));
}

/** Stores `a` once with its taint and classification; a resend answers the first arrival's id as a duplicate. */
export async function land(
  db: Db,
  workspaceId: string,
  a: Arrival,
  rules?: readonly SensitivityRule[],
): Promise<Landed> {
  // A credential somebody pasted into a thread is masked before it is stored, classified, or read by a model.
  const e = { ...a.event, content: maskSecrets(a.event.content) };
  const key = dedupKey(e);
  const seen = await store.sourceEventByKey(db, workspaceId, key);
  if (seen)
    return {
      id: Number(seen.id),
      duplicate: true,
      tainted: seen.tainted,
      classification: seen.classification ?? "internal",
    };
  const author = a.uploaderId ? { memberId: a.uploaderId, trusted: true } : await authorOf(db, workspaceId, e);
  const thirdParty = THIRD_PARTY.has(e.sourceType) && a.own !== true;
  const taintReason = thirdParty
    ? `third-party source (${e.sourceType}): it stays tainted whoever forwarded it`
    : author.trusted
      ? null
      : (author.why ?? "author outside the workspace trust boundary");
  const level = classify(e.content, rules ?? (await sensitivityRules(db, workspaceId)));
  const row = await store.insertSourceEvent(db, {
    workspaceId,
    dedupKey: key,
    sourceType: e.sourceType,
    sourceRef: e.sourceRef,
    kind: e.kind,
    stream: e.stream,
    author: e.author,
    authorTrusted: author.trusted,
    memberId: author.memberId,
    content: e.content,
    occurredAt: e.occurredAt,
    taintReason,
    classification: level.level,
    audiences: [...level.audiences],
    fileId: a.fileId ?? null,
    deliveryId: a.deliveryId ?? null,
  });
  if (!row) return land(db, workspaceId, a, rules);
  await projectSourceEvent(db, workspaceId, row);
  return { id: Number(row.id), duplicate: false, tainted: row.tainted, classification: level.level };
}
