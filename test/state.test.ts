import { afterAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { addFact, liftFacts, overlaysInForce, readOverlays } from "../src/state/overlays.ts";
import {
  answerHold,
  claimGrant,
  createHold,
  effectiveStatus,
  fingerprint,
  holdsWaiting,
  listHolds,
  readHold,
  SETTLED_KEPT_MS,
} from "../src/state/pending.ts";
import { probationFacts, readProbation, startProbation, trust } from "../src/state/probation.ts";
import { clearStop, stopInForce, writeStop } from "../src/state/stop.ts";
import { tempDir } from "./support/index.ts";

const dir = tempDir("memnox-state");
afterAll(() => dir[Symbol.dispose]());
const T0 = Date.parse("2026-11-30T12:00:00.000Z");
const HOUR = 3_600_000;

describe("overlays (freezes)", () => {
  const file = dir.join("overlays.json");
  test("a fact is in force until it expires, and lifting keeps it on file", () => {
    addFact(file, { kind: "freeze", subject: "payments", reason: "incident", by: "sam", nowMs: T0, forMs: 2 * HOUR });
    expect(overlaysInForce(readOverlays(file), T0 + HOUR).map((f) => f.subject)).toEqual(["payments"]);
    expect(overlaysInForce(readOverlays(file), T0 + 3 * HOUR)).toEqual([]);
    const lifted = liftFacts(file, "freeze", "payments", "kim", T0 + HOUR);
    expect(lifted).toHaveLength(1);
    expect(overlaysInForce(readOverlays(file), T0 + HOUR + 1)).toEqual([]);
    const all = readOverlays(file);
    expect(all).toHaveLength(1);
    expect(all[0]?.liftedBy).toBe("kim");
  });
});

describe("stop", () => {
  test("in force until its expiry, cleared by start", () => {
    const file = dir.join("stop.json");
    writeStop(file, {
      stoppedAt: new Date(T0).toISOString(),
      until: new Date(T0 + HOUR).toISOString(),
      by: "sam",
      mode: "enforce",
    });
    expect(stopInForce(file, T0 + 1)?.mode).toBe("enforce");
    expect(stopInForce(file, T0 + 2 * HOUR)).toBeUndefined();
    clearStop(file);
    expect(stopInForce(file, T0 + 1)).toBeUndefined();
  });
});

describe("pending holds", () => {
  const base = {
    surface: "hook",
    agent: "claude-code",
    action: "git.push",
    target: "origin main",
    reason: "asks",
    ttlMs: HOUR,
  };

  test("a new hold clears settled ones a day old; waiting, unspent and session grants stay", () => {
    const d = dir.join("p-prune");
    const mk = (target: string) => createHold(d, { ...base, target, nowMs: T0 });
    const denied = mk("denied");
    answerHold(d, denied.id, { by: "sam", grant: false, nowMs: T0 + 1 });
    const spent = mk("spent");
    answerHold(d, spent.id, { by: "sam", grant: true, nowMs: T0 + 1 });
    expect(claimGrant(d, spent.fingerprint, undefined, T0 + 2)?.id).toBe(spent.id);
    const unspent = mk("unspent");
    answerHold(d, unspent.id, { by: "sam", grant: true, nowMs: T0 + 1 });
    const session = mk("session");
    answerHold(d, session.id, { by: "sam", grant: true, nowMs: T0 + 1, scope: "session" });
    const unattended = mk("unattended");
    const later = T0 + HOUR + SETTLED_KEPT_MS / 2;
    const waiting = createHold(d, { ...base, target: "waiting", ttlMs: 3 * SETTLED_KEPT_MS, nowMs: later });
    // Half a day on, the settled ones are still there for a late answer to be told about.
    expect(listHolds(d)).toHaveLength(6);
    createHold(d, { ...base, target: "new", nowMs: T0 + HOUR + SETTLED_KEPT_MS + 1 });
    const left = listHolds(d).map((h) => h.target);
    expect(left.sort()).toEqual(["new", "session", "unspent", "waiting"]);
    expect([denied, spent, unattended].map((h) => readHold(d, h.id))).toEqual([undefined, undefined, undefined]);
    expect(readHold(d, waiting.id)?.status).toBe("waiting");
    expect(readHold(d, session.id)?.status).toBe("granted");
    // What approvals, status and replay list: only the holds still waiting.
    expect(holdsWaiting(d, T0 + HOUR + SETTLED_KEPT_MS + 2).map((h) => h.target)).toEqual(["waiting", "new"]);
  });

  test("a retry of the same call reuses the waiting hold", () => {
    const d = dir.join("p1");
    const a = createHold(d, { ...base, nowMs: T0 });
    const b = createHold(d, { ...base, nowMs: T0 + 1000 });
    expect(b.id).toBe(a.id);
    expect(listHolds(d)).toHaveLength(1);
  });

  test("one hold per call per session: another session's same call waits on its own, and never spends this one", () => {
    const d = dir.join("p1s");
    const a = createHold(d, { ...base, session: "s1", nowMs: T0 });
    const again = createHold(d, { ...base, session: "s1", nowMs: T0 + 1 });
    const b = createHold(d, { ...base, session: "s2", nowMs: T0 + 2 });
    expect(again.id).toBe(a.id);
    expect(b.id).not.toBe(a.id);
    answerHold(d, a.id, { by: "sam", grant: true, nowMs: T0 + 3 });
    expect(claimGrant(d, a.fingerprint, "s2", T0 + 4)).toBeUndefined();
    expect(claimGrant(d, a.fingerprint, "s1", T0 + 4)?.id).toBe(a.id);
    expect(readHold(d, b.id)?.status).toBe("waiting");
  });

  test("first answer wins and the loser is told what happened", () => {
    const d = dir.join("p2");
    const h = createHold(d, { ...base, nowMs: T0 });
    expect(answerHold(d, h.id, { by: "sam", grant: true, nowMs: T0 + 1 })?.outcome).toBe("decided");
    const second = answerHold(d, h.id, { by: "kim", grant: false, nowMs: T0 + 2 });
    expect(second?.outcome).toBe("already");
    expect(second && "status" in second ? second.status : undefined).toBe("granted");
  });

  test("quorum: one person counts once, one denial ends it", () => {
    const d = dir.join("p3");
    const h = createHold(d, { ...base, minApprovals: 2, nowMs: T0 });
    expect(answerHold(d, h.id, { by: "sam", grant: true, nowMs: T0 + 1 })?.outcome).toBe("recorded");
    expect(answerHold(d, h.id, { by: "sam", grant: true, nowMs: T0 + 2 })?.outcome).toBe("duplicate");
    expect(readHold(d, h.id)?.status).toBe("waiting");
    expect(answerHold(d, h.id, { by: "kim", grant: false, nowMs: T0 + 3 })?.outcome).toBe("decided");
    expect(readHold(d, h.id)?.status).toBe("denied");
  });

  test("a grant is spent by exactly one claim; a session grant is reused in that session only", () => {
    const d = dir.join("p4");
    const h = createHold(d, { ...base, session: "s1", nowMs: T0 });
    answerHold(d, h.id, { by: "sam", grant: true, nowMs: T0 + 1 });
    expect(claimGrant(d, h.fingerprint, "s1", T0 + 2)?.id).toBe(h.id);
    expect(claimGrant(d, h.fingerprint, "s1", T0 + 3)).toBeUndefined();

    const d2 = dir.join("p5");
    const s = createHold(d2, { ...base, session: "s1", nowMs: T0 });
    answerHold(d2, s.id, { by: "sam", grant: true, scope: "session", nowMs: T0 + 1 });
    expect(claimGrant(d2, s.fingerprint, "s1", T0 + 2)?.id).toBe(s.id);
    expect(claimGrant(d2, s.fingerprint, "s1", T0 + 3)?.id).toBe(s.id);
    expect(claimGrant(d2, s.fingerprint, "s2", T0 + 3)).toBeUndefined();
  });

  test("a session grant given where no session is known lapses at the hold's expiry", () => {
    const d = dir.join("p5b");
    const s = createHold(d, { ...base, nowMs: T0 });
    answerHold(d, s.id, { by: "sam", grant: true, scope: "session", nowMs: T0 + 1 });
    expect(claimGrant(d, s.fingerprint, undefined, T0 + 2)?.id).toBe(s.id);
    expect(claimGrant(d, s.fingerprint, undefined, T0 + HOUR - 1)?.id).toBe(s.id);
    expect(claimGrant(d, s.fingerprint, undefined, T0 + HOUR + 1)).toBeUndefined();
  });

  test("a hold nobody answers becomes unattended, and cannot be answered after", () => {
    const d = dir.join("p6");
    const h = createHold(d, { ...base, nowMs: T0 });
    expect(effectiveStatus(h, T0 + 2 * HOUR)).toBe("unattended");
    const late = answerHold(d, h.id, { by: "sam", grant: true, nowMs: T0 + 2 * HOUR });
    expect(late?.outcome).toBe("already");
  });

  test("the fingerprint binds agent, action, target and environment", () => {
    const f = fingerprint(base);
    expect(fingerprint({ ...base, agent: "codex" })).not.toBe(f);
    expect(fingerprint({ ...base, target: "origin dev" })).not.toBe(f);
    expect(fingerprint({ ...base, environment: "production" })).not.toBe(f);
    expect(fingerprint({ ...base })).toBe(f);
  });

  test("two processes answering at once: exactly one decides", async () => {
    const d = dir.join("p7");
    const h = createHold(d, { ...base, nowMs: Date.now() });
    const script = join(import.meta.dir, "support", "answer-hold.ts");
    const run = (by: string, grant: string) =>
      Bun.spawn([process.execPath, script, d, h.id, by, grant], { stdout: "pipe" }).stdout.text();
    const outs = await Promise.all([run("sam", "yes"), run("kim", "no"), run("lee", "no")]);
    expect(outs.filter((o) => o.trim() === "decided")).toHaveLength(1);
    expect(outs.filter((o) => o.trim() === "already")).toHaveLength(2);
  });
});

describe("probation", () => {
  test("seven days as a state fact, ended by trust", () => {
    const file = dir.join("probation.json");
    startProbation(file, "server", "github", T0);
    expect(probationFacts(readProbation(file), T0 + HOUR).map((f) => f.subject)).toEqual(["server:github"]);
    expect(probationFacts(readProbation(file), T0 + 8 * 24 * HOUR)).toEqual([]);
    expect(trust(file, "server", "github", "sam", T0 + HOUR)?.trustedBy).toBe("sam");
    expect(probationFacts(readProbation(file), T0 + 2 * HOUR)).toEqual([]);
  });
});
