// Machine enrolment by device code (RFC 8628): the machine asks for a code, somebody with access approves it, the
// machine's next poll receives a token scoped to that machine. The approver becomes the owner; an operator, nobody.
import type * as v from "valibot";
import { hmacSha256Hex } from "../../io/hash.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { hostnameHash, newDeviceCode, newId, newUserCode, normalUserCode, secretHash } from "../ids.ts";
import { tooMany } from "../limits.ts";
import * as store from "../store/devices.ts";
import { audit, mintToken } from "../store/people.ts";
import type { DeviceRequest } from "./bodies.ts";

const deviceUrl = (c: Call) => `${(c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "")}/device`;

/** Codes waiting at once from one address, and in the whole deployment: a flood fills neither table nor queue. */
const PENDING_PER_REQUESTER = 20;
const PENDING_IN_ALL = 5_000;

// Read once per database this process serves.
const addressKeys = new WeakMap<object, Promise<string>>();

/** The requester's address as stored: keyed by the deployment's own key, so the table is no list of addresses. */
async function requesterOf(c: Call): Promise<string> {
  let known = addressKeys.get(c.db);
  if (!known) {
    known = store.addressKey(c.db).then((r) => r[0]?.address_key ?? "");
    addressKeys.set(c.db, known);
  }
  const key = await known.catch(() => {
    addressKeys.delete(c.db);
    return "";
  });
  return hmacSha256Hex(Buffer.from(key), `memnox-requester-v1\n${c.address ?? "unknown"}`).slice(0, 32);
}

/** POST /v1/devices: a machine asks to be enrolled, sending the public half of the key it just made. */
export async function requestCode(c: Call, body: v.InferOutput<typeof DeviceRequest>): Promise<Response> {
  const { publicKey, hostname, mode } = body;
  if (Buffer.from(publicKey, "base64").length !== 32)
    throw new HttpError(400, "bad_request", "`publicKey` must be a base64 Ed25519 public key (32 bytes)", {
      field: "publicKey",
    });
  const deviceCode = newDeviceCode();
  const userCode = newUserCode();
  const ttl = c.config.deviceTtlS;
  const requester = await requesterOf(c);
  // A code nobody decided has its hostname dropped once it expires, and is forgotten a day later.
  await store.forgetStaleCodes(c.db);
  const n = await store.pendingCounts(c.db, requester);
  const scale = c.guard?.scale ?? 1;
  if (Number(n?.mine ?? 0) >= PENDING_PER_REQUESTER * scale || Number(n?.all ?? 0) >= PENDING_IN_ALL * scale)
    throw tooMany("for an enrolment: codes already wait to be approved", Math.min(ttl, 60));
  await store.insertCode(c.db, {
    id: newId("dev"),
    deviceCodeHash: secretHash(deviceCode),
    userCode,
    publicKey,
    hostname,
    version: body.version ?? null,
    platform: body.platform ?? null,
    mode,
    intervalS: c.config.deviceIntervalS,
    ttlS: ttl,
    requester,
  });
  return json({
    device_code: deviceCode,
    user_code: userCode,
    verification_uri: deviceUrl(c),
    verification_uri_complete: `${deviceUrl(c)}?code=${userCode}`,
    expires_in: ttl,
    interval: c.config.deviceIntervalS,
  });
}

/** RFC 8628 section 3.5's error answers: 400 with `error` and a description. */
function oauthError(error: string, description: string, extra: Record<string, unknown> = {}): Response {
  return json({ error, error_description: description, ...extra }, 400);
}

/** POST /v1/devices/token: the machine's poll. Pending, slow down, refused, expired, or (exactly once) its token. */
export async function pollToken(c: Call, body: { readonly device_code?: string | undefined }): Promise<Response> {
  const code = body.device_code ?? "";
  if (!code) return oauthError("invalid_request", "device_code is required");
  return c.db.begin(async (tx) => {
    const d = await store.codeForPoll(tx, secretHash(code));
    if (!d) return oauthError("invalid_grant", "this device code is not known here");
    if (d.status === "denied") return oauthError("access_denied", "the enrolment was refused");
    if (d.status === "claimed") return oauthError("invalid_grant", "this device code was already used");
    if (d.status === "pending" && d.expired)
      return oauthError("expired_token", "the code expired before anybody approved it");
    // Polling faster than asked (with a little slack for clocks) is told to slow down, and the interval grows.
    if (d.elapsed_ms !== null && d.elapsed_ms < d.interval_s * 800) {
      await store.slowDown(tx, d.id);
      return oauthError("slow_down", "polling too fast", { interval: d.interval_s + 5 });
    }
    await store.notePoll(tx, d.id);
    if (d.status === "pending") return oauthError("authorization_pending", "nobody has approved this machine yet");
    const machineId = d.machine_id ?? "";
    const m = await store.enrolledMachine(tx, machineId);
    if (!m) return oauthError("invalid_grant", "the machine this code enrolled is gone");
    await store.claimCode(tx, d.id);
    const { token } = await mintToken(tx, {
      orgId: m.org_id,
      kind: "machine",
      machineId,
      name: machineId,
      createdBy: "device-code",
    });
    return json({
      access_token: token,
      token_type: "Bearer",
      machine_id: machineId,
      workspace: { id: m.workspace_id, name: m.ws_name },
      org: { id: m.org_id, name: m.org_name },
      owner: m.email,
      mode: m.mode_set,
    });
  });
}

async function pendingCode(c: Call, raw: string, lock: boolean): Promise<store.DeviceRow & { expired: boolean }> {
  const userCode = normalUserCode(raw);
  const rows = await store.codeByUserCode(c.db, userCode, lock);
  const d = rows[0];
  if (!d) throw new HttpError(404, "not_found", `no enrolment is waiting under the code \`${userCode}\``);
  return d;
}

/** GET /v1/devices/:code: what the approver sees before deciding: the hostname reported and how long the code holds. */
export async function showCode(c: Call): Promise<Response> {
  const d = await pendingCode(c, c.params.code ?? "", false);
  const left = Math.max(0, Math.round((d.expires_at.getTime() - c.now()) / 1000));
  return json({
    userCode: d.user_code,
    status: d.status === "pending" && d.expired ? "expired" : d.status,
    hostname: d.status === "pending" ? d.hostname : null,
    version: d.version,
    platform: d.platform,
    requestedMode: d.requested_mode,
    expiresIn: d.status === "pending" ? left : 0,
    machineId: d.machine_id,
  });
}

/** POST /v1/devices/:code/approve and /deny: decided once, by an admin (a person owns it; an operator leaves it unowned). */
export async function decideCode(c: Call, approve: boolean): Promise<Response> {
  const who = c.who;
  if (!who || who.kind === "machine") throw new HttpError(403, "forbidden", "a machine cannot enrol another");
  return c.db.begin(async (tx) => {
    const d = await pendingCode({ ...c, db: tx }, c.params.code ?? "", true);
    if (d.status !== "pending")
      throw new HttpError(409, "already", `this code was already ${d.status === "denied" ? "refused" : "approved"}`);
    if (d.expired) throw new HttpError(410, "expired", "this code expired; the machine has to ask again");
    const by = actorName(who);
    if (!approve) {
      await store.denyCode(tx, d.id, who.orgId, by);
      await audit(tx, { orgId: who.orgId, actor: by, action: "machine.refuse", subject: d.user_code });
      return json({ userCode: d.user_code, status: "denied" });
    }
    const org = await store.hostSalt(tx, who.orgId);
    const machineId = newId("mch");
    const owner = who.kind === "person" ? who.memberId : null;
    const hash = hostnameHash(org?.host_salt ?? "", d.hostname ?? "");
    await store.insertMachine(tx, {
      id: machineId,
      orgId: who.orgId,
      workspaceId: who.workspaceId,
      publicKey: d.public_key,
      hostnameHash: hash,
      ownerId: owner,
      approvedBy: by,
      version: d.version,
      platform: d.platform,
      mode: d.requested_mode,
    });
    await store.approveCode(tx, d.id, who.orgId, by, machineId);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "machine.enrol",
      subject: machineId,
      detail: { owner: who.kind === "person" ? who.email : null, mode: d.requested_mode },
    });
    return json({
      userCode: d.user_code,
      status: "approved",
      machineId,
      owner: who.kind === "person" ? who.email : null,
      hostnameHash: hash,
    });
  });
}
