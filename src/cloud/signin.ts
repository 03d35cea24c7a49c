// Signing in to the console through OpenID Connect, with a certified relying party (openid-client): authorization
// code with PKCE, state and nonce bound to this browser by a cookie and kept server-side for one use, the ID token's
// signature, issuer and audience checked before any claim is read. Who may enter is decided here, never by a claim:
// a verified email provisioned in an organization lands there with the role an admin gave it; an unknown one gets an
// organization of its own when self-service is on and is refused when it is off; nothing else gets in.
import * as client from "openid-client";
import { cookie, SESSION_COOKIE } from "./auth.ts";
import type { ServerConfig, SignInConfig } from "./http.ts";
import { HttpError } from "./http-error.ts";
import { secretHash } from "./ids.ts";
import type { Db } from "./store/db.ts";
import { createOwnOrg } from "./store/people.ts";
import * as store from "./store/sessions.ts";
import { createSession, SESSION_MAX_MS } from "./store/sessions.ts";

export const SIGN_IN_COOKIE = "__Host-memnox-sign-in";
const SIGN_IN_TTL_MS = 10 * 60_000;
const CALLBACK_PATH = "/auth/callback";

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|localhost|\[::1\])$/;

/** Plain http is accepted only on loopback, where a browser still treats the page as a secure context. */
function isLoopbackHttp(url: URL): boolean {
  return url.protocol === "http:" && LOOPBACK.test(url.hostname);
}

/** The origin the console answers on: the configured public URL, else the request's own (loopback or https only). */
export function consoleOrigin(config: ServerConfig, url: URL): string {
  const base = new URL(config.publicUrl ?? url.origin);
  if (base.protocol !== "https:" && !isLoopbackHttp(base))
    throw new HttpError(400, "https_only", "the console is served over https only (plain http on loopback aside)");
  return base.origin;
}

// One discovery per process and issuer: the provider's metadata and keys, fetched on the first sign-in.
const discovered = new Map<string, Promise<client.Configuration>>();

function configuration(s: SignInConfig): Promise<client.Configuration> {
  const key = `${s.issuer}\n${s.clientId}`;
  let p = discovered.get(key);
  if (!p) {
    const issuer = new URL(s.issuer);
    const insecure = isLoopbackHttp(issuer);
    if (issuer.protocol !== "https:" && !insecure)
      return Promise.reject(new HttpError(500, "sign_in_misconfigured", "the issuer must be https (loopback aside)"));
    p = client.discovery(
      issuer,
      s.clientId,
      // RS256 unless the provider says otherwise: never a symmetric algorithm, never none.
      s.clientSecret ?? undefined,
      s.clientSecret ? undefined : client.None(),
      insecure ? { execute: [client.allowInsecureRequests] } : undefined,
    );
    p.catch(() => discovered.delete(key));
    discovered.set(key, p);
  }
  return p;
}

const secure = (name: string, value: string, maxAgeS: number, sameSite: "Lax" | "Strict") =>
  `${name}=${value}; Path=/; HttpOnly; Secure; SameSite=${sameSite}; Max-Age=${maxAgeS}`;

export const clearCookie = (name: string) => `${name}=; Path=/; HttpOnly; Secure; SameSite=Lax; Max-Age=0`;

/** A path on this console to return to after signing in; anything else is the home page. */
export function localPath(raw: string | null | undefined): string {
  return raw && /^\/(?![/\\])[\w\-./?=&%#]*$/.test(raw) ? raw : "/";
}

/** GET /signin/start: a redirect to the provider, with state, nonce and the PKCE verifier kept for its return. */
export async function startSignIn(db: Db, config: ServerConfig, url: URL): Promise<Response> {
  const s = config.signIn;
  if (!s) throw new HttpError(404, "not_configured", "sign-in is not configured on this control plane");
  const origin = consoleOrigin(config, url);
  const cfg = await configuration(s);
  const verifier = client.randomPKCECodeVerifier();
  const state = client.randomState();
  const nonce = client.randomNonce();
  const binding = client.randomState();
  await store.startSignIn(db, {
    hash: secretHash(binding),
    state,
    nonce,
    verifier,
    returnTo: localPath(url.searchParams.get("return")),
    expires: new Date(Date.now() + SIGN_IN_TTL_MS),
  });
  const to = client.buildAuthorizationUrl(cfg, {
    redirect_uri: `${origin}${CALLBACK_PATH}`,
    scope: "openid email",
    code_challenge: await client.calculatePKCECodeChallenge(verifier),
    code_challenge_method: "S256",
    state,
    nonce,
  });
  // Lax, not Strict: the provider's redirect back is a top-level navigation from another site, and must carry it.
  return new Response(null, {
    status: 302,
    headers: {
      location: to.href,
      "cache-control": "no-store",
      "set-cookie": secure(SIGN_IN_COOKIE, binding, SIGN_IN_TTL_MS / 1000, "Lax"),
    },
  });
}

type Refusal = "unverified" | "unknown" | "suspended" | "other-identity" | "failed";

export class SignInRefused extends Error {
  readonly why: Refusal;
  constructor(why: Refusal, detail = "") {
    super(`sign-in refused (${why})${detail ? `: ${detail}` : ""}`);
    this.why = why;
  }
}

/**
 * The member this verified identity signs in as: the provisioned one (its identity bound on the first sign-in, and
 * from then on only that identity), or, with self-service on, the admin of a new organization of its own.
 */
async function memberFor(
  db: Db,
  s: SignInConfig,
  identity: { readonly email: string; readonly subject: string },
): Promise<string> {
  const email = identity.email.toLowerCase();
  const rows = await store.membersByEmail(db, email);
  if (rows.length === 0) {
    if (!s.selfService) throw new SignInRefused("unknown");
    const made = await createOwnOrg(db, email);
    await store.bindIdentity(db, made.admin.id, s.issuer, identity.subject);
    return made.admin.id;
  }
  const usable = rows.filter(
    (m) => m.oidc_subject === null || (m.oidc_issuer === s.issuer && m.oidc_subject === identity.subject),
  );
  if (usable.length === 0) throw new SignInRefused("other-identity");
  const active = usable.filter((m) => m.status === "active");
  // The organization signed in to last; the others are a switch away under the avatar.
  const m = active[0];
  if (!m) throw new SignInRefused("suspended");
  // Bind every provisioned row of this address that is still unbound: a later sign-in must be this same identity.
  for (const r of usable) if (r.oidc_subject === null) await store.bindUnbound(db, r.id, s.issuer, identity.subject);
  return m.id;
}

/** GET /auth/callback: the provider's answer, checked whole by the relying party, then a session of our own. */
export async function finishSignIn(
  db: Db,
  config: ServerConfig,
  req: Request,
  url: URL,
  now: number,
): Promise<{ readonly response: Response; readonly memberId: string }> {
  const s = config.signIn;
  if (!s) throw new HttpError(404, "not_configured", "sign-in is not configured on this control plane");
  const origin = consoleOrigin(config, url);
  const binding = cookie(req, SIGN_IN_COOKIE);
  if (!binding) throw new SignInRefused("failed", "no sign-in was started in this browser");
  const pending = await store.takeSignIn(db, secretHash(binding));
  if (!pending) throw new SignInRefused("failed", "the sign-in expired or was already used");
  const cfg = await configuration(s);
  let claims: { sub: string; email?: unknown; email_verified?: unknown } | undefined;
  try {
    // The URL the provider sent the browser to, as this console's origin names it.
    const current = new URL(`${origin}${CALLBACK_PATH}${url.search}`);
    const tokens = await client.authorizationCodeGrant(cfg, current, {
      pkceCodeVerifier: pending.code_verifier,
      expectedState: pending.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    const id = tokens.claims();
    claims = id;
    // A provider that follows OIDC Core 5.4 keeps scope claims for userinfo; that answer is checked against `sub`.
    if (id && id.email === undefined && tokens.access_token)
      claims = { ...(await client.fetchUserInfo(cfg, tokens.access_token, id.sub)), sub: id.sub };
  } catch (e) {
    throw new SignInRefused("failed", (e as Error).message);
  }
  const email = typeof claims?.email === "string" ? claims.email : "";
  // An unverified address may belong to somebody else: refused outright, whatever else the token says.
  if (claims?.email_verified !== true || !/^[^@\s]+@[^@\s]+$/.test(email)) throw new SignInRefused("unverified");
  const memberId = await memberFor(db, s, { email, subject: claims.sub });
  const session = await createSession(db, memberId, now);
  const headers = new Headers({ location: pending.return_to, "cache-control": "no-store" });
  headers.append("set-cookie", clearCookie(SIGN_IN_COOKIE));
  headers.append("set-cookie", secure(SESSION_COOKIE, session.secret, SESSION_MAX_MS / 1000, "Lax"));
  return { response: new Response(null, { status: 303, headers }), memberId };
}
