// What arrived, looked at by the detectors once, in passes per workspace: a batch is stored first (`detected` false),
// and the request waits for a pass that began after it stored its rows. Batches arriving while a pass runs share the
// next one, so a looping agent's hundred batches cost a few passes, not a hundred; rows a server stored and never
// looked at (it was cut off, it stopped) are taken by the next pass of their workspace, on whichever server, and by
// the sweep each server makes when it starts. Two servers never look at one row twice: a pass locks what it takes.
import { type Arrived, runDetectors } from "./detect.ts";
import { projectIncident } from "./intent/graph.ts";
import type { Db } from "./store/db.ts";
import * as store from "./store/events.ts";
import { noteAgents } from "./store/fleet.ts";

/** The most rows one pass takes; a workspace with more waiting runs passes until it has none. */
export const PASS_ROWS = 2_000;

/** One pass over `workspaceId`'s rows not yet looked at: how many it took. */
export async function detectPending(db: Db, workspaceId: string, base: string): Promise<number> {
  return db.begin(async (tx) => {
    const rows = await store.undetected(tx, workspaceId, PASS_ROWS);
    if (rows.length === 0) return 0;
    const byMachine = new Map<string, { name: string }[]>();
    for (const r of rows) {
      if (!r.agent) continue;
      const list = byMachine.get(r.machine_id) ?? [];
      list.push({ name: r.agent });
      byMachine.set(r.machine_id, list);
    }
    for (const [machine, agents] of byMachine) await noteAgents(tx, workspaceId, machine, agents);
    const arrived: Arrived[] = rows.map((e) => ({
      id: Number(e.id),
      agent: e.agent,
      session: e.agent_session_id,
      effect: e.effect,
      correlation: e.correlation_id,
      occurredAt: e.occurred_at,
    }));
    await runDetectors(tx, workspaceId, arrived);
    // An incident these actions are evidence of is a node of the team graph, tied to its agents and what they touched.
    const ids = arrived.map((e) => e.id);
    const touched = await store.incidentsCiting(tx, workspaceId, ids);
    for (const i of touched) await projectIncident(tx, workspaceId, i, base, ids);
    await store.markDetected(tx, ids);
    return rows.length;
  });
}

interface Run {
  readonly current: Promise<void>;
  /** The pass after the current one, shared by everyone who stored rows while the current one ran. */
  next?: Promise<void>;
}

/** The passes of one server process, a chain per workspace. */
export class Detections {
  readonly #db: Db;
  readonly #log: (line: string) => void;
  readonly #runs = new Map<string, Run>();

  constructor(db: Db, log: (line: string) => void) {
    this.#db = db;
    this.#log = log;
  }

  /** Resolves once a pass that began after this call has looked at every row of the workspace waiting then. */
  settle(workspaceId: string, base: string): Promise<void> {
    const run = this.#runs.get(workspaceId);
    if (!run) return this.#start(workspaceId, base);
    run.next ??= run.current.then(() => this.#start(workspaceId, base));
    return run.next;
  }

  #start(workspaceId: string, base: string): Promise<void> {
    const current = (async () => {
      try {
        while ((await detectPending(this.#db, workspaceId, base)) >= PASS_ROWS);
      } catch (e) {
        // The rows stay waiting: the workspace's next pass takes them. Nothing the machine sent is lost.
        this.#log(`error detecting in ${workspaceId}: ${(e as Error).message}`);
      }
    })();
    const run: Run = { current };
    this.#runs.set(workspaceId, run);
    void current.then(() => {
      if (this.#runs.get(workspaceId) === run && run.next === undefined) this.#runs.delete(workspaceId);
    });
    return current;
  }

  /** Every workspace with rows nobody looked at (a server stopped before it did): passes started for each. */
  async sweep(base: string): Promise<number> {
    const rows = await store.workspacesUndetected(this.#db);
    await Promise.all(rows.map((r) => this.settle(r.workspace_id, base)));
    return rows.length;
  }
}
