// A rule set for the fleet is a proposal until a second admin approves it, compared by identity; the approval
// publishes it as the bundle machines pull, in the same transaction. Where only one admin exists, that admin may.
// Withdrawing your own needs nobody. Derived proposals (block an MCP server, drop a rule) add to the set in force.
import { credentialShapes, maskSecrets } from "../../core/secrets.ts";
import { actorName } from "../auth.ts";
import { lineDiff, unified } from "../diff.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { controlIn } from "../input.ts";
import { withDecisions } from "../intent/compile.ts";
import { iso } from "../iso.ts";
import { recentActions, verdictChanges } from "../preview.ts";
import type { Principal } from "../roles.ts";
import { signedIn } from "../roles.ts";
import { decisionsInForce } from "../store/bundle.ts";
import type { Db } from "../store/db.ts";
import { COOLING_OFF_MS, grantChain, settleDue } from "../store/elevations.ts";
import { audit } from "../store/people.ts";
import type { Changes, ProposalRow } from "../store/proposals.ts";
import * as store from "../store/proposals.ts";
import { checkRules, formatOf, type RuleDoc, type RuleFormat, rulesOf } from "./bundle.ts";

/** What a rule set would change against the one in force, by rule name. */
function changesOf(before: readonly RuleDoc[], after: readonly RuleDoc[]): Changes {
  const was = new Map(before.map((r) => [r.name, JSON.stringify(r)]));
  const now = new Map(after.map((r) => [r.name, JSON.stringify(r)]));
  return {
    added: [...now.keys()].filter((n) => !was.has(n)),
    removed: [...was.keys()].filter((n) => !now.has(n)),
    modified: [...now].filter(([n, text]) => was.has(n) && was.get(n) !== text).map(([n]) => n),
  };
}

function view(p: ProposalRow, withSource = false) {
  return {
    id: p.id,
    kind: p.kind,
    title: p.title,
    format: p.format,
    ruleCount: p.rule_count,
    changes: p.changes,
    baseBundleId: p.base_bundle_id === null ? null : Number(p.base_bundle_id),
    proposedBy: p.proposed_by,
    proposedAt: iso(p.proposed_at),
    status: p.status,
    decidedBy: p.decided_by,
    decidedAt: iso(p.decided_at),
    failure: p.failure,
    bundleId: p.bundle_id === null ? null : Number(p.bundle_id),
    ...(withSource ? { source: p.source } : {}),
  };
}

export type ProposalView = ReturnType<typeof view>;

const person = (who: Principal | undefined): Principal => {
  if (!who || who.kind === "machine")
    throw new HttpError(403, "forbidden", "only a person or an operator proposes rules");
  return who;
};

async function latestBundle(db: Db, workspaceId: string): Promise<{ id: number; rulesJson: string } | undefined> {
  const b = await store.latestBundleRow(db, workspaceId);
  return b ? { id: Number(b.id), rulesJson: b.rules_json } : undefined;
}

interface NewProposal {
  readonly kind: string;
  readonly title: string;
  readonly format: RuleFormat;
  readonly source: string;
}

/** Records a proposal (validated like a rule file on a machine) and changes nothing in force. */
export async function propose(db: Db, who: Principal, p: NewProposal): Promise<ReturnType<typeof view>> {
  if (who.kind === "machine") throw new HttpError(403, "forbidden", "a machine does not propose rules");
  const checked = checkRules(p.format, p.source);
  const by = actorName(who);
  return db.begin(async (tx) => {
    const base = await latestBundle(tx, who.workspaceId);
    const changes = changesOf(rulesOf(base?.rulesJson ?? ""), checked.rules);
    const row = await store.insertProposal(tx, {
      id: newId("prp"),
      workspaceId: who.workspaceId,
      kind: p.kind,
      title: p.title.slice(0, 300),
      format: p.format,
      source: p.source,
      rulesJson: checked.rulesJson,
      ruleCount: checked.rules.length,
      changes,
      baseBundleId: base?.id ?? null,
      by,
      memberId: who.kind === "person" ? who.memberId : null,
      tokenId: who.kind === "operator" ? who.tokenId : null,
    });
    if (!row) throw new HttpError(500, "internal", "the proposal was not recorded");
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: "rules.propose",
      subject: row.id,
      detail: { kind: p.kind, ...changes },
    });
    return view(row);
  });
}

/** The rule set in force with one rule added (or replaced by name), as a JSON rule document. */
export async function withRule(db: Db, workspaceId: string, rule: RuleDoc): Promise<string> {
  const base = await latestBundle(db, workspaceId);
  const doc = base ? (JSON.parse(base.rulesJson) as Record<string, unknown>) : { version: 1 };
  const rules = rulesOf(base?.rulesJson ?? "").filter((r) => r.name !== rule.name);
  return `${JSON.stringify({ ...doc, version: doc.version ?? 1, policies: [...rules, rule] }, null, 2)}\n`;
}

/** The rule set in force without one rule. */
async function withoutRule(db: Db, workspaceId: string, name: string): Promise<string> {
  const base = await latestBundle(db, workspaceId);
  if (!base || !rulesOf(base.rulesJson).some((r) => r.name === name))
    throw new HttpError(404, "not_found", `no rule \`${name}\` in the workspace's rules`);
  const doc = JSON.parse(base.rulesJson) as Record<string, unknown>;
  const rules = rulesOf(base.rulesJson).filter((r) => r.name !== name);
  return `${JSON.stringify({ ...doc, policies: rules }, null, 2)}\n`;
}

/**
 * A rule set's text as it may be stored and shown: no control character (a 400 naming the line), and no credential
 * (a 422 naming the line): a rule names where a secret is, never its value, and the text is shown to every viewer.
 */
function checkSource(source: string): void {
  const lines = source.split("\n");
  for (const [i, l] of lines.entries()) {
    const bad = controlIn(l.replace(/\r$/, ""), true);
    if (bad)
      throw new HttpError(400, "bad_request", `the rule set holds a control character (${bad}) on line ${i + 1}`, {
        field: "body",
        line: i + 1,
      });
  }
  for (const [i, l] of lines.entries())
    if (credentialShapes(l).length > 0)
      throw new HttpError(
        422,
        "holds_credential",
        `line ${i + 1} of the rule set holds a credential (${credentialShapes(l).join(", ")}); a rule names where a secret is, never its value`,
        { line: i + 1 },
      );
}

/** POST /v1/policies/proposals: the body is a rule set (TOML, YAML or JSON, `?format=`); `?title=` names it. */
export async function createProposal(c: Call): Promise<Response> {
  const who = person(c.who);
  const format = formatOf(c);
  const source = await c.req.text();
  checkSource(source);
  const title = maskSecrets(c.url.searchParams.get("title") || "A rule set for the fleet");
  return json(await propose(c.db, who, { kind: "rules", title, format, source }), 201);
}

/** GET /v1/policies/proposals?status=pending (the default) or all. */
export async function listProposals(c: Call): Promise<Response> {
  const who = person(c.who);
  const all = c.url.searchParams.get("status") === "all";
  const rows = await store.listProposals(c.db, who.workspaceId, all);
  return json({ proposals: rows.map((p) => view(p)) });
}

/**
 * GET /v1/policies/proposals/:id: the proposal with its source, the diff of its rules against the rules it was
 * proposed over (both as the JSON machines write), and what it changes on the fleet: which of last week's verdicts it
 * turns, from what to what, with examples.
 */
export async function showProposal(c: Call): Promise<Response> {
  const who = person(c.who);
  const p = await store.proposalById(c.db, who.workspaceId, c.params.id ?? "");
  if (!p) throw new HttpError(404, "not_found", `no proposal \`${c.params.id ?? ""}\``);
  return json({ ...view(p, true), ...(await whatItChanges(c, who.workspaceId, p)) });
}

/** The diff and the fleet's changed verdicts of one proposal, against the rules in force it was proposed over. */
async function whatItChanges(c: Call, workspaceId: string, p: ProposalRow) {
  const [b] = await store.bundleRules(c.db, p.base_bundle_id);
  const before = b?.rules_json ?? "";
  const lines = lineDiff(before, p.rules_json);
  // Decisions in force bind either way: the change is the rule set's alone, read with them as machines read it.
  const decisions = await decisionsInForce(c.db, workspaceId);
  const fleet = verdictChanges(
    withDecisions(before, decisions),
    withDecisions(p.rules_json, decisions),
    await recentActions(c.db, workspaceId, c.now()),
  );
  return { diff: lines ? unified(lines) : null, fleet };
}

/** Whether `who` sent it: the same member, or the same operator token; never a matching name. */
function isProposer(p: ProposalRow, who: Principal): boolean {
  if (who.kind === "person") return p.proposer_member_id === who.memberId;
  if (who.kind === "operator") return p.proposer_token_id === who.tokenId;
  return false;
}

/** A proposal still to decide; one whose publish failed may be published again (`retry`). */
async function pending(tx: Db, c: Call, who: Principal, retry = false): Promise<ProposalRow> {
  const p = await store.proposalForUpdate(tx, who.workspaceId, c.params.id ?? "");
  if (!p) throw new HttpError(404, "not_found", `no proposal \`${c.params.id ?? ""}\``);
  if (p.status !== "pending" && !(retry && p.status === "failed"))
    throw new HttpError(409, "already", `this proposal is already ${p.status}`);
  return p;
}

/**
 * POST /v1/policies/proposals/:id/approve: a second admin publishes it. A person approves (an operator token is one
 * admin's automation, so it never counts as the second); the proposer may only where the organization has one admin.
 */
export async function approveProposal(c: Call): Promise<Response> {
  const who = person(c.who);
  if (who.kind !== "person" || !signedIn(who))
    throw new HttpError(403, "forbidden", "a person approves a rule set, signed in, not a token of theirs");
  await settleDue(c.db, who.orgId, c.now());
  const by = actorName(who);
  const decided = await publishing(c, by, () =>
    c.db.begin(async (tx) => {
      const p = await pending(tx, c, who, true);
      const n = await store.adminsAndRecent(tx, who.orgId, who.memberId);
      const admins = Number(n?.n ?? 0);
      if (isProposer(p, who) && admins > 1)
        throw new HttpError(403, "second_admin", "a second admin approves this: the one who proposed it cannot");
      // Alone only once alone for a while: suspending the other admin does not make a second approval unnecessary.
      const until = n?.recent ? n.recent.getTime() + COOLING_OFF_MS : 0;
      if (isProposer(p, who) && until > c.now())
        throw new HttpError(
          403,
          "second_admin",
          `another admin was an admin until ${iso(n?.recent)}: until ${new Date(until).toISOString()} a second admin approves this`,
        );
      if (p.proposer_token_id !== null && admins > 1) {
        const t = await store.tokenCreator(tx, p.proposer_token_id);
        if (t?.created_by === by)
          throw new HttpError(
            403,
            "second_admin",
            "a second admin approves this: it came from an operator token you made",
          );
      }
      const base = await latestBundle(tx, who.workspaceId);
      if ((base?.id ?? null) !== (p.base_bundle_id === null ? null : Number(p.base_bundle_id)))
        throw new HttpError(409, "stale", "other rules were published since this was proposed: propose it again");
      const { bundleId, row } = await store.publishProposal(tx, who.workspaceId, p, by);
      await audit(tx, {
        orgId: who.orgId,
        actor: by,
        action: "rules.publish",
        subject: p.id,
        detail: {
          bundle: Number(bundleId),
          proposedBy: p.proposed_by,
          approvedBy: by,
          approval: isProposer(p, who) ? "sole-admin" : "second-admin",
          via: who.via,
          session: who.tokenId,
          // How the approver came to be an admin: the grant, who asked for it, who confirmed it.
          approverGrant: await grantChain(tx, who.memberId),
        },
      });
      return row;
    }),
  );
  if (!decided) throw new HttpError(500, "internal", "the proposal was not decided");
  return json(view(decided));
}

/**
 * A publish that fails for any reason but a refusal leaves the proposal `failed` with the reason, never approved: a
 * rule set the team believes is in force and is not would be worse than none. Retrying is approving it again.
 */
async function publishing<T>(c: Call, by: string, run: () => Promise<T>): Promise<T> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof HttpError) throw e;
    const why = (e as Error).message.slice(0, 500);
    await store.failProposal(c.db, c.params.id ?? "", by, why).catch(() => {});
    throw e;
  }
}

/** POST /v1/policies/proposals/:id/reject: another admin rejects it; its proposer withdrawing it needs nobody. */
export async function rejectProposal(c: Call): Promise<Response> {
  const who = person(c.who);
  const by = actorName(who);
  const row = await c.db.begin(async (tx) => {
    const p = await pending(tx, c, who);
    const status = isProposer(p, who) ? "withdrawn" : "rejected";
    if (status === "rejected" && !signedIn(who))
      throw new HttpError(
        403,
        "sign_in_required",
        "rejecting somebody else's rule set is a person's own act, signed in",
      );
    const r = await store.closeProposal(tx, p.id, status, by);
    await audit(tx, {
      orgId: who.orgId,
      actor: by,
      action: `rules.${status === "withdrawn" ? "withdraw" : "reject"}`,
      subject: p.id,
    });
    return r;
  });
  if (!row) throw new HttpError(500, "internal", "the proposal was not decided");
  return json(view(row));
}

/** POST /v1/policies/proposals/drop-rule {rule}: propose the set in force without one rule. */
export async function proposeDrop(c: Call, body: { readonly rule: string }): Promise<Response> {
  const who = person(c.who);
  const { rule } = body;
  const source = await withoutRule(c.db, who.workspaceId, rule);
  const title = `Stop asking: drop the rule ${rule}`;
  return json(await propose(c.db, who, { kind: "drop-rule", title, format: "json", source }), 201);
}
