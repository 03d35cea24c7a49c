// What the team intended, as the API answers it: extraction runs (the one place a model runs, 503 without the
// deployment's credential), the review queue filtered by the reviewer's clearance, approvals that record a person's
// name, scope and what is superseded (and compile into the bundle), rejections kept as signal, and the four questions.
import type * as v from "valibot";
import { decisionTerms } from "../../core/decisions.ts";
import { maskSecrets } from "../../core/secrets.ts";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { newId } from "../ids.ts";
import { cursorParam } from "../input.ts";
import { canRead, filtered, levelRank } from "../intent/clearance.ts";
import { boundTermsOf, decisionRules, MAX_BOUND_TERMS, matchHash } from "../intent/compile.ts";
import { EXTRACTION_SYSTEM, extractionPrompt, readCandidates, type WindowEvent } from "../intent/extract.ts";
import { nodeId, projectDecision, projectSourceEvent, rebuildGraph } from "../intent/graph.ts";
import { ModelFailure, type ModelPort } from "../intent/model.ts";
import { dedupKey } from "../intent/normalize.ts";
import { decayCheck, detectPatterns, driftReport, type Pattern } from "../intent/practice.ts";
import { answerReader, readerOf } from "../intent/readers.ts";
import {
  type CandidateRow,
  candidateView,
  type DecisionRow,
  decisionView,
  type SourceEventRow,
  sourceEventView,
} from "../intent/rows.ts";
import { iso } from "../iso.ts";
import { caughtBy, recentActions } from "../preview.ts";
import { escapeControls } from "../protocol/text.ts";
import * as store from "../store/decisions.ts";
import * as events from "../store/events.ts";
import { audit } from "../store/people.ts";
import type { CandidateApproval, CandidateRejection, ExtractionChange, ExtractionRun } from "./bodies.ts";
import { currentModel, modelFor } from "./model.ts";
import { propose, withRule } from "./proposals.ts";

/** A model's words as they may be stored: masked, and any control character written out (the model is not trusted). */
function storable(text: string): string {
  return escapeControls(maskSecrets(text), true);
}

/** How many events one run reads at most: a window, never the whole history at once. */
const WINDOW_EVENTS = 200;

function caller(c: Call) {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return who;
}

function baseOf(c: Call): string {
  return (c.config.publicUrl ?? c.url.origin).replace(/\/+$/, "");
}

/** POST /v1/extraction/runs {after?, through?}: reads the next window up to `readsUpTo` and proposes candidates. */
export async function startExtraction(c: Call, body: v.InferOutput<typeof ExtractionRun>): Promise<Response> {
  const who = caller(c);
  const model = await modelFor(c, who.workspaceId);
  const ws = await store.extractionSetting(c.db, who.workspaceId);
  if (!ws) throw new HttpError(404, "not_found", "no such workspace");
  const last = await store.lastExtractedThrough(c.db, who.workspaceId);
  const after = body.after ?? Number(last ?? 0);
  const through = body.through ?? Number.MAX_SAFE_INTEGER;
  const rows = await store.extractionWindow(c.db, who.workspaceId, after, through, WINDOW_EVENTS);
  // Restricted never goes to a model; above readsUpTo is withheld from it and counted.
  const ceiling = levelRank(ws.reads_up_to);
  const sent = rows.filter((r) => r.classification !== "restricted" && levelRank(r.classification) <= ceiling);
  const windowThrough = rows.length > 0 ? Number(rows[rows.length - 1]?.id) : after;
  const runId = newId("run");
  await store.insertExtractionRun(c.db, {
    id: runId,
    workspaceId: who.workspaceId,
    startedBy: actorName(who),
    model: model.model,
    readsUpTo: ws.reads_up_to,
    after,
    through: windowThrough,
    sent: sent.length,
    withheld: rows.length - sent.length,
  });
  const window: WindowEvent[] = sent.map((r) => ({
    id: Number(r.id),
    sourceType: r.source_type,
    kind: r.kind,
    stream: r.stream,
    author: r.author,
    tainted: r.tainted,
    occurredAt: r.occurred_at.toISOString(),
    content: r.content,
    classification: r.classification,
    audiences: r.audiences,
  }));
  if (window.length === 0) {
    await store.finishEmptyRun(c.db, runId);
    return json({ id: runId, sent: 0, withheld: rows.length, proposed: 0, dropped: 0, candidates: [] }, 201);
  }
  let answer: Awaited<ReturnType<ModelPort["ask"]>>;
  try {
    answer = await model.ask({
      system: EXTRACTION_SYSTEM,
      user: extractionPrompt({ team: ws.team, about: ws.about }, window),
      maxTokens: 4096,
    });
  } catch (e) {
    const why = e instanceof ModelFailure ? e.message : "the model call failed";
    await store.failRun(c.db, runId, why);
    throw new HttpError(502, "model_failed", why, { run: runId });
  }
  const read = readCandidates(answer.text, window);
  // A suggestion already decided, already waiting, or already rejected is not asked again: a re-read thread is no news.
  const known = await store.knownStatements(c.db, who.workspaceId);
  const seen = new Set(known.map((k) => nodeId("decision", k.statement)));
  const candidates = read.candidates.filter((k) => !seen.has(nodeId("decision", k.statement)));
  const dropped = read.dropped + read.candidates.length - candidates.length;
  const made: CandidateRow[] = [];
  for (const k of candidates) {
    const row = await store.insertExtractedCandidate(c.db, {
      id: newId("cand"),
      workspaceId: who.workspaceId,
      runId,
      statement: storable(k.statement),
      rationale: k.rationale === null ? null : storable(k.rationale),
      affects: k.affects.map(storable),
      evidence: k.evidence,
      classification: k.classification,
      audiences: k.audiences,
      tainted: k.tainted,
    });
    if (row) made.push(row);
  }
  await store.finishRun(c.db, runId, {
    proposed: made.length,
    dropped,
    inputTokens: answer.inputTokens,
    outputTokens: answer.outputTokens,
  });
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "extraction.run", subject: runId });
  return json(
    {
      id: runId,
      sent: window.length,
      withheld: rows.length - sent.length,
      proposed: made.length,
      dropped,
      candidates: made.map(candidateView),
    },
    201,
  );
}

async function eventsById(c: Call, workspaceId: string, ids: readonly (string | number)[]): Promise<SourceEventRow[]> {
  return store.eventsById(c.db, workspaceId, ids);
}

/** GET /v1/candidates?status=pending: the review queue as this reader may see it, each with its evidence first. */
export async function listCandidates(c: Call): Promise<Response> {
  const who = caller(c);
  const status = c.url.searchParams.get("status") ?? "pending";
  if (!["pending", "approved", "rejected"].includes(status))
    throw new HttpError(400, "bad_request", "`status` is pending, approved or rejected");
  const rows = await store.candidatesIn(c.db, who.workspaceId, status);
  const reader = await readerOf(c.db, who);
  const { shown, withheld } = filtered(reader, rows);
  const out = [];
  for (const k of shown) {
    const ev = filtered(reader, await eventsById(c, who.workspaceId, k.evidence));
    out.push({ ...candidateView(k), events: ev.shown.map(sourceEventView), eventsWithheld: ev.withheld });
  }
  return json({ candidates: out, withheld });
}

async function candidateFor(c: Call, workspaceId: string, decidedToo = false): Promise<CandidateRow> {
  const k = await store.candidateById(c.db, workspaceId, c.params.id ?? "");
  const who = caller(c);
  // A candidate the reviewer may not read is not theirs to decide: it is not there for them.
  if (!k || !canRead(await readerOf(c.db, who), k)) throw new HttpError(404, "not_found", "no such candidate");
  if (k.status !== "pending" && !decidedToo)
    throw new HttpError(409, "decided", `it was already ${k.status} by ${k.decided_by ?? "somebody"}`);
  return k;
}

/** The decision a candidate would become, compiled for a reviewer: its terms, those it binds by, its rules. */
function compiledFor(k: CandidateRow, terms: readonly string[] | undefined, effect: "ask" | "deny") {
  const all = decisionTerms(k.statement);
  const chosen = terms === undefined ? boundTermsOf({ terms: all, statement: k.statement }) : [...new Set(terms)];
  const stray = chosen.find((t) => !all.includes(t));
  if (stray !== undefined)
    throw new HttpError(
      400,
      "bad_request",
      `\`terms\`: \`${stray}\` is not a term of the statement (${all.join(", ")})`,
      {
        field: "terms",
      },
    );
  if (chosen.length > MAX_BOUND_TERMS)
    throw new HttpError(400, "bad_request", `\`terms\`: a decision binds by ${MAX_BOUND_TERMS} terms at most`, {
      field: "terms",
    });
  const rules = decisionRules({
    id: k.id,
    nodeId: nodeId("decision", k.statement),
    statement: k.statement,
    terms: all,
    boundTerms: chosen,
    effect,
    approvedBy: "its approver",
    sourceRef: "its evidence",
    quoted: true,
  });
  return { all, chosen, rules, hash: matchHash(rules) };
}

/**
 * GET /v1/candidates/:id/preview?terms=a,b&effect=deny: the rules the candidate would compile to, read before any
 * approval, and what they would have caught of the fleet's last week: which actions and targets, how many, examples.
 * An approval sends back `rules` (this hash), so what is published is exactly what was read here.
 */
export async function previewCandidate(c: Call): Promise<Response> {
  const who = caller(c);
  const k = await candidateFor(c, who.workspaceId, true);
  if (k.origin === "pattern") throw new HttpError(409, "pattern", "a pattern becomes a rule proposal, previewed there");
  const q = c.url.searchParams;
  const raw = q.get("terms");
  const terms =
    raw === null
      ? undefined
      : raw
          .split(",")
          .map((t) => t.trim())
          .filter(Boolean);
  const effect = q.get("effect") === "ask" ? "ask" : "deny";
  const made = compiledFor(k, terms, effect);
  const doc = `${JSON.stringify({ version: 1, policies: made.rules }, null, 2)}\n`;
  return json({
    candidate: k.id,
    statement: k.statement,
    terms: made.all,
    bound: made.chosen,
    effect,
    rules: made.rules,
    rulesHash: made.hash,
    fleet: caughtBy(doc, await recentActions(c.db, who.workspaceId, c.now())),
  });
}

/**
 * POST /v1/candidates/:id/approve {effect?, terms?, rules, supersedes?}: a person, signed in, records it as a
 * decision; it compiles into the bundle as rules that only tighten, exactly the rules the reviewer was shown (the
 * `rules` hash of the preview), and the graph gains its node and ties.
 */
export async function approveCandidate(c: Call, body: v.InferOutput<typeof CandidateApproval>): Promise<Response> {
  const who = caller(c);
  if (who.kind !== "person")
    throw new HttpError(403, "forbidden", "a decision is approved by a person, by name: this token holds no person");
  const k = await candidateFor(c, who.workspaceId);
  if (k.origin === "pattern") return approvePattern(c, k);
  const scope = body.scope ?? "workspace";
  // One workspace per organization, and every machine in it pulls one bundle: that is the scope a decision binds.
  if (scope !== "workspace")
    throw new HttpError(400, "bad_request", "`scope` is `workspace`: a decision binds every machine of the workspace");
  const effect = body.effect;
  const supersedes = body.supersedes;
  const made = compiledFor(k, body.terms, effect);
  if (body.rules === undefined)
    throw new HttpError(400, "bad_request", "`rules`: read what it compiles to first (its preview) and approve that", {
      field: "rules",
    });
  if (body.rules !== made.hash)
    throw new HttpError(
      409,
      "rules_changed",
      "the rules this would publish are not the ones you were shown: read them again",
    );
  const terms = made.all;
  const evidence = await eventsById(c, who.workspaceId, k.evidence);
  const first = evidence[0];
  if (!first || (k.origin === "extraction" && evidence.length !== k.evidence.length))
    throw new HttpError(409, "evidence_gone", "the events it was drawn from are no longer all there");
  const base = baseOf(c);
  const decision = await c.db.begin(async (tx) => {
    let version = 1;
    const node = nodeId("decision", k.statement);
    if (supersedes) {
      const old = await store.decisionForUpdate(tx, who.workspaceId, supersedes);
      if (!old) throw new HttpError(404, "not_found", `no decision ${supersedes} to supersede`);
      if (old.superseded_by) throw new HttpError(409, "superseded", `${supersedes} was already superseded`);
      // A new version of the same decision keeps its node; a different decision replacing it gets its own.
      if (old.node_id === node) version = old.version + 1;
      else {
        version = ((await store.maxVersion(tx, who.workspaceId, node)) ?? 0) + 1;
      }
    } else {
      const n = await store.nodeVersions(tx, who.workspaceId, node);
      if (n?.open)
        throw new HttpError(409, "in_force", `this decision is in force as ${n.open}: supersede it to change it`);
      version = (n?.v ?? 0) + 1;
    }
    const id = newId("dec");
    const now = new Date(c.now()).toISOString();
    const ref = `${base}/memory?decision=${id}#${id}`;
    const approval = await store.insertApprovalEvent(tx, {
      workspaceId: who.workspaceId,
      dedupKey: dedupKey({ sourceType: "memnox", sourceRef: ref, kind: "approval", occurredAt: now }),
      ref,
      author: who.email,
      memberId: who.memberId,
      content: `${who.email} approved: ${k.statement}`,
      at: now,
      classification: k.classification,
      audiences: k.audiences,
    });
    if (approval) await projectSourceEvent(tx, who.workspaceId, approval);
    const d = await store.insertDecision(tx, {
      id,
      workspaceId: who.workspaceId,
      node,
      version,
      statement: k.statement,
      terms,
      effect,
      scope,
      sourceType: first.source_type,
      sourceRef: first.source_ref,
      evidence: k.evidence.map(Number),
      affects: k.affects,
      classification: k.classification,
      audiences: k.audiences,
      tainted: k.tainted,
      approvedBy: who.email,
      approverMemberId: who.memberId,
      approvalEvent: approval?.id ?? 0,
      candidateId: k.id,
      supersedes: supersedes ?? null,
      rulesJson: JSON.stringify(made.rules),
      boundTerms: made.chosen,
    });
    if (!d) throw new Error("the decision was not stored");
    if (supersedes) await store.markSuperseded(tx, supersedes, id);
    await store.approveAsDecision(tx, k.id, who.email, id);
    await audit(tx, {
      orgId: who.orgId,
      actor: who.email,
      action: "decision.approve",
      subject: id,
      detail: {
        candidate: k.id,
        scope,
        effect,
        supersedes: supersedes ?? null,
        terms: made.chosen,
        rules: made.hash,
        via: who.via,
        session: who.tokenId,
      },
    });
    await projectDecision(tx, who.workspaceId, d, base);
    return d;
  });
  return json(decisionView(decision), 201);
}

/**
 * A pattern accepted becomes a rule proposal, which takes the path every rule change takes (a second admin publishes
 * it): it loosens, so a reviewer's yes alone never reaches a machine.
 */
async function approvePattern(c: Call, k: CandidateRow): Promise<Response> {
  const who = caller(c);
  const p = k.pattern as Pattern | null;
  if (!p?.rule || typeof p.rule.name !== "string") throw new HttpError(409, "no_rule", "this pattern carries no rule");
  const source = await withRule(c.db, who.workspaceId, { ...p.rule, name: p.rule.name });
  const proposal = await propose(c.db, who, { kind: "allow", title: k.statement, format: "json", source });
  const row = await store.approveAsProposal(c.db, k.id, actorName(who), proposal.id);
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "pattern.accept", subject: k.id });
  return json({ candidate: row ? candidateView(row) : candidateView(k), proposal }, 201);
}

/** POST /v1/patterns/scan: counts the fleet's approvals now (it also runs on every grant). */
export async function scanPatterns(c: Call): Promise<Response> {
  const who = caller(c);
  return json({ proposed: await detectPatterns(c.db, who.workspaceId) });
}

async function readableDecisions(c: Call): Promise<{ ids: Set<string>; withheld: number }> {
  const who = caller(c);
  const rows = await store.decisionsInForce(c.db, who.workspaceId);
  const { shown, withheld } = filtered(await answerReader(c), rows);
  return { ids: new Set(shown.map((d) => d.id)), withheld };
}

/** GET /v1/decisions/decay: decisions to confirm again (old evidence, an owner gone, untouched); nothing is deleted. */
export async function decay(c: Call): Promise<Response> {
  const who = caller(c);
  const { ids } = await readableDecisions(c);
  const all = await decayCheck(c.db, who.workspaceId, c.now());
  const shown = all.filter((d) => ids.has(d.id));
  return json({ decisions: shown, withheld: all.length - shown.length });
}

/** POST /v1/decisions/:id/confirm: somebody read it again and it still holds. */
export async function confirmDecision(c: Call): Promise<Response> {
  const who = caller(c);
  const { ids } = await readableDecisions(c);
  const id = c.params.id ?? "";
  if (!ids.has(id)) throw new HttpError(404, "not_found", "no such decision in force");
  await store.confirmDecision(c.db, id, actorName(who));
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "decision.confirm", subject: id });
  return json({ id, confirmedBy: actorName(who) });
}

/** GET /v1/decisions/drift: where practice moved away from what was said. Reported, not resolved. */
export async function drift(c: Call): Promise<Response> {
  const who = caller(c);
  const { ids } = await readableDecisions(c);
  const all = await driftReport(c.db, who.workspaceId);
  const report = all.filter((d) => ids.has(d.id));
  return json({ decisions: report, withheld: all.length - report.length });
}

/** POST /v1/candidates/:id/reject {reason?}: recorded as signal, what the team does not treat as a decision. */
export async function rejectCandidate(c: Call, body: v.InferOutput<typeof CandidateRejection>): Promise<Response> {
  const who = caller(c);
  const k = await candidateFor(c, who.workspaceId);
  const reason = body.reason ?? null;
  const row = await store.rejectCandidate(c.db, k.id, actorName(who), reason);
  if (!row) throw new HttpError(409, "decided", "it was decided meanwhile");
  await audit(c.db, {
    orgId: who.orgId,
    actor: actorName(who),
    action: "candidate.reject",
    subject: k.id,
    detail: who.kind === "person" ? { via: who.via, session: who.tokenId } : {},
  });
  return json(candidateView(row));
}

/** GET /v1/decisions: the facts in force with their provenance and version chain, and how many were withheld. */
export async function listDecisions(c: Call): Promise<Response> {
  const who = caller(c);
  const all = c.url.searchParams.get("all") === "1";
  const rows = await store.listDecisions(c.db, who.workspaceId, all);
  const reader = await answerReader(c);
  const { shown, withheld } = filtered(reader, rows);
  const chains = await store.decisionChains(c.db, who.workspaceId);
  const chainOf = (d: DecisionRow) =>
    chains
      .filter((v) => v.node_id === d.node_id || v.id === d.supersedes || v.superseded_by === d.id)
      .filter((v) => canRead(reader, v))
      .map((v) => ({
        id: v.id,
        version: v.version,
        statement: v.statement,
        approvedBy: v.approved_by,
        inForce: v.superseded_by === null,
      }));
  return json({ decisions: shown.map((d) => ({ ...decisionView(d), versions: chainOf(d) })), withheld });
}

/** GET /v1/decisions/:id/why: the evidence, each event as it arrived, with what the reader was not entitled to counted. */
export async function whyDecision(c: Call): Promise<Response> {
  const who = caller(c);
  const d = await store.latestDecision(c.db, who.workspaceId, c.params.id ?? "");
  const reader = await answerReader(c);
  if (!d) throw new HttpError(404, "not_found", "no such decision");
  if (!canRead(reader, d)) return json({ decision: null, evidence: [], withheld: 1 });
  const ev = filtered(reader, await eventsById(c, who.workspaceId, d.evidence));
  const [approval] = await eventsById(c, who.workspaceId, [d.approval_event]);
  return json({
    decision: decisionView(d),
    approval: approval ? sourceEventView(approval) : null,
    evidence: ev.shown.map(sourceEventView),
    withheld: ev.withheld,
  });
}

/** GET /v1/reach?to=<system or server>: the agents that can reach it and the path, from the fleet's scans and actions. */
export async function reachTo(c: Call, to: string): Promise<Response> {
  const who = caller(c);
  const servers = await events.serverPlaces(c.db, who.workspaceId, to.toLowerCase());
  const acted = await events.actionsMentioning(c.db, who.workspaceId, to.toLowerCase());
  const paths = [
    ...servers.flatMap((s) =>
      (s.agents.length > 0 ? s.agents : [null]).map((agent) => ({
        agent,
        machine: s.machine_id,
        via: `mcp server ${s.name}${s.proxied ? " through the proxy" : " launched bare"}`,
        writes: (s.write_tools ?? 0) > 0,
        basis: "scan" as const,
      })),
    ),
    ...acted.map((a) => ({
      agent: a.agent,
      machine: a.machine_id,
      via: `${a.operation} (${Number(a.n)} recorded)`,
      writes: true,
      basis: "actions" as const,
    })),
  ];
  return json({
    to,
    agents: [...new Set(paths.map((p) => p.agent).filter((a): a is string => a !== null))].sort(),
    paths,
  });
}

/** GET /v1/events/:id/why: why an action was decided so: verdict, rule, rule set, conditions, the decision behind it. */
export async function whyAction(c: Call): Promise<Response> {
  const who = caller(c);
  const e = await events.verdictOf(c.db, who.workspaceId, cursorParam(c.params.id));
  if (!e) throw new HttpError(404, "not_found", "no such event");
  const conditions = await events.conditionsAt(c.db, who.workspaceId, e.occurred_at);
  const reader = await answerReader(c);
  let decision: ReturnType<typeof decisionView> | null = null;
  let evidence: ReturnType<typeof sourceEventView>[] = [];
  let withheld = 0;
  const m = e.rule_id ? /^decision-(.+?)-(?:names-[a-z0-9]+|names|targets)$/.exec(e.rule_id) : null;
  if (m?.[1]) {
    const d = await store.latestOfNode(c.db, who.workspaceId, `decision:${m[1]}`);
    if (d && canRead(reader, d)) {
      decision = decisionView(d);
      const ev = filtered(reader, await eventsById(c, who.workspaceId, d.evidence));
      evidence = ev.shown.map(sourceEventView);
      withheld = ev.withheld;
    } else if (d) withheld = 1;
  }
  return json({
    event: Number(e.id),
    action: e.operation,
    verdict: e.effect,
    reason: e.reason,
    rule: e.rule_id,
    ruleSet: e.policy_hash,
    at: iso(e.occurred_at),
    machine: e.machine_id,
    agent: e.agent,
    conditions: conditions.map((x) => ({ kind: x.kind, subject: x.subject, by: x.set_by })),
    decision,
    evidence,
    withheld,
  });
}

/** PATCH /v1/extraction {readsUpTo}: how far extraction reads; raising it sends more to the model provider. */
export async function setExtraction(c: Call, body: v.InferOutput<typeof ExtractionChange>): Promise<Response> {
  const who = caller(c);
  const level = body.readsUpTo;
  await store.setReadsUpTo(c.db, who.workspaceId, level);
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "extraction.reads_up_to", detail: { level } });
  return json({ readsUpTo: level, model: await currentModel(c, who.workspaceId) });
}

/** GET /v1/graph?node=<id>: the team graph as this reader may see it (one node and its ties, or all), with withheld. */
export async function showGraph(c: Call): Promise<Response> {
  const who = caller(c);
  const node = c.url.searchParams.get("node");
  const nodes = await store.graphNodes(c.db, who.workspaceId);
  const edges = await store.graphEdges(c.db, who.workspaceId);
  const { shown, withheld } = filtered(await answerReader(c), nodes);
  const visible = new Set(shown.map((n) => n.id));
  const ties = edges
    .filter((e) => visible.has(e.from_id) && visible.has(e.to_id))
    .filter((e) => !node || e.from_id === node || e.to_id === node)
    // A confirmed tie outranks an inferred one.
    .sort((a, b) => (a.basis === b.basis ? 0 : a.basis === "confirmed" ? -1 : 1));
  const named = node ? new Set([node, ...ties.flatMap((e) => [e.from_id, e.to_id])]) : visible;
  return json({
    nodes: shown
      .filter((n) => named.has(n.id))
      .map((n) => ({
        id: n.id,
        kind: n.kind,
        label: n.label,
        sourceRef: n.source_ref,
        classification: n.classification ?? "internal",
        props: n.props,
      })),
    edges: ties.map((e) => ({
      from: e.from_id,
      relation: e.relation,
      to: e.to_id,
      evidence: e.evidence,
      basis: e.basis,
    })),
    withheld,
  });
}

/** POST /v1/graph/rebuild: the graph again from the tables that hold the truth; every id that remains is the id it had. */
export async function rebuild(c: Call): Promise<Response> {
  const who = caller(c);
  return json(await rebuildGraph(c.db, who.workspaceId, baseOf(c)));
}

/** GET /v1/extraction/runs: the usage log, each run with its model, window, what it sent and withheld, and its tokens. */
export async function listExtractionRuns(c: Call): Promise<Response> {
  const who = caller(c);
  const rows = await store.extractionRuns(c.db, who.workspaceId);
  return json({
    model: await currentModel(c, who.workspaceId),
    runs: rows.map((r) => ({
      id: r.id,
      startedBy: r.started_by,
      startedAt: iso(r.started_at),
      model: r.model,
      readsUpTo: r.reads_up_to,
      window: { after: Number(r.window_after), through: Number(r.window_through) },
      sent: r.sent,
      withheld: r.withheld,
      proposed: r.proposed,
      dropped: r.dropped,
      status: r.status,
      failure: r.failure,
      inputTokens: r.input_tokens,
      outputTokens: r.output_tokens,
    })),
  });
}
