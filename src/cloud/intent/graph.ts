// The team graph, materialized from the tables that hold the truth: six kinds of node, six ties, every edge carrying
// the events that assert it. Node ids are `kind:normalized-key`, so a rebuild writes the same ids; an uncited edge is
// dropped before it reaches the database (which refuses one anyway); a confirmed edge is never returned to a guess.
import type { Db } from "../store/db.ts";
import type { GraphIncidentRow } from "../store/graph.ts";
import * as store from "../store/graph.ts";
import type { Level } from "./clearance.ts";
import type { DecisionRow, SourceEventRow } from "./rows.ts";

const NODE_KINDS = ["decision", "person", "system", "agent", "incident", "source_event"] as const;
type NodeKind = (typeof NODE_KINDS)[number];
const RELATIONS = ["affects", "owns", "caused_by", "touched", "supersedes", "evidenced_by"] as const;
type Relation = (typeof RELATIONS)[number];

/** A key as ids carry it: lowercase words joined by `-` (dots, slashes and @ kept, so a path or an address reads). */
export function normalKey(raw: string): string {
  return (
    raw
      .toLowerCase()
      .replace(/['’]/g, "")
      .replace(/[^a-z0-9./@_]+/g, "-")
      .replace(/^[-.]+|[-.]+$/g, "")
      .slice(0, 80)
      .replace(/[-.]+$/, "") || "unnamed"
  );
}

export function nodeId(kind: NodeKind, key: string): string {
  return `${kind}:${normalKey(key)}`;
}

/** A source event's id: its system and the start of its dedup key, the same every time the same thing arrives. */
function sourceEventNode(e: Pick<SourceEventRow, "source_type" | "dedup_key">): string {
  return nodeId("source_event", `${e.source_type}-${e.dedup_key.slice(0, 16)}`);
}

interface GraphNode {
  readonly id: string;
  readonly kind: NodeKind;
  readonly label: string;
  readonly sourceRef: string;
  readonly classification?: Level | null;
  readonly audiences?: readonly string[];
  readonly props?: Readonly<Record<string, unknown>>;
}

interface GraphEdge {
  readonly from: string;
  readonly relation: Relation;
  readonly to: string;
  /** `source_event:<id>` or `action:<id>`: the events that assert it. */
  readonly evidence: readonly string[];
  readonly basis: "confirmed" | "inferred";
}

async function putNode(db: Db, workspaceId: string, n: GraphNode): Promise<void> {
  await store.upsertNode(db, workspaceId, {
    id: n.id,
    kind: n.kind,
    label: n.label.slice(0, 500),
    sourceRef: n.sourceRef,
    classification: n.classification ?? null,
    audiences: [...(n.audiences ?? [])],
    props: n.props ?? {},
  });
}

/**
 * How many citations an edge keeps (the first, in order): enough to read why it stands; a looping agent's ten
 * thousand refusals of one target would otherwise make every later write of the edge cost more than the last.
 */
const EDGE_EVIDENCE = 200;

/** Stores an edge unless nothing asserts it; a confirmed basis stays confirmed, and evidence only accumulates. */
async function putEdge(db: Db, workspaceId: string, e: GraphEdge): Promise<boolean> {
  const evidence = [...new Set(e.evidence)].sort().slice(0, EDGE_EVIDENCE);
  if (evidence.length === 0) return false;
  await store.upsertEdge(db, workspaceId, { ...e, evidence }, EDGE_EVIDENCE);
  return true;
}

const evidenceOf = (e: Pick<SourceEventRow, "id">) => `source_event:${Number(e.id)}`;

export async function projectSourceEvent(db: Db, workspaceId: string, e: SourceEventRow): Promise<void> {
  await putNode(db, workspaceId, {
    id: sourceEventNode(e),
    kind: "source_event",
    label: `${e.source_type} ${e.kind}${e.author ? ` by ${e.author}` : ""}`,
    sourceRef: e.source_ref,
    classification: e.classification ?? "internal",
    audiences: e.audiences,
    props: { eventId: Number(e.id), tainted: e.tainted, occurredAt: e.occurred_at.toISOString() },
  });
}

async function personNode(db: Db, workspaceId: string, email: string): Promise<string> {
  const id = nodeId("person", email);
  const accounts = await store.accountsOf(db, workspaceId, email);
  await putNode(db, workspaceId, {
    id,
    kind: "person",
    label: email,
    sourceRef: `mailto:${email}`,
    props: { accounts: accounts.map((a) => `${a.source_type}:${a.account}`) },
  });
  return id;
}

async function systemNode(db: Db, workspaceId: string, name: string, sourceRef: string): Promise<string> {
  const id = nodeId("system", name);
  await store.insertSystemNode(db, workspaceId, id, name.slice(0, 500), sourceRef);
  return id;
}

/**
 * A decision's node (the newest version in force names it; every version is in its props) and its ties: evidenced_by
 * each source event it was drawn from, owned by the person who approved it, affecting each system it names,
 * superseding the decision it replaced. The approval itself is an event, so those two ties are cited too.
 */
export async function projectDecision(db: Db, workspaceId: string, d: DecisionRow, base: string): Promise<void> {
  const versions = await store.versionsOf(db, workspaceId, d.node_id);
  const newest = versions[versions.length - 1] ?? d;
  await putNode(db, workspaceId, {
    id: d.node_id,
    kind: "decision",
    label: newest.statement,
    sourceRef: `${base}/memory?decision=${encodeURIComponent(newest.id)}#${newest.id}`,
    classification: newest.classification,
    audiences: newest.audiences,
    props: {
      inForce: newest.superseded_by === null,
      versions: versions.map((v) => ({
        id: v.id,
        version: v.version,
        statement: v.statement,
        approvedBy: v.approved_by,
        approvedAt: v.approved_at.toISOString(),
        supersedes: v.supersedes,
        supersededBy: v.superseded_by,
      })),
    },
  });
  const evidence = await store.sourceEventsIn(db, workspaceId, d.evidence.map(Number));
  for (const e of evidence) {
    await projectSourceEvent(db, workspaceId, e);
    await putEdge(db, workspaceId, {
      from: d.node_id,
      relation: "evidenced_by",
      to: sourceEventNode(e),
      evidence: [evidenceOf(e)],
      basis: "confirmed",
    });
  }
  const approval = `source_event:${Number(d.approval_event)}`;
  const owner = await personNode(db, workspaceId, d.approved_by);
  await putEdge(db, workspaceId, {
    from: owner,
    relation: "owns",
    to: d.node_id,
    evidence: [approval],
    basis: "confirmed",
  });
  for (const name of d.affects) {
    const sys = await systemNode(db, workspaceId, name, d.source_ref);
    await putEdge(db, workspaceId, {
      from: d.node_id,
      relation: "affects",
      to: sys,
      evidence: evidence.map(evidenceOf),
      basis: "confirmed",
    });
  }
  if (d.supersedes) {
    const old = await store.decisionNode(db, d.supersedes);
    if (old && old.node_id !== d.node_id)
      await putEdge(db, workspaceId, {
        from: d.node_id,
        relation: "supersedes",
        to: old.node_id,
        evidence: [approval],
        basis: "confirmed",
      });
  }
}

/** An incident's node, caused_by each agent it names and touching each resource its evidence reached: inferred ties. */
export async function projectIncident(
  db: Db,
  workspaceId: string,
  i: GraphIncidentRow,
  base: string,
  arrived?: readonly number[],
): Promise<void> {
  const id = nodeId("incident", i.id);
  // Evidence only accumulates: an incident already projected needs only what just arrived, never all it holds again.
  const known = arrived ? await store.nodeExists(db, workspaceId, id) : false;
  const fresh = new Set(arrived ?? []);
  const ids = i.evidence.map(Number).filter((n) => !known || fresh.has(n));
  await putNode(db, workspaceId, { id, kind: "incident", label: i.title, sourceRef: `${base}/caught#${i.id}` });
  const events = ids.length === 0 ? [] : await store.actionsIn(db, workspaceId, ids);
  const agents = [...new Set([...(i.agents ?? []), ...(i.agent ? [i.agent] : [])])];
  for (const name of agents) {
    const agent = nodeId("agent", name);
    await putNode(db, workspaceId, {
      id: agent,
      kind: "agent",
      label: name,
      sourceRef: `${base}/agents?name=${encodeURIComponent(name)}`,
    });
    await putEdge(db, workspaceId, {
      from: id,
      relation: "caused_by",
      to: agent,
      evidence: events.filter((e) => e.agent === name).map((e) => `action:${Number(e.id)}`),
      basis: "inferred",
    });
  }
  // One tie per system touched, citing every action that touched it: a looping agent's thousand refusals of one
  // target are one edge written once, not a thousand writes of the same row.
  const bySystem = new Map<string, number[]>();
  for (const e of events) {
    const ref = e.resource_ref?.trim();
    if (!ref) continue;
    const list = bySystem.get(ref) ?? [];
    list.push(Number(e.id));
    bySystem.set(ref, list);
  }
  for (const [ref, cited] of bySystem) {
    const sys = await systemNode(db, workspaceId, ref, `${base}/caught?trace=${cited[0]}`);
    await putEdge(db, workspaceId, {
      from: id,
      relation: "touched",
      to: sys,
      evidence: cited.map((n) => `action:${n}`),
      basis: "inferred",
    });
  }
}

/**
 * The graph again from the tables that hold the truth, in one transaction: what is gone from them is gone from it
 * (a relationship states the estate as it is now), and every id that remains is the id it had.
 */
export async function rebuildGraph(
  db: Db,
  workspaceId: string,
  base: string,
): Promise<{ nodes: number; edges: number }> {
  return db.begin(async (tx) => {
    await store.clearGraph(tx, workspaceId);
    const events = await store.allSourceEvents(tx, workspaceId);
    for (const e of events) await projectSourceEvent(tx, workspaceId, e);
    const decisions = await store.allDecisions(tx, workspaceId);
    for (const d of decisions) await projectDecision(tx, workspaceId, d, base);
    const incidents = await store.allIncidents(tx, workspaceId);
    for (const i of incidents) await projectIncident(tx, workspaceId, i, base);
    const n = await store.graphSize(tx, workspaceId);
    return { nodes: Number(n?.nodes ?? 0), edges: Number(n?.edges ?? 0) };
  });
}
