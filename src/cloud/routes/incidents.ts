// Incidents a detector opened: the evidence (the events that opened it), Acknowledge and Resolve (a reviewer), and
// Contain it (an admin): one press freezing the agent involved on every machine and moving every machine to enforce.
import { parseDuration } from "../../core/duration.ts";
import { isMemnoxError } from "../../core/errors.ts";
import { actorName } from "../auth.ts";
import { DETECTORS } from "../detect.ts";
import { type Call, json, str } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { addCondition, enforceEverywhere } from "../store/conditions.ts";
import type { IncidentRow } from "../store/incidents.ts";
import * as store from "../store/incidents.ts";
import { audit } from "../store/people.ts";

const stamp = (by: string | null, at: Date | null) => (at ? { by, at: iso(at) } : null);

function view(i: IncidentRow) {
  return {
    id: i.id,
    detector: i.detector,
    title: i.title,
    agent: i.agent,
    session: i.session,
    machineIds: i.machine_ids,
    evidence: i.evidence.map(Number),
    openedAt: iso(i.opened_at),
    status: i.resolved_at ? "resolved" : i.acknowledged_at ? "acknowledged" : "open",
    acknowledged: stamp(i.acknowledged_by, i.acknowledged_at),
    contained: stamp(i.contained_by, i.contained_at),
    resolved: i.resolved_at ? { by: i.resolved_by, at: iso(i.resolved_at), resolution: i.resolution } : null,
    // A chain finding: every agent on it, the pattern, each hop with how it was joined, and the containment proposed.
    agents: i.agents ?? [],
    pattern: i.pattern ?? null,
    hops: i.hops ?? null,
    proposal: i.proposal ?? null,
  };
}

export type IncidentView = ReturnType<typeof view>;

/** GET /v1/incidents?all=1: unresolved ones (all: every one), and each detector's precision to date. */
export async function listIncidents(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const all = c.url.searchParams.get("all") === "1";
  const rows = await store.incidents(c.db, who.workspaceId, all);
  const counts = await store.resolutionCounts(c.db, who.workspaceId);
  // A detector nobody measured says so: precision is what resolving incidents as confirmed or not has shown.
  const detectors = DETECTORS.map((d) => {
    const n = counts.find((x) => x.detector === d.name);
    const confirmed = Number(n?.confirmed ?? 0);
    const judged = confirmed + Number(n?.false_alarm ?? 0);
    return { name: d.name, judged, confirmed, precision: judged > 0 ? confirmed / judged : null };
  });
  return json({ incidents: rows.map(view), detectors });
}

async function open(c: Call, workspaceId: string): Promise<IncidentRow> {
  const i = await store.incidentForUpdate(c.db, workspaceId, c.params.id ?? "");
  if (!i) throw new HttpError(404, "not_found", `no incident \`${c.params.id ?? ""}\` here`);
  if (i.resolved_at) throw new HttpError(409, "already", "this incident is already resolved");
  return i;
}

/** POST /v1/incidents/:id/acknowledge: somebody is looking at it. */
export async function acknowledgeIncident(c: Call): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not acknowledge");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const i = await open({ ...c, db: tx }, who.workspaceId);
    const r = await store.acknowledge(tx, i.id, by);
    await audit(tx, { orgId: who.orgId, actor: by, action: "incident.acknowledge", subject: i.id });
    return json(view(r ?? i));
  });
}

/** POST /v1/incidents/:id/resolve {resolution: confirmed | false-alarm}: what counts toward the detector's precision. */
export async function resolveIncident(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not resolve");
  const resolution = body.resolution ?? "confirmed";
  if (resolution !== "confirmed" && resolution !== "false-alarm")
    throw new HttpError(400, "bad_request", "`resolution` is confirmed or false-alarm");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const i = await open({ ...c, db: tx }, who.workspaceId);
    const r = await store.resolve(tx, i.id, by, resolution);
    await audit(tx, { orgId: who.orgId, actor: by, action: "incident.resolve", subject: i.id, detail: { resolution } });
    return json(view(r ?? i));
  });
}

const DEFAULT_FREEZE = "1d";

/**
 * POST /v1/incidents/:id/contain {for?}: freezes the agent involved on every machine (a freeze-agent condition, `for`
 * 1d unless said) and moves every active machine to enforce, each change recorded with who, in one transaction.
 */
export async function containIncident(c: Call, body: Record<string, unknown>): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not contain");
  const forText = str(body, "for", { optional: true }) ?? DEFAULT_FREEZE;
  let ms: number;
  try {
    ms = parseDuration(forText);
  } catch (e) {
    throw new HttpError(400, "bad_request", isMemnoxError(e) ? e.message : "`for` is not a duration");
  }
  if (ms <= 0 || ms > 7 * 86_400_000) throw new HttpError(400, "bad_request", "a freeze runs for a week at most");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const i = await open({ ...c, db: tx }, who.workspaceId);
    // Every agent the finding names: a chain is several actors, and containing one of them contains nothing.
    const freezes: { id: string; agent: string; expiresAt: string }[] = [];
    for (const agent of [...new Set([...(i.agent ? [i.agent] : []), ...(i.agents ?? [])])]) {
      const expires = new Date(c.now() + ms);
      const reason = `contained: ${i.title}`;
      const id = await addCondition(tx, {
        workspaceId: who.workspaceId,
        kind: "freeze-agent",
        subject: agent,
        reason,
        by,
        expires,
      });
      freezes.push({ id, agent, expiresAt: expires.toISOString() });
    }
    const freeze = freezes[0] ?? null;
    const enforced = await enforceEverywhere(tx, who.workspaceId, by);
    const r = await store.contain(tx, i.id, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "incident.contain",
      subject: i.id,
      detail: { freezes, enforced },
    });
    return json({ incident: view(r ?? i), freeze, freezes, enforced });
  });
}
