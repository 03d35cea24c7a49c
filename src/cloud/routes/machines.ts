// The fleet: each machine by id (never its hostname), when it last reported, the bundle it applied against the one in
// force, and the mode set against the mode running; an admin moves the mode either way, recorded with who.
import { isMode, type Mode } from "../../core/effect.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { iso } from "../iso.ts";
import { bundleInForce } from "../store/bundle.ts";
import type { MachineRow } from "../store/machines.ts";
import * as store from "../store/machines.ts";
import { audit } from "../store/people.ts";

function view(r: MachineRow, inForce: string) {
  const pending = r.change_id !== null;
  return {
    id: r.id,
    hostnameHash: r.hostname_hash,
    owner: r.owner,
    approvedBy: r.approved_by,
    version: r.version,
    platform: r.platform,
    enrolledAt: iso(r.enrolled_at),
    lastSeenAt: iso(r.last_seen_at),
    revokedAt: iso(r.revoked_at),
    revokedBy: r.revoked_by,
    bundle: { applied: r.bundle_applied, inForce, current: r.bundle_applied === inForce },
    // Rows of its batches refused one by one (the rest stored): a machine reporting is not a machine heard in full.
    refused: {
      count: Number(r.refused_events),
      last: r.last_refusal,
      lastAt: iso(r.last_refusal_at),
    },
    mode: {
      set: r.mode_set,
      running: r.mode_running,
      // Waiting for the machine's next beat to carry it.
      pendingChange: pending
        ? { id: Number(r.change_id), to: r.change_to, by: r.change_by, at: iso(r.change_at) }
        : null,
      // Set and running differ with nothing on its way: somebody changed it on the machine itself.
      drift: !pending && r.mode_running !== null && r.mode_running !== r.mode_set,
      stoppedUntil: iso(r.stopped_until),
    },
  };
}

export type MachineView = ReturnType<typeof view>;

async function machines(c: Call, workspaceId: string, id?: string): Promise<MachineRow[]> {
  return store.machines(c.db, workspaceId, id);
}

export async function listMachines(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const [rows, bundle] = await Promise.all([machines(c, who.workspaceId), bundleInForce(c.db, who.workspaceId)]);
  return json({ bundleInForce: bundle.hash, machines: rows.map((r) => view(r, bundle.hash)) });
}

export async function showMachine(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const id = c.params.id ?? "";
  const [[row], bundle, history] = await Promise.all([
    machines(c, who.workspaceId, id),
    bundleInForce(c.db, who.workspaceId),
    store.modeHistory(c.db, id),
  ]);
  if (!row) throw new HttpError(404, "not_found", `no machine \`${id}\` in this workspace`);
  const modeHistory = history.map((h) => ({
    id: Number(h.id),
    from: h.from_mode,
    to: h.to_mode,
    by: h.by,
    at: iso(h.at),
    deliveredAt: iso(h.delivered_at),
  }));
  return json({ ...view(row, bundle.hash), modeHistory });
}

async function ownMachine(
  c: Call,
  workspaceId: string,
): Promise<{ id: string; mode_set: Mode; revoked_at: Date | null }> {
  const id = c.params.id ?? "";
  const m = await store.machineForUpdate(c.db, workspaceId, id);
  if (!m) throw new HttpError(404, "not_found", `no machine \`${id}\` in this workspace`);
  return m;
}

/** POST /v1/machines/:id/mode {mode}: up or down the ramp; the machine's next heartbeat reply carries the change. */
export async function setMode(c: Call, body: { readonly mode: Mode }): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine cannot set modes");
  const to = body.mode;
  if (!isMode(to)) throw new HttpError(400, "bad_request", "`mode` must be off, observe, advise or enforce");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const m = await ownMachine({ ...c, db: tx }, who.workspaceId);
    if (m.revoked_at) throw new HttpError(409, "revoked", "this machine was revoked; it no longer listens");
    const ch = await store.changeMode(tx, m.id, m.mode_set, to, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "machine.mode",
      subject: m.id,
      detail: { from: m.mode_set, to },
    });
    return json({ machineId: m.id, from: m.mode_set, to, by, changeId: Number(ch?.id), at: iso(ch?.at) });
  });
}

/** POST /v1/machines/:id/revoke: the machine's credential ends here; its loop hears so on its next call and stops. */
export async function revokeMachine(c: Call): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine cannot revoke");
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const m = await ownMachine({ ...c, db: tx }, who.workspaceId);
    if (m.revoked_at) return json({ machineId: m.id, revokedAt: iso(m.revoked_at), already: true });
    const r = await store.revokeMachine(tx, m.id, by);
    await audit(tx, { orgId: who.orgId, actor: by, action: "machine.revoke", subject: m.id });
    return json({ machineId: m.id, revokedAt: iso(r?.revoked_at), by });
  });
}
