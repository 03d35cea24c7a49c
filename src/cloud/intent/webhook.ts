// The one signature on the one inbound route every connected system's deliveries arrive through: Standard Webhooks
// (an HMAC-SHA256 over the delivery's id, timestamp and raw body, inside a replay window), checked over the raw bytes
// before anything is parsed, compared in constant time. The key is the route's own: derived from the deployment's
// secret, the workspace and the source, so a delivery signed for one workspace's route checks on no other's. No
// provider's own signature is verified here: the integration provider delivers, and this is the only door.

import { sameText } from "../ids.ts";

/** How far a delivery's timestamp may stand from this server's clock. */
export const REPLAY_WINDOW_S = 5 * 60;

interface Delivery {
  readonly id: string;
  readonly timestamp: number;
}

export type Verified =
  | { readonly ok: true; readonly delivery: Delivery }
  | { readonly ok: false; readonly why: string };

/** The secret's key bytes: `whsec_` and base64, as Standard Webhooks writes it (any other text is used as it is). */
export function secretKey(secret: string): Uint8Array {
  return secret.startsWith("whsec_") ? Buffer.from(secret.slice(6), "base64") : new TextEncoder().encode(secret);
}

/**
 * The secret one route's deliveries are signed with (`whsec_…`): the deployment's secret keyed to the workspace and
 * the source, so nothing signed for one route holds on another, and nothing per route has to be stored.
 */
export function routeSecret(deploymentSecret: string, workspaceId: string, sourceType: string): string {
  const mac = new Bun.CryptoHasher("sha256", secretKey(deploymentSecret))
    .update(`memnox-inbound-v1\n${workspaceId}\n${sourceType}`)
    .digest("base64");
  return `whsec_${mac}`;
}

/** The secret one sink's deliveries are signed with: derived like a route's, under its own label, so kept nowhere. */
export function sinkSecret(deploymentSecret: string, sinkId: string): string {
  const mac = new Bun.CryptoHasher("sha256", secretKey(deploymentSecret))
    .update(`memnox-sink-v1\n${sinkId}`)
    .digest("base64");
  return `whsec_${mac}`;
}

/** The `v1,<base64>` signature of one delivery, as a sender makes it. */
export function signDelivery(secret: string, id: string, timestamp: number, body: Uint8Array | string): string {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const head = new TextEncoder().encode(`${id}.${timestamp}.`);
  const signed = new Uint8Array(head.length + bytes.length);
  signed.set(head);
  signed.set(bytes, head.length);
  const mac = new Bun.CryptoHasher("sha256", secretKey(secret)).update(signed).digest("base64");
  return `v1,${mac}`;
}

/** Checks `webhook-id`, `webhook-timestamp` and `webhook-signature` against the raw body at `nowMs`. */
export function verifyDelivery(secret: string, headers: Headers, body: Uint8Array, nowMs: number): Verified {
  const id = headers.get("webhook-id") ?? "";
  const ts = headers.get("webhook-timestamp") ?? "";
  const sigs = (headers.get("webhook-signature") ?? "").split(" ").filter(Boolean);
  if (!id || !/^\d+$/.test(ts) || sigs.length === 0)
    return { ok: false, why: "the delivery carries no webhook-id, webhook-timestamp and webhook-signature" };
  // The id is kept (a replay is refused by it): printable and short, or the delivery is not one.
  if (!/^[\x21-\x7e]{1,256}$/.test(id)) return { ok: false, why: "the delivery's webhook-id is not a printable id" };
  const timestamp = Number(ts);
  if (Math.abs(nowMs / 1000 - timestamp) > REPLAY_WINDOW_S)
    return { ok: false, why: "the delivery's timestamp is outside the replay window" };
  const expected = signDelivery(secret, id, timestamp, body);
  // Every signature is compared (a rotating sender sends several), none short-circuits another.
  let good = false;
  for (const s of sigs) good = sameText(s, expected) || good;
  return good ? { ok: true, delivery: { id, timestamp } } : { ok: false, why: "the signature does not check" };
}
