// Detectors: deterministic checks over what machines reported, run as each batch arrives. One opens an incident (or adds
// evidence to the one already open) and proposes containment; a person confirms it. Each names what it saw.
import type { Db } from "./store/db.ts";
import * as store from "./store/incidents.ts";

export interface Arrived {
  readonly id: number;
  readonly agent: string | null;
  readonly session: string | null;
  readonly effect: string | null;
  /** The lineage id the action carried, when its run had one. */
  readonly correlation?: string | null;
  /** When it happened: what says whether it can fall among the first actions of its lineage. */
  readonly occurredAt?: Date;
}

interface Detector {
  readonly name: string;
  /** What the incident says it is, in words. */
  readonly title: (agent: string | null) => string;
  run(db: Db, workspaceId: string, arrived: readonly Arrived[]): Promise<void>;
}

/** Refusals of one agent session within the window that open an incident: misconfigured, or never told what instead. */
const REFUSALS = 3;
/** The refusals an incident cites at most (the first ones): a loop's ten thousandth is no more evidence than its third. */
const INCIDENT_EVIDENCE = 500;
const REFUSAL_WINDOW_MIN = 10;

const REPEATED_REFUSALS = "repeated_refusals";

const repeatedRefusals: Detector = {
  name: REPEATED_REFUSALS,
  title: (agent) =>
    `${agent ?? "An agent"} was refused ${REFUSALS} or more times within ${REFUSAL_WINDOW_MIN} minutes in one session`,
  async run(db, workspaceId, arrived) {
    const sessions = new Map<string, { agent: string | null; session: string }>();
    for (const e of arrived)
      if (e.effect === "deny" && e.session)
        sessions.set(`${e.agent}\n${e.session}`, { agent: e.agent, session: e.session });
    for (const { agent, session } of sessions.values()) {
      // An open incident already citing all it may cites nothing more: a loop's next refusals cost one lookup.
      if (await store.refusalIncidentFull(db, workspaceId, REPEATED_REFUSALS, agent, session, INCIDENT_EVIDENCE))
        continue;
      const rows = await store.recentRefusals(db, workspaceId, agent, session, REFUSAL_WINDOW_MIN, INCIDENT_EVIDENCE);
      if (rows.length < REFUSALS) continue;
      const ids = rows.map((r) => Number(r.id));
      const machines = [...new Set(rows.map((r) => r.machine_id))];
      await store.openRefusalIncident(db, {
        id: `inc_${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}`,
        workspaceId,
        detector: REPEATED_REFUSALS,
        title: repeatedRefusals.title(agent),
        agent,
        session,
        machines,
        ids,
        keep: INCIDENT_EVIDENCE,
      });
    }
  },
};

/** A step of an escalation, told from what the action was and what it reached: deterministic, by name. */
type Step = "credential" | "repository" | "cloud";

const CREDENTIAL =
  /(^|[/\s.])(\.env|\.ssh|\.aws|\.kube|\.docker|\.netrc|\.npmrc|\.pypirc|id_rsa|id_ed25519|credentials?|secrets?|tokens?|[^/\s]*\.pem|[^/\s]*\.key)($|[/\s.])/i;
const CLOUD =
  /^(aws|gcloud|gsutil|az|kubectl|helm|terraform|tofu|pulumi|flyctl|railway|vercel|heroku|doctl|eksctl|cdk|serverless|wrangler)\./;
const REPOSITORY = /^(git|gh|glab)\./;

function stepOf(e: { operation: string; resource_ref: string | null }): Step | undefined {
  if (CLOUD.test(e.operation)) return "cloud";
  if (CREDENTIAL.test(e.resource_ref ?? "") || /credential|secret/.test(e.operation)) return "credential";
  if (REPOSITORY.test(e.operation)) return "repository";
  return undefined;
}

/** How far apart in time two actions of one session may be and still be stitched into one chain. */
const STITCH_WINDOW_MIN = 60;

/** How many actions of one lineage are read, the first ones, in time order. */
const CHAIN_READ = 500;

/** A chain is an escalation once it spans this many machines or agents: authority none of them held alone. */
const CHAIN_ACTORS = 3;
const CROSS_MACHINE_CHAIN = "cross_machine_chain";

const crossMachineChain: Detector = {
  name: CROSS_MACHINE_CHAIN,
  title: () => "A credential, a repository and the cloud were reached by different actors on one lineage",
  async run(db, workspaceId, arrived) {
    // Propagated where the id was carried; else stitched by the session a handoff kept, within the hour: inferred.
    const chains = new Map<string, "propagated" | "inferred">();
    for (const e of arrived)
      if (e.correlation) chains.set(e.correlation, "propagated");
      else if (e.session && !chains.has(e.session)) chains.set(e.session, "inferred");
    for (const [correlation, method] of chains) {
      const lineage = { method, correlation, stitchWindowMin: STITCH_WINDOW_MIN } as const;
      const edge = await store.lineageEdge(db, workspaceId, lineage, CHAIN_READ);
      const times = arrived
        .filter((e) => (method === "propagated" ? e.correlation === correlation : e.session === correlation))
        .map((e) => e.occurredAt?.getTime() ?? Number.NEGATIVE_INFINITY);
      if (edge && times.length > 0 && times.every((t) => t > edge.occurred_at.getTime())) continue;
      const rows = await store.lineage(db, workspaceId, lineage, CHAIN_READ);
      const hops = rows.flatMap((r) => {
        const step = stepOf(r);
        return step ? [{ ...r, step }] : [];
      });
      // In order: a credential first, then a repository, then the cloud; each hop permitted on its own.
      const cred = hops.find((h) => h.step === "credential");
      const repo = cred && hops.find((h) => h.step === "repository" && h.occurred_at >= cred.occurred_at);
      const cloud = repo && hops.find((h) => h.step === "cloud" && h.occurred_at >= repo.occurred_at);
      if (!cred || !repo || !cloud) continue;
      const chain = [cred, repo, cloud];
      const machines = [...new Set(chain.map((h) => h.machine_id))];
      const agents = [...new Set(chain.flatMap((h) => (h.agent ? [h.agent] : [])))];
      if (machines.length < CHAIN_ACTORS && agents.length < CHAIN_ACTORS) continue;
      const ids = chain.map((h) => Number(h.id));
      const hopView = chain.map((h) => ({
        event: Number(h.id),
        step: h.step,
        machine: h.machine_id,
        agent: h.agent,
        operation: h.operation,
        effect: h.effect,
        at: h.occurred_at.toISOString(),
        method,
      }));
      const proposal = {
        containment: "freeze-agent",
        agents,
        for: "1d",
        why: "each hop was inside its own authority; joined on the lineage they are one privilege escalation",
        confirmedBy: null,
      };
      await store.openChainIncident(db, {
        id: `inc_${crypto.randomUUID().replace(/-/g, "").slice(0, 18)}`,
        workspaceId,
        detector: CROSS_MACHINE_CHAIN,
        title: crossMachineChain.title(null),
        agent: agents[0] ?? null,
        session: correlation,
        machines,
        ids,
        agents,
        hops: JSON.stringify(hopView),
        proposal: JSON.stringify(proposal),
      });
    }
  },
};

export const DETECTORS: readonly Detector[] = [repeatedRefusals, crossMachineChain];

export async function runDetectors(db: Db, workspaceId: string, arrived: readonly Arrived[]): Promise<void> {
  for (const d of DETECTORS) await d.run(db, workspaceId, arrived);
}
