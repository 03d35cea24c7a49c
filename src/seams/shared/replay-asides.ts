// What `replay` reads beside the ledger: held calls still waiting in `pending/`, the session's pause records in
// `overlays.json`, and the milestones kept for it in the repositories it worked in.

import { repoRoot } from "../../io/repo.ts";
import type { Replay } from "../../ledger/read/replay.ts";
import type { KeptMilestone, PauseRecord, ReplayAsides, WaitingHold } from "../../ledger/read/replay-asides.ts";
import type { Context } from "../../ports/context.ts";
import { sessionRepos } from "../../rewind/checkpoints.ts";
import { openRepo } from "../../rewind/repo.ts";
import { readMilestones } from "../../rewind/store.ts";
import { overlaysInForce, readOverlays } from "../../state/overlays.ts";
import { SESSION_HOLDS } from "../../state/paused.ts";
import { holdsWaiting } from "../../state/pending.ts";

/** The replay with what it read beside the ledger, looked for in every directory the session's rows name. */
export async function withAsides(ctx: Context, r: Replay): Promise<Replay> {
  const cwds = [...new Set(r.steps.flatMap((s) => (s.entry.row.cwd ? [s.entry.row.cwd] : [])))];
  return { ...r, asides: await replayAsides(ctx, r.session, cwds) };
}

/** `cwds`: the working directories the session's rows name, where its milestones would have been kept. */
async function replayAsides(ctx: Context, session: string, cwds: readonly string[]): Promise<ReplayAsides> {
  const now = ctx.clock.now();
  return {
    waiting: waitingHolds(ctx.paths.pending, session, now),
    pauses: pauseRecords(ctx.paths.overlays, session, now),
    milestones: await keptMilestones(ctx, session, cwds),
  };
}

/** Only calls still waiting: an answered or lapsed hold is on the record as its answer row, or not at all. */
function waitingHolds(dir: string, session: string, nowMs: number): WaitingHold[] {
  return holdsWaiting(dir, nowMs)
    .filter((h) => h.session === session)
    .map((h) => ({
      id: h.id,
      at: h.createdAt,
      action: h.action,
      target: h.target || null,
      reason: h.reason,
      waitedMs: Math.max(0, nowMs - Date.parse(h.createdAt)),
      expiresAt: h.expiresAt,
      decisionEventId: h.decisionEventId ?? null,
      // Read by the session's own agent too (the replay tool): it says who answers, not a command to answer with.
      approve: `a person answers hold ${h.id} from their own terminal`,
    }));
}

function pauseRecords(file: string, session: string, nowMs: number): PauseRecord[] {
  const facts = readOverlays(file).filter(
    (f) => f.subject === session && (SESSION_HOLDS as readonly string[]).includes(f.kind),
  );
  const live = new Set(overlaysInForce(facts, nowMs));
  return facts.map((f) => ({
    id: f.id,
    kind: f.kind,
    at: f.setAt,
    reason: f.reason ?? null,
    expiresAt: f.expiresAt,
    inForce: live.has(f),
    liftedAt: f.liftedAt ?? null,
    liftedBy: f.liftedBy ?? null,
  }));
}

/** A repository that has gone or cannot be read is skipped: replay reads the record, it does not need every source. */
async function keptMilestones(ctx: Context, session: string, cwds: readonly string[]): Promise<KeptMilestone[]> {
  const roots = new Set(sessionRepos(ctx.paths.checkpoints, session));
  for (const cwd of cwds) {
    const root = repoRoot(cwd);
    if (root) roots.add(root);
  }
  const deps = { git: ctx.git, env: ctx.env };
  const found = await Promise.all(
    [...roots].map(async (root) => {
      try {
        const repo = await openRepo(deps, root);
        return (await readMilestones(deps, repo)).filter((m) => m.session === session).map((m) => ({ m, repo }));
      } catch {
        return [];
      }
    }),
  );
  const seen = new Set<string>();
  return found
    .flat()
    .filter(({ m }) => !seen.has(m.id) && Boolean(seen.add(m.id)))
    .sort((a, b) => a.m.takenAtMs - b.m.takenAtMs)
    .map(({ m, repo }) => ({
      id: m.id,
      at: m.takenAt,
      repo: repo.root,
      kind: m.kind,
      reason: m.reason,
      files: m.files,
      rewind: `memnox rewind --to ${m.id}`,
    }));
}
