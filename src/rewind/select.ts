// Which milestone a rewind means: the newest, one by id (or unique prefix), or the start of a session.
import { MemnoxError } from "../core/errors.ts";
import type { Milestone } from "./types.ts";

export type RewindTarget =
  | { readonly kind: "latest" }
  | { readonly kind: "id"; readonly id: string }
  | { readonly kind: "session"; readonly session: string }
  | { readonly kind: "last-session" };

/** `milestones` newest first. */
export function selectMilestone(milestones: readonly Milestone[], target: RewindTarget, where: string): Milestone {
  if (milestones.length === 0) {
    throw new MemnoxError(
      "not_found",
      `no milestones kept in \`${where}\` yet`,
      "memnox rewind --take keeps one now; memnox run keeps one before an agent starts",
    );
  }
  switch (target.kind) {
    case "latest":
      return milestones[0] as Milestone;
    case "id":
      return byId(milestones, target.id);
    case "session":
      return sessionStart(milestones, target.session);
    case "last-session":
      return sessionStart(milestones, lastSession(milestones));
  }
}

/** The session of the newest milestone kept for one (a rewind's own milestone does not start a session). */
export function lastSession(milestones: readonly Milestone[]): string {
  const m = milestones.find((x) => x.session && x.kind !== "rewind");
  if (!m?.session) {
    throw new MemnoxError(
      "not_found",
      "no milestone here was kept for a session",
      "memnox rewind --list shows them all",
    );
  }
  return m.session;
}

function sessionStart(milestones: readonly Milestone[], session: string): Milestone {
  const own = milestones.filter((m) => m.session === session && m.kind !== "rewind");
  const first = own[own.length - 1];
  if (!first) {
    throw new MemnoxError(
      "not_found",
      `no milestone kept for session \`${session}\` in this working tree`,
      "memnox rewind --list shows the sessions that have one",
    );
  }
  return first;
}

function byId(milestones: readonly Milestone[], id: string): Milestone {
  const exact = milestones.find((m) => m.id === id);
  if (exact) return exact;
  const prefix = id.startsWith("mst_") ? id : `mst_${id}`;
  const hits = id.length >= 4 ? milestones.filter((m) => m.id.startsWith(prefix)) : [];
  if (hits.length === 1 && hits[0]) return hits[0];
  if (hits.length > 1) {
    throw new MemnoxError(
      "usage",
      `\`${id}\` names ${hits.length} milestones: ${hits.map((m) => m.id).join(", ")}`,
      "give more of the id",
    );
  }
  throw new MemnoxError(
    "not_found",
    `no milestone \`${id}\` in this working tree`,
    "memnox rewind --list shows the ones kept here",
  );
}

/** What to drop so that `adding` new ones fit under `limit`, never dropping `spare`. */
export function overLimit(
  milestones: readonly Milestone[],
  limit: number,
  adding: number,
  spare?: Milestone,
): Milestone[] {
  const room = Math.max(0, limit - adding);
  const keep = new Set(milestones.slice(0, room).map((m) => m.id));
  if (spare && !keep.has(spare.id) && room > 0) {
    const last = milestones[room - 1];
    if (last) keep.delete(last.id);
    keep.add(spare.id);
  }
  return milestones.filter((m) => !keep.has(m.id));
}
