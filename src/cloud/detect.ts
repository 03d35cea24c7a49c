// Detectors: deterministic checks over what machines reported, run as each batch arrives. One opens an incident (or adds
// evidence to the one already open) and proposes containment; a person confirms it. Each names what it saw.
import type { Db } from "./store/db.ts";

export interface Arrived {
  readonly id: number;
  readonly agent: string | null;
  readonly session: string | null;
  readonly effect: string | null;
}

export interface Detector {
  readonly name: string;
  /** What the incident says it is, in words. */
  readonly title: (agent: string | null) => string;
  run(db: Db, workspaceId: string, arrived: readonly Arrived[]): Promise<void>;
}

/** Refusals of one agent session within the window that open an incident: misconfigured, or never told what instead. */
export const REFUSALS = 3;
export const REFUSAL_WINDOW_MIN = 10;

const REPEATED_REFUSALS = "repeated_refusals";

const repeatedRefusals: Detector = {
  name: REPEATED_REFUSALS,
  title: (agent) =>
    `${agent ?? "An agent"} was refused ${REFUSALS} or more times within ${REFUSAL_WINDOW_MIN} minutes in one session`,
  async run(db, workspaceId, arrived) {
    const sessions = new Map<string, { agent: string | null; session: string }>();
    for (const e of arrived)
      if (e.effect === "deny" && e.session)
        sessions.set(`${e.agent}\n${e.session}`, { agent: e.agent, session: e.session });
    for (const { agent, session } of sessions.values()) {
      const rows: { id: string; machine_id: string }[] = await db`
        SELECT e.id, e.machine_id FROM events e
        WHERE e.workspace_id = ${workspaceId} AND e.effect = 'deny' AND e.agent_session_id = ${session}
          AND e.agent IS NOT DISTINCT FROM ${agent} AND e.subject_id = e.dedup_key
          AND e.occurred_at > (SELECT max(occurred_at) FROM events WHERE workspace_id = ${workspaceId}
                                 AND agent_session_id = ${session}) - make_interval(mins => ${REFUSAL_WINDOW_MIN})
        ORDER BY e.id`;
      if (rows.length < REFUSALS) continue;
      const ids = rows.map((r) => Number(r.id));
      const machines = [...new Set(rows.map((r) => r.machine_id))];
      await db`
        INSERT INTO incidents (id, workspace_id, detector, title, agent, session, machine_ids, evidence)
        VALUES (${`inc_${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}`}, ${workspaceId}, ${REPEATED_REFUSALS},
                ${repeatedRefusals.title(agent)}, ${agent}, ${session}, ${machines}, ${ids})
        ON CONFLICT (workspace_id, detector, coalesce(session, ''), coalesce(agent, '')) WHERE resolved_at IS NULL
        DO UPDATE SET
          evidence = ARRAY(SELECT DISTINCT x FROM unnest(incidents.evidence || EXCLUDED.evidence) x ORDER BY x),
          machine_ids = ARRAY(SELECT DISTINCT x FROM unnest(incidents.machine_ids || EXCLUDED.machine_ids) x ORDER BY x)`;
    }
  },
};

export const DETECTORS: readonly Detector[] = [repeatedRefusals];

export async function runDetectors(db: Db, workspaceId: string, arrived: readonly Arrived[]): Promise<void> {
  for (const d of DETECTORS) await d.run(db, workspaceId, arrived);
}
