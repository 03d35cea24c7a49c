// The daemon answers `evaluate` before it writes the decision row, and writes it in the same turn: one row per
// decision, named in the answer, on the record before anything else the daemon does touches the ledger.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { EventInput } from "../src/core/event.ts";
import { cachedReaders } from "../src/daemon/cached.ts";
import { daemonCore } from "../src/daemon/core.ts";
import { CHECKPOINT, deferringRecorder } from "../src/daemon/deferred.ts";
import { daemonLog } from "../src/daemon/log.ts";
import { ruleCache } from "../src/daemon/rules.ts";
import { callerFacts } from "../src/gate/caller.ts";
import { evaluateRequest } from "../src/gate/remote/evaluate.ts";
import type { RecordRequest } from "../src/gate/remote/protocol.ts";
import { createRecorder, openLedger, type Recorder } from "../src/ledger/index.ts";
import { resolveCommand } from "../src/resolve/index.ts";
import { fakeHome, testContext } from "./support/index.ts";
import { FORCE_PUSH_DENIED } from "./support/rules.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

const RULES = FORCE_PUSH_DENIED;

function setUp() {
  const { ctx } = testContext(home);
  const repo = join(home.home, "repo");
  mkdirSync(repo, { recursive: true });
  writeFileSync(join(repo, "memnox.policies.toml"), RULES);
  writeFileSync(ctx.paths.config, 'mode = "enforce"\n');
  const recorder = deferringRecorder(createRecorder(ctx.paths, () => {}, { walAutoCheckpoint: 0 }));
  const rules = ruleCache({ paths: ctx.paths, onReload: () => {} });
  const log = daemonLog(ctx.paths.daemonLog, ctx.clock);
  const ping = async () => ({ pid: process.pid, version: ctx.version, startedAt: "" });
  const core = daemonCore({ ctx, recorder, rules, readers: cachedReaders(ctx.paths), log, ping });
  const request = (command: string) =>
    evaluateRequest(
      { surface: "hook", command, cwd: repo, canAsk: false, agent: "claude-code", session: "ses-deferred" },
      {
        version: ctx.version,
        caller: callerFacts(ctx),
        resolution: resolveCommand(command, { cwd: repo, home: home.home }),
        digest: () => "0".repeat(64),
        at: { epochMs: ctx.clock.now(), utcOffsetMinutes: 0 },
      },
    );
  const rows = () => {
    using ledger = openLedger(ctx.paths);
    return ledger.select("SELECT * FROM events ORDER BY seq");
  };
  const close = () => {
    rules.close();
    recorder.close();
  };
  return { ctx, core, recorder, request, rows, close };
}

describe("the decision row of a socket evaluate", () => {
  test("is not written on the answer's path; settle() writes exactly one, under the id the answer named", async () => {
    const { core, recorder, request, rows, close } = setUp();
    try {
      const before = rows().length;
      const reply = await core.evaluate(request("git push --force origin main"));
      if (!("answer" in reply)) throw new Error(`decided in the seam: ${reply.local}`);
      expect(reply.answer.effect).toBe("deny");
      const id = reply.answer.eventId;
      expect(id).toMatch(/^evt_/);
      expect(recorder.waiting).toBe(1);
      expect(rows().length).toBe(before);
      core.settle();
      core.settle();
      const written = rows().slice(before);
      expect(written.map((r) => [r.id, r.kind, r.effect, r.operation])).toEqual([
        [id, "decision", "deny", "git.push-force"],
      ]);
    } finally {
      close();
    }
  });

  test("is on the record before an outcome that names it, even when nothing settled in between", async () => {
    const { ctx, core, request, rows, close } = setUp();
    try {
      const before = rows().length;
      const reply = await core.evaluate(request("git status"));
      if (!("answer" in reply)) throw new Error(`decided in the seam: ${reply.local}`);
      const parent = reply.answer.eventId ?? "";
      const outcome: RecordRequest = {
        method: "record",
        inherit: true,
        event: {
          kind: "outcome",
          surface: "hook",
          operation: "git.status",
          occurredAt: new Date(ctx.clock.now()).toISOString(),
          parent,
          exitCode: 0,
        },
      };
      const { eventId } = core.record(outcome);
      const written = rows().slice(before);
      expect(written.map((r) => [r.id, r.kind])).toEqual([
        [parent, "decision"],
        [eventId ?? "", "outcome"],
      ]);
      // Inherited from the decision row, which only a written row can give.
      expect(written[1]?.agentSessionId).toBe("ses-deferred");
    } finally {
      close();
    }
  });

  test("is written by the next turn when no caller settles it (the egress proxy)", async () => {
    const { core, request, rows, close } = setUp();
    try {
      const before = rows().length;
      const reply = await core.evaluate(request("git push --force origin main"));
      if (!("answer" in reply)) throw new Error(`decided in the seam: ${reply.local}`);
      await new Promise((resolve) => setImmediate(resolve));
      expect(
        rows()
          .slice(before)
          .map((r) => r.id),
      ).toEqual([reply.answer.eventId ?? ""]);
    } finally {
      close();
    }
  });
});

describe("the WAL checkpoint", () => {
  const counting = () => {
    const seen = { rows: 0, checkpoints: [] as number[] };
    const inner: Recorder = {
      record: () => {
        seen.rows += 1;
        return { id: `evt_row${seen.rows}xx`, seq: seen.rows, hash: "h" };
      },
      keepRuleSet: () => {},
      find: () => undefined,
      proceeded: () => [],
      read: (_fn, otherwise) => otherwise,
      checkpoint: () => {
        seen.checkpoints.push(seen.rows);
      },
      failures: 0,
      close: () => {},
      [Symbol.dispose]: () => {},
    };
    return { seen, inner };
  };
  const row: EventInput = {
    kind: "decision",
    surface: "hook",
    operation: "git.status",
    occurredAt: "2026-11-30T12:00:00.000Z",
  };

  test("runs once writes have gone quiet, never on a row's own turn below the bound", async () => {
    const { seen, inner } = counting();
    const r = deferringRecorder(inner, { afterRows: 3, quietMs: 5, atMostRows: 100 });
    for (let i = 0; i < 5; i++) {
      r.later(row);
      r.settle();
      expect(seen.checkpoints).toEqual([]);
    }
    const ran = await new Promise<boolean>((resolve) => {
      const poll = setInterval(() => {
        if (seen.checkpoints.length === 0) return;
        clearInterval(poll);
        resolve(true);
      }, 1);
      setTimeout(() => resolve(false), 5_000);
    });
    expect(ran).toBe(true);
    expect(seen.checkpoints).toEqual([5]);
    r.close();
  });

  test("under constant writes it still runs at the bound, so the WAL cannot grow without end", () => {
    const { seen, inner } = counting();
    const r = deferringRecorder(inner, { afterRows: 3, quietMs: 60_000, atMostRows: 4 });
    for (let i = 0; i < 9; i++) r.record(row);
    expect(seen.checkpoints).toEqual([4, 8]);
    r.close();
    expect(seen.checkpoints).toEqual([4, 8, 9]);
  });

  test("the daemon's connection leaves checkpoints to it", () => {
    const { ctx } = testContext(home);
    using ledger = openLedger(ctx.paths, { walAutoCheckpoint: 0 });
    expect(ledger.db.query("PRAGMA wal_autocheckpoint").get()).toEqual({ wal_autocheckpoint: 0 });
    expect(CHECKPOINT.afterRows).toBeLessThan(CHECKPOINT.atMostRows);
  });
});
