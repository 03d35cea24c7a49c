// Agents' grants: what a team needs before it lets software act in its name. A grant names the job, the person it acts
// for (an active member), what it may commit alone (a spend ceiling) and until when; its credential is minted once,
// by an admin signed in, and kept only as its hash. Spend is what agents report with that credential: memnox prices
// nothing, so an agent that reports nothing is unknown rather than free.
import type * as v from "valibot";
import { parseDuration } from "../../core/duration.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId, newToken, secretHash } from "../ids.ts";
import { iso } from "../iso.ts";
import { RATES, tooMany } from "../limits.ts";
import type { GrantRow } from "../store/grants.ts";
import * as store from "../store/grants.ts";
import { audit } from "../store/people.ts";
import type { GrantBody, SpendBody } from "./bodies.ts";

type GrantState = "live" | "lapsed" | "revoked";

function stateOf(g: Pick<GrantRow, "expires_at" | "revoked_at">, now: number): GrantState {
  if (g.revoked_at) return "revoked";
  return g.expires_at && g.expires_at.getTime() <= now ? "lapsed" : "live";
}

function view(g: GrantRow, now: number) {
  return {
    id: g.id,
    agent: g.name,
    role: g.role,
    actions: g.actions,
    principal: g.principal,
    spendLimit: g.spend_limit === null ? null : Number(g.spend_limit),
    currency: g.currency,
    expiresAt: iso(g.expires_at),
    createdBy: g.created_by,
    createdAt: iso(g.created_at),
    state: stateOf(g, now),
  };
}

export type GrantView = ReturnType<typeof view>;

/** GET /v1/agents/:name/grants: every grant the agent was given, lapsed and revoked ones too. */
export async function listGrants(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.grants(c.db, who.workspaceId, c.params.name ?? "");
  return json({ grants: rows.map((g) => view(g, c.now())) });
}

/**
 * POST /v1/agents/:name/grants {principal, role?, actions?, spendLimit?, currency?, expiresIn?}: an admin, signed in,
 * gives an agent a grant; the credential is in this answer and nowhere else. An agent not yet reported is enrolled by
 * it. The principal is an active member: a grant cannot act for somebody who is not here.
 */
export async function createGrant(c: Call, body: v.InferOutput<typeof GrantBody>): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const name = c.params.name ?? "";
  if (!/^[A-Za-z0-9][A-Za-z0-9._-]{0,80}$/.test(name))
    throw new HttpError(400, "bad_request", "an agent's name is letters, digits, . _ and -");
  let expires: Date | null = null;
  if (body.expiresIn !== undefined) {
    try {
      expires = new Date(c.now() + parseDuration(body.expiresIn));
    } catch {
      throw new HttpError(400, "bad_request", "`expiresIn` is a duration such as 2h or 7d", { field: "expiresIn" });
    }
  }
  const by = actorName(who);
  return c.db.begin(async (tx) => {
    const p = await store.activeMemberByEmail(tx, who.orgId, body.principal.toLowerCase());
    if (!p)
      throw new HttpError(400, "bad_request", `an agent acts for an active member; \`${body.principal}\` is not one`, {
        field: "principal",
      });
    const a = await store.enrolAgentFor(tx, who.workspaceId, name, p.email);
    if (a?.revoked_at) throw new HttpError(409, "revoked", `\`${name}\` was revoked: that is the end of it`);
    const id = newId("grt");
    const credential = newToken("agent");
    await store.insertGrant(tx, {
      id,
      workspaceId: who.workspaceId,
      name,
      role: body.role ?? null,
      actions: body.actions ?? [],
      principalMemberId: p.id,
      spendLimit: body.spendLimit ?? null,
      currency: body.currency,
      expires,
      credentialHash: secretHash(credential),
      by,
    });
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "agent.grant",
      subject: name,
      detail: {
        grant: id,
        principal: p.email,
        role: body.role ?? null,
        spendLimit: body.spendLimit ?? null,
        expiresAt: iso(expires),
      },
    });
    return json({ id, agent: name, principal: p.email, expiresAt: iso(expires), credential }, 201);
  });
}

/** POST /v1/agents/:name/grants/:id/revoke: the grant's credential stops working at once; its record stays. */
export async function revokeGrant(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const by = actorName(who);
  const g = await store.revokeGrant(c.db, who.workspaceId, c.params.name ?? "", c.params.id ?? "", by);
  if (!g) throw new HttpError(404, "not_found", "no such grant still in force");
  await audit(c.db, { orgId: who.orgId, actor: by, action: "agent.grant.revoke", subject: g.id });
  return json({ id: g.id, revoked: true });
}

/**
 * POST /v1/spend {amount, currency?, action} with the agent's own credential: recorded against its grant. Above the
 * grant's ceiling the answer is `ask` (a person decides); a lapsed, revoked or unknown credential is refused.
 */
export async function reportSpend(c: Call, body: v.InferOutput<typeof SpendBody>): Promise<Response> {
  // An address whose credentials keep failing is refused before one more is looked up.
  const refusedKey = `refused:${c.address ?? "unknown"}`;
  const wait = c.guard?.buckets.peek(refusedKey, RATES.refused) ?? 0;
  if (wait > 0) throw tooMany("with credentials that do not hold", wait);
  const bearer = /^Bearer (mnx_a_[A-Za-z0-9_-]{20,100})$/.exec(c.req.headers.get("authorization") ?? "")?.[1];
  if (!bearer) throw new HttpError(401, "unauthenticated", "this needs the agent's own credential");
  const g = await store.grantByCredential(c.db, secretHash(bearer));
  if (!g) {
    c.guard?.buckets.take(refusedKey, RATES.refused);
    await audit(c.db, { orgId: null, actor: "unknown", action: "auth.unknown_credential", severity: "critical" });
    throw new HttpError(401, "unauthenticated", "the credential is not known");
  }
  const state = g.agent_revoked ? "revoked" : stateOf(g, c.now());
  if (state !== "live") throw new HttpError(401, state, `this grant is ${state}`);
  if (g.halted) throw new HttpError(403, "halted", "this agent is halted");
  const sameCurrency = g.currency === body.currency;
  const over = g.spend_limit !== null && (!sameCurrency || body.amount > Number(g.spend_limit));
  await store.recordSpend(c.db, {
    workspaceId: g.workspace_id,
    name: g.name,
    grantId: g.id,
    amount: body.amount,
    currency: body.currency,
    action: body.action,
    over,
  });
  return json({
    decision: over ? "ask" : "allow",
    ...(over
      ? {
          reason: sameCurrency
            ? `${body.amount} ${body.currency} is above what ${g.name} may commit alone (${Number(g.spend_limit)} ${g.currency}): a person decides`
            : `the ceiling is in ${g.currency}: an amount in another currency needs a person`,
        }
      : {}),
  });
}

/** GET /v1/spend/agents: what each agent reported spending; an agent that reports nothing is unknown, not free. */
export async function spendByAgent(c: Call): Promise<Response> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const rows = await store.spendByAgent(c.db, who.workspaceId);
  return json({
    agents: rows.map((r) => ({
      agent: r.name,
      spent: r.total === null ? null : { amount: Number(r.total), currency: r.currency },
      reports: Number(r.reports),
    })),
  });
}
