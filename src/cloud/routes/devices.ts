// Machine enrolment by device code (RFC 8628): the machine asks for a code, somebody with access approves it, the
// machine's next poll receives a token scoped to that machine. The approver becomes the owner; an operator, nobody.
import type * as v from "valibot";
import type { Mode } from "../../core/effect.ts";
import { hmacSha256Hex } from "../../io/hash.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { hostnameHash, newDeviceCode, newId, newUserCode, normalUserCode, secretHash } from "../ids.ts";
import { tooMany } from "../limits.ts";
import { audit, mintToken } from "../store/people.ts";
import type { DeviceRequest } from "./bodies.ts";

interface DeviceRow {
  id: string;
  user_code: string;
  hostname: string | null;
  version: string | null;
  platform: string | null;
  public_key: string;
  requested_mode: Mode;
  interval_s: number;
  created_at: Date;
  expires_at: Date;
  last_poll_at: Date | null;
  status: "pending" | "approved" | "denied" | "claimed";
  org_id: string | null;
  machine_id: string | null;
}

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
    known = (c.db`SELECT address_key FROM deployment WHERE id = 1` as Promise<{ address_key: string }[]>).then(
      (r) => r[0]?.address_key ?? "",
    );
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
  await c.db`UPDATE device_codes SET hostname = NULL WHERE hostname IS NOT NULL AND expires_at < now()`;
  await c.db`DELETE FROM device_codes WHERE status = 'pending' AND expires_at < now() - interval '1 day'`;
  const [n]: { mine: string; all: string }[] = await c.db`
    SELECT count(*) FILTER (WHERE requester = ${requester}) AS mine, count(*) AS all FROM device_codes
    WHERE status = 'pending' AND expires_at > now()`;
  const scale = c.guard?.scale ?? 1;
  if (Number(n?.mine ?? 0) >= PENDING_PER_REQUESTER * scale || Number(n?.all ?? 0) >= PENDING_IN_ALL * scale)
    throw tooMany("for an enrolment: codes already wait to be approved", Math.min(ttl, 60));
  await c.db`INSERT INTO device_codes (id, device_code_hash, user_code, public_key, hostname, version, platform,
                                       requested_mode, interval_s, expires_at, requester)
             VALUES (${newId("dev")}, ${secretHash(deviceCode)}, ${userCode}, ${publicKey}, ${hostname},
                     ${body.version ?? null}, ${body.platform ?? null},
                     ${mode}, ${c.config.deviceIntervalS}, now() + make_interval(secs => ${ttl}), ${requester})`;
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
    const [d]: (DeviceRow & { elapsed_ms: number | null; expired: boolean })[] = await tx`
      SELECT *, (EXTRACT(EPOCH FROM (now() - last_poll_at)) * 1000)::float8 AS elapsed_ms, expires_at < now() AS expired
      FROM device_codes WHERE device_code_hash = ${secretHash(code)} FOR UPDATE`;
    if (!d) return oauthError("invalid_grant", "this device code is not known here");
    if (d.status === "denied") return oauthError("access_denied", "the enrolment was refused");
    if (d.status === "claimed") return oauthError("invalid_grant", "this device code was already used");
    if (d.status === "pending" && d.expired)
      return oauthError("expired_token", "the code expired before anybody approved it");
    // Polling faster than asked (with a little slack for clocks) is told to slow down, and the interval grows.
    if (d.elapsed_ms !== null && d.elapsed_ms < d.interval_s * 800) {
      await tx`UPDATE device_codes SET interval_s = interval_s + 5, last_poll_at = now() WHERE id = ${d.id}`;
      return oauthError("slow_down", "polling too fast", { interval: d.interval_s + 5 });
    }
    await tx`UPDATE device_codes SET last_poll_at = now() WHERE id = ${d.id}`;
    if (d.status === "pending") return oauthError("authorization_pending", "nobody has approved this machine yet");
    const machineId = d.machine_id ?? "";
    const [m]: {
      org_id: string;
      workspace_id: string;
      ws_name: string;
      org_name: string;
      email: string | null;
      mode_set: Mode;
    }[] = await tx`SELECT x.org_id, x.workspace_id, w.name AS ws_name, o.name AS org_name, p.email, x.mode_set
               FROM machines x JOIN workspaces w ON w.id = x.workspace_id JOIN orgs o ON o.id = x.org_id
               LEFT JOIN members p ON p.id = x.owner_id WHERE x.id = ${machineId}`;
    if (!m) return oauthError("invalid_grant", "the machine this code enrolled is gone");
    await tx`UPDATE device_codes SET status = 'claimed' WHERE id = ${d.id}`;
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

async function pendingCode(c: Call, raw: string, lock: boolean): Promise<DeviceRow & { expired: boolean }> {
  const userCode = normalUserCode(raw);
  const rows: (DeviceRow & { expired: boolean })[] = lock
    ? await c.db`SELECT *, expires_at < now() AS expired FROM device_codes WHERE user_code = ${userCode} FOR UPDATE`
    : await c.db`SELECT *, expires_at < now() AS expired FROM device_codes WHERE user_code = ${userCode}`;
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
      await tx`UPDATE device_codes SET status = 'denied', hostname = NULL, org_id = ${who.orgId}, decided_by = ${by},
                      decided_at = now() WHERE id = ${d.id}`;
      await audit(tx, { orgId: who.orgId, actor: by, action: "machine.refuse", subject: d.user_code });
      return json({ userCode: d.user_code, status: "denied" });
    }
    const [org]: { host_salt: string }[] = await tx`SELECT host_salt FROM orgs WHERE id = ${who.orgId}`;
    const machineId = newId("mch");
    const owner = who.kind === "person" ? who.memberId : null;
    const hash = hostnameHash(org?.host_salt ?? "", d.hostname ?? "");
    await tx`INSERT INTO machines (id, org_id, workspace_id, public_key, hostname_hash, owner_id, approved_by, version,
                                   platform, mode_set)
             VALUES (${machineId}, ${who.orgId}, ${who.workspaceId}, ${d.public_key}, ${hash}, ${owner}, ${by},
                     ${d.version}, ${d.platform}, ${d.requested_mode})`;
    await tx`UPDATE device_codes SET status = 'approved', hostname = NULL, org_id = ${who.orgId}, decided_by = ${by},
                    decided_at = now(), machine_id = ${machineId} WHERE id = ${d.id}`;
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
