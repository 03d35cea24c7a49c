// The systems that sign their webhooks their own way, checked as each signs, over the raw bytes, in constant time, with
// the route's own secret (routeSecret) as the text the admin pasted into the system: GitHub's x-hub-signature-256,
// Linear's Linear-Signature, Jira's X-Hub-Signature. Each names its delivery (kept so a replay elsewhere is refused)
// and, where it signs one, a time inside the body that bounds a replay on the same route.
import { isRecord } from "../../core/record.ts";
import { sameText } from "../ids.ts";
import { REPLAY_WINDOW_S, type Verified } from "./webhook.ts";

export interface OwnVerified {
  readonly verified: Verified;
  /** How long the delivery's id is kept: as long as the system may resend it; null for the replay window's. */
  readonly keepMs: number | null;
}

interface OwnScheme {
  /** The header whose presence says the system signed this delivery itself. */
  readonly header: string;
  verify(secret: string, headers: Headers, bytes: Uint8Array, nowMs: number): OwnVerified;
}

/** GitHub keeps a delivery to redeliver for 3 days; its id is kept a little longer than that. */
const GITHUB_KEEP_MS = 4 * 86_400_000;
/** Jira retries for up to a quarter of an hour after the event, and its secondary lane is allowed as long again. */
const JIRA_WINDOW_MS = 60 * 60_000;

/** The hex HMAC-SHA256 of the raw body, keyed with the secret's text as the admin pasted it. */
function hexMac(secret: string, bytes: Uint8Array): string {
  return new Bun.CryptoHasher("sha256", new TextEncoder().encode(secret)).update(bytes).digest("hex");
}

const printable = (id: string) => /^[\x21-\x7e]{1,256}$/.test(id);
const refused = (why: string): OwnVerified => ({ verified: { ok: false, why }, keepMs: null });

/** A number of milliseconds the (already authenticated) body names at `field`. */
function signedTime(bytes: Uint8Array, field: string): number | undefined {
  try {
    const v: unknown = JSON.parse(new TextDecoder().decode(bytes));
    const t = isRecord(v) ? v[field] : undefined;
    return typeof t === "number" && Number.isFinite(t) ? t : undefined;
  } catch {
    return undefined;
  }
}

/**
 * One scheme: the id header, the signature as `prefix` + hex HMAC, and (where the system signs one) the body's
 * time field, which must stand within `windowMs` of now.
 */
function hexScheme(o: {
  readonly system: string;
  readonly header: string;
  readonly prefix: string;
  readonly idHeader: string;
  readonly time?: { readonly field: string; readonly windowMs: number };
  readonly keepMs: number | null;
}): OwnScheme {
  return {
    header: o.header,
    verify(secret, headers, bytes, nowMs) {
      const id = headers.get(o.idHeader) ?? "";
      if (!printable(id)) return refused(`the delivery carries no printable ${o.idHeader}`);
      if (!sameText(headers.get(o.header) ?? "", `${o.prefix}${hexMac(secret, bytes)}`))
        return refused(`the ${o.header} does not check`);
      if (o.time) {
        const at = signedTime(bytes, o.time.field);
        if (at === undefined) return refused(`the signed body names no ${o.time.field}`);
        if (Math.abs(nowMs - at) > o.time.windowMs) return refused(`the ${o.time.field} is outside the replay window`);
      }
      return { verified: { ok: true, delivery: { id: `${o.system}:${id}`, timestamp: 0 } }, keepMs: o.keepMs };
    },
  };
}

export const OWN_SCHEMES: Readonly<Record<string, OwnScheme>> = {
  // GitHub sends no timestamp: its ids are kept for as long as it may redeliver.
  github: hexScheme({
    system: "github",
    header: "x-hub-signature-256",
    prefix: "sha256=",
    idHeader: "x-github-delivery",
    keepMs: GITHUB_KEEP_MS,
  }),
  // Linear signs a `webhookTimestamp` (ms) into the body; a delivery is taken inside the replay window.
  linear: hexScheme({
    system: "linear",
    header: "linear-signature",
    prefix: "",
    idHeader: "linear-delivery",
    time: { field: "webhookTimestamp", windowMs: REPLAY_WINDOW_S * 1000 },
    keepMs: null,
  }),
  // A Jira admin webhook with a secret: WebSub's `sha256=`; the body's `timestamp` (ms) is the event's, kept on retries.
  jira: hexScheme({
    system: "jira",
    header: "x-hub-signature",
    prefix: "sha256=",
    idHeader: "x-atlassian-webhook-identifier",
    time: { field: "timestamp", windowMs: JIRA_WINDOW_MS },
    keepMs: 2 * JIRA_WINDOW_MS,
  }),
};
