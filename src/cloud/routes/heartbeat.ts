// POST /v1/heartbeat: a machine says which bundle it applied and which mode it runs, hands up the calls held for a
// person, and hears back what changed for it: a mode change nobody has delivered yet, and answers to its holds.
import * as v from "valibot";
import { MODES } from "../../core/effect.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { ident, instant, line, prose, text, whole } from "../input.ts";
import { iso } from "../iso.ts";
import type { HeartbeatReply, HoldAnswerDown } from "../protocol/sync.ts";
import { bundleInForce } from "../store/bundle.ts";
import { recordBeat } from "../store/fleet.ts";

const HoldSchema = v.strictObject({
  id: ident(40, /^a_[0-9a-f]{6,}$/, "is not a hold id"),
  surface: ident(40),
  action: line(300),
  target: v.optional(text(600)),
  repository: v.optional(line(600)),
  agent: v.optional(line(200)),
  session: v.optional(ident(200)),
  reason: prose(2000),
  ruleId: v.optional(line(300)),
  createdAt: instant,
  expiresAt: instant,
});

const name = ident(200, /^[^\s]+$/, "is not a name");

const InventorySchema = v.strictObject({
  hash: ident(100),
  scannedAt: instant,
  agents: v.pipe(v.array(v.strictObject({ name, kind: line(100) })), v.maxLength(200)),
  mcpServers: v.pipe(
    v.array(
      v.strictObject({
        name,
        proxied: v.boolean(),
        tools: v.optional(whole()),
        writeTools: v.optional(whole()),
        agents: v.pipe(v.array(line(200)), v.maxLength(50)),
      }),
    ),
    v.maxLength(500),
  ),
});

/** The heartbeat a machine sends: what it applied, what it runs, what waits on a person there, its inventory. */
export const HeartbeatSchema = v.strictObject({
  bundleHash: v.nullable(ident(100)),
  modeRunning: v.picklist(MODES),
  stoppedUntil: v.optional(instant),
  modeChangeApplied: v.optional(whole(0, Number.MAX_SAFE_INTEGER)),
  holds: v.pipe(v.array(HoldSchema), v.maxLength(200)),
  answersApplied: v.pipe(v.array(ident(40)), v.maxLength(200)),
  version: line(60),
  inventory: v.optional(InventorySchema),
});

export async function heartbeat(c: Call, hb: v.InferOutput<typeof HeartbeatSchema>): Promise<Response> {
  const who = c.who;
  if (who?.kind !== "machine") throw new HttpError(403, "forbidden", "only a machine beats");
  const machineId = who.machineId;
  const reply = await c.db.begin(async (tx) => {
    const { m, inv, ch, answers } = await recordBeat(tx, who.workspaceId, machineId, hb);
    return {
      inventoryHash: inv?.inventory_hash ?? null,
      modeSet: m?.mode_set ?? "observe",
      modeChange: ch ? { id: Number(ch.id), to: ch.to_mode, by: ch.by, at: iso(ch.at) ?? "" } : null,
      answers: answers.map(
        (a): HoldAnswerDown => ({
          id: a.id,
          localId: a.local_id,
          grant: a.answer === "grant",
          scope: a.scope === "session" ? "session" : "once",
          by: a.answered_by,
          at: iso(a.answered_at) ?? "",
        }),
      ),
    };
  });
  const bundle = await bundleInForce(c.db, who.workspaceId);
  const out: HeartbeatReply = {
    machineId,
    ...reply,
    bundleHash: bundle.hash,
    serverTime: new Date(c.now()).toISOString(),
  };
  return json(out);
}
