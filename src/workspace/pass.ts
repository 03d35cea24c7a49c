// One sync pass: beat (applied bundle, running mode, held calls up), apply what came back (a mode change, answers),
// pull the bundle, send the rows after the last acknowledged one in signed batches, and beat again when anything here
// changed so the workspace's listing is current. None of it is on the decision path: the gate only reads files.
import { existsSync } from "node:fs";
import {
  type EventBatch,
  type Heartbeat,
  type HeartbeatReply,
  MAX_BATCH,
  type SentHold,
  SIGNATURE_HEADER,
} from "../cloud/protocol/sync.ts";
import type { Mode } from "../core/effect.ts";
import { MemnoxError } from "../core/errors.ts";
import type { EventInput } from "../core/event.ts";
import { repoRoot } from "../io/repo.ts";
import { rowById, rowsAfter } from "../ledger/read/rows.ts";
import { signWith } from "../ledger/sign.ts";
import { type Ledger, openLedger } from "../ledger/store.ts";
import type { Paths } from "../ports/paths.ts";
import { readConfig, setSetting } from "../state/config.ts";
import { answerHold, holdsWaiting } from "../state/pending.ts";
import { readStop } from "../state/stop.ts";
import { type Account, secretKeyOf } from "./account.ts";
import { appliedBundleHash, type PullResult, pullBundle } from "./bundle.ts";
import { readInventory } from "./inventory.ts";
import { SENT_KINDS, sentEvent, sentHold } from "./payload.ts";
import { readState, type SyncState, writeState } from "./state.ts";
import { call, unexpected } from "./transport.ts";

interface PassDeps {
  readonly paths: Paths;
  readonly now: () => number;
  readonly version: string;
  /** Appends a row to the ledger (never throws). */
  readonly record: (e: EventInput) => void;
  /** Batches sent per pass at most; the rest go on the next one. */
  readonly maxBatches?: number;
}

interface AppliedAnswer {
  readonly holdId: string;
  readonly grant: boolean;
  readonly by: string;
  readonly outcome: string;
}

export interface PassReport {
  readonly machineId: string;
  readonly workspace: string;
  readonly modeSet: Mode;
  readonly modeRunning: Mode;
  readonly modeChange: { readonly from: Mode; readonly to: Mode; readonly by: string } | null;
  readonly answers: readonly AppliedAnswer[];
  readonly holdsUp: number;
  readonly bundle: PullResult;
  readonly sent: {
    readonly accepted: number;
    readonly duplicates: number;
    readonly batches: number;
    readonly more: boolean;
  };
}

/** Runs one pass; an unreachable workspace or a revoked credential is written to sync.json before it is thrown. */
export async function syncPass(deps: PassDeps, account: Account): Promise<PassReport> {
  const file = deps.paths.sync;
  let state = readState(file, account.machineId);
  try {
    const report = await passBody(deps, account, state, (next) => {
      state = next;
      writeState(file, state);
    });
    const { unreachableSince: _u, lastError: _e, revokedAt: _r, ...rest } = state;
    writeState(file, { ...rest, lastContactAt: new Date(deps.now()).toISOString() });
    return report;
  } catch (e) {
    const at = new Date(deps.now()).toISOString();
    if (e instanceof MemnoxError && e.code === "revoked")
      writeState(file, { ...state, revokedAt: at, lastError: e.message });
    else if (e instanceof MemnoxError && e.code === "unreachable")
      writeState(file, { ...state, unreachableSince: state.unreachableSince ?? at, lastError: e.message });
    else writeState(file, { ...state, lastError: e instanceof Error ? e.message : String(e) });
    throw e;
  }
}

async function passBody(
  deps: PassDeps,
  account: Account,
  start: SyncState,
  save: (s: SyncState) => void,
): Promise<PassReport> {
  const { paths } = deps;
  let state = start;
  using ledger = existsSync(paths.db) ? openLedger(paths, { busyTimeoutMs: 2000 }) : undefined;
  const first = await beat(deps, account, state, ledger);
  // What the workspace heard is acknowledged now; the answers and change below are acknowledged on the next beat.
  state = acknowledged({ ...state, answersApplied: [] }, first);
  save(state);
  const modeChange = applyModeChange(deps, first, state);
  if (modeChange) {
    state = { ...state, modeChangeApplied: modeChange.id };
    save(state);
  }
  const answers = applyAnswers(deps, first);
  if (answers.length > 0) {
    state = { ...state, answersApplied: [...state.answersApplied, ...answers.map((a) => a.serverId)] };
    save(state);
  }
  const bundle = await pullBundle(paths, account);
  if (bundle.outcome === "applied")
    deps.record({
      kind: "config",
      occurredAt: new Date(deps.now()).toISOString(),
      surface: "config",
      operation: "memnox.workspace-rules",
      resourceRef: paths.orgPolicies,
      reason: `applied the rules of workspace ${account.workspace.name}: ${bundle.rules} rule(s), bundle ${bundle.hash.slice(7, 19)}`,
      detail: {
        file: paths.orgPolicies,
        before: bundle.before,
        after: bundle.hash,
        by: `workspace:${account.workspace.name}`,
      },
    });
  const sent = ledger ? await sendRows(deps, account, ledger, state, save) : undefined;
  if (sent) state = sent.state;
  let last = first;
  if (modeChange || answers.length > 0 || bundle.outcome === "applied") {
    last = await beat(deps, account, state, ledger);
    state = acknowledged({ ...state, answersApplied: [] }, last);
    save(state);
  }
  return {
    machineId: account.machineId,
    workspace: account.workspace.name,
    modeSet: last.modeSet,
    modeRunning: readConfig(paths.config).mode,
    modeChange: modeChange ? { from: modeChange.from, to: modeChange.to, by: modeChange.by } : null,
    answers: answers.map((a) => ({ holdId: a.localId, grant: a.grant, by: a.by, outcome: a.outcome })),
    holdsUp: first.holdsUp,
    bundle,
    sent: sent?.out ?? { accepted: 0, duplicates: 0, refused: 0, batches: 0, more: false, limited: false },
  };
}

async function beat(
  deps: PassDeps,
  account: Account,
  state: SyncState,
  ledger: Ledger | undefined,
): Promise<HeartbeatReply & { holdsUp: number }> {
  const { paths } = deps;
  const now = deps.now();
  const stop = readStop(paths.stop);
  const holds = holdsWaiting(paths.pending, now).map((h): SentHold => {
    const row = decisionRow(ledger, h.decisionEventId);
    return sentHold(h, row?.resourceRef, row?.cwd ? (repoRoot(row.cwd) ?? row.cwd) : undefined);
  });
  const inventory = readInventory(paths.lastScan);
  const body: Heartbeat = {
    ...(inventory && inventory.hash !== state.inventoryAck ? { inventory } : {}),
    bundleHash: appliedBundleHash(paths.orgPolicies, paths.orgConditions),
    modeRunning: readConfig(paths.config).mode,
    ...(stop && Date.parse(stop.until) > now ? { stoppedUntil: stop.until } : {}),
    ...(state.modeChangeApplied !== undefined ? { modeChangeApplied: state.modeChangeApplied } : {}),
    holds,
    answersApplied: state.answersApplied,
    version: deps.version,
  };
  const r = await call(account.url, "POST", "/v1/heartbeat", { token: account.token, json: body });
  if (r.status !== 200) throw unexpected("the heartbeat", r);
  return { ...(r.json as HeartbeatReply), holdsUp: holds.length };
}

/** The inventory the workspace says it holds: the next beat sends the scan again only when it differs. */
function acknowledged(state: SyncState, reply: HeartbeatReply): SyncState {
  const { inventoryAck: _old, ...rest } = state;
  return reply.inventoryHash ? { ...rest, inventoryAck: reply.inventoryHash } : rest;
}

/** The hold's decision row: its resource leaves out targets that are the call's own arguments; its cwd says where. */
function decisionRow(ledger: Ledger | undefined, eventId: string | undefined) {
  if (!ledger || !eventId) return undefined;
  return rowById(ledger, eventId);
}

/** A change somebody made in the workspace, applied once: a later hand edit here shows as drift, never reverted. */
function applyModeChange(deps: PassDeps, reply: HeartbeatReply, state: SyncState) {
  const ch = reply.modeChange;
  if (!ch || (state.modeChangeApplied !== undefined && ch.id <= state.modeChangeApplied)) return undefined;
  const { previous, config } = setSetting(deps.paths.config, "mode", ch.to);
  deps.record({
    kind: "config",
    occurredAt: new Date(deps.now()).toISOString(),
    surface: "config",
    operation: "memnox.mode",
    resourceRef: deps.paths.config,
    reason: `${ch.by} set this machine's mode to ${ch.to} in the workspace (it was ${previous.mode})`,
    detail: { file: deps.paths.config, before: previous.mode, after: config.mode, by: ch.by, via: "workspace" },
  });
  return { id: ch.id, from: previous.mode, to: config.mode, by: ch.by };
}

/** Each answer given in the workspace, applied to its hold here: first answer wins, a repeat changes nothing. */
function applyAnswers(deps: PassDeps, reply: HeartbeatReply) {
  return reply.answers.map((a) => {
    const by = `${a.by} (workspace)`;
    const r = answerHold(deps.paths.pending, a.localId, { by, grant: a.grant, nowMs: deps.now(), scope: a.scope });
    if (r && (r.outcome === "recorded" || r.outcome === "decided"))
      deps.record({
        kind: "state",
        occurredAt: new Date(deps.now()).toISOString(),
        surface: "cli",
        operation: a.grant ? "memnox.approve" : "memnox.deny",
        reason: `${by} ${a.grant ? "approved" : "denied"} ${a.localId} (${r.hold.action})`,
        ...(r.hold.session ? { session: r.hold.session } : {}),
        detail: { by, via: "workspace" },
      });
    return { serverId: a.id, localId: a.localId, grant: a.grant, by: a.by, outcome: r?.outcome ?? "gone" };
  });
}

/** Rows after the last acknowledged one, in signed batches of at most MAX_BATCH; the cursor moves per batch. */
async function sendRows(
  deps: PassDeps,
  account: Account,
  ledger: Ledger,
  start: SyncState,
  save: (s: SyncState) => void,
) {
  let state = start;
  // A ledger that was replaced (a fresh one, a restore) starts below the cursor: resend it all, the server dedups.
  const tip = ledger.tip()?.seq ?? 0;
  if (state.lastSentSeq > tip) state = { ...state, lastSentSeq: 0 };
  const secret = secretKeyOf(account);
  const out = { accepted: 0, duplicates: 0, refused: 0, batches: 0, more: false, limited: false };
  for (let n = 0; n < (deps.maxBatches ?? 40); n++) {
    const rows = rowsAfter(ledger, state.lastSentSeq, MAX_BATCH);
    const last = rows[rows.length - 1];
    if (!last) return { out, state };
    const events = rows.filter((r) => (SENT_KINDS as readonly string[]).includes(r.kind)).map(sentEvent);
    if (events.length > 0) {
      const batch: EventBatch = { machineId: account.machineId, sentAt: new Date(deps.now()).toISOString(), events };
      const bytes = new TextEncoder().encode(JSON.stringify(batch));
      const r = await call(account.url, "POST", "/v1/events", {
        token: account.token,
        bytes,
        headers: { [SIGNATURE_HEADER]: signWith(secret, bytes) },
        tolerate429: true,
      });
      // The workspace takes no more for now: the rest waits for the next pass, with nothing lost and nothing failed.
      if (r.status === 429) {
        out.more = true;
        out.limited = true;
        return { out, state };
      }
      if (r.status !== 200) throw unexpected("sending a batch", r);
      const got = r.json as { accepted?: number; duplicates?: number; refused?: unknown[] };
      out.accepted += got.accepted ?? 0;
      out.duplicates += got.duplicates ?? 0;
      // A row the workspace refused stays refused: it is counted here and on the machine's page there, never resent.
      out.refused += Array.isArray(got.refused) ? got.refused.length : 0;
      out.batches += 1;
    }
    state = { ...state, lastSentSeq: last.seq };
    save(state);
  }
  out.more = (ledger.tip()?.seq ?? 0) > state.lastSentSeq;
  return { out, state };
}
