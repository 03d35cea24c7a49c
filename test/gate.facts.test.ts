// Facts are read once per call: config.toml and its seal are parsed once for a decision and the briefing after it,
// and read again as soon as either file changes, in a seam's process and in the daemon alike.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { cachedReaders } from "../src/daemon/cached.ts";
import { daemonCore } from "../src/daemon/core.ts";
import { deferringRecorder } from "../src/daemon/deferred.ts";
import { daemonLog } from "../src/daemon/log.ts";
import { ruleCache } from "../src/daemon/rules.ts";
import { createGate } from "../src/gate/create.ts";
import { fileReaders } from "../src/gate/wiring.ts";
import { cachedFiles } from "../src/io/stamp.ts";
import { createRecorder } from "../src/ledger/index.ts";
import { addFact } from "../src/state/overlays.ts";
import { writeSeal } from "../src/state/seal.ts";
import { tempDir } from "./support/fs.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const NOW = Date.parse("2026-11-30T12:00:00.000Z");

describe("a value read from files, kept until one of them changes", () => {
  const dir = tempDir("memnox-stamp");
  afterAll(() => dir[Symbol.dispose]());

  test("read once while neither file changes; read again when either does, or when one appears", () => {
    const a = dir.join("a.txt");
    const b = dir.join("b.txt");
    writeFileSync(a, "1");
    let reads = 0;
    const value = cachedFiles([a, b], () => {
      reads += 1;
      return reads;
    });
    expect([value(), value(), value()]).toEqual([1, 1, 1]);
    writeFileSync(b, "appeared");
    expect(value()).toBe(2);
    writeFileSync(a, "22");
    expect(value()).toBe(3);
    expect(value()).toBe(3);
  });
});

describe("config.toml and its seal", () => {
  const home = fakeHome();
  const repo = gitRepo({ "README.md": "hi\n" });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });

  test("a seal written alone is in force at the next read, in a seam and in the daemon", () => {
    const { ctx } = testContext(home, { cwd: repo.path, now: NOW });
    writeFileSync(ctx.paths.config, 'mode = "observe"\n');
    const seam = fileReaders(ctx.paths);
    const daemon = cachedReaders(ctx.paths);
    expect(seam.config().mode).toBe("observe");
    expect(daemon.config().mode).toBe("observe");
    // Only memnox writes the seal; config.toml edited by hand to something looser does not loosen it.
    writeSeal(join(home.memnoxHome, "sealed.json"), { mode: "enforce", failOpen: false }, NOW);
    expect(seam.config().mode).toBe("enforce");
    expect(daemon.config().mode).toBe("enforce");
  });

  test("one gate decides and briefs on one reading; a change between two calls is in force for the second", async () => {
    const { ctx } = testContext(home, { cwd: repo.path, now: NOW });
    writeFileSync(ctx.paths.config, 'mode = "enforce"\n');
    writeSeal(join(home.memnoxHome, "sealed.json"), { mode: "observe", failOpen: false }, NOW);
    const gate = createGate(ctx, { recording: false });
    const ask = { surface: "shell" as const, command: "git status", cwd: repo.path, canAsk: false };
    expect((await gate.decide(ask)).mode).toBe("enforce");
    expect((await gate.briefing({ cwd: repo.path })).mode).toBe("enforce");
    writeFileSync(ctx.paths.config, 'mode = "advise"\n');
    expect((await gate.decide(ask)).mode).toBe("advise");
    expect((await gate.briefing({ cwd: repo.path })).mode).toBe("advise");
  });
});

describe("a session's briefing from the running daemon", () => {
  const home = fakeHome();
  const RULES = `version = 1
[[policies]]
name = "no-deploys-unwatched"
[policies.match]
actions = ["railway.deploy", "fly.deploy"]
[policies.decision]
effect = "ask"
reason = "a deploy waits for a person this week"
`;
  const repo = gitRepo({ "memnox.policies.toml": RULES });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });

  test("is the briefing this process would have read, from the daemon's rule sets; another version is not asked", async () => {
    const { ctx } = testContext(home, { cwd: repo.path, now: NOW });
    writeFileSync(ctx.paths.config, 'mode = "enforce"\n');
    addFact(ctx.paths.overlays, {
      kind: "grant",
      subject: "railway.*",
      reason: "deploy week",
      nowMs: NOW,
      forMs: 3_600_000,
    });
    const recorder = deferringRecorder(createRecorder(ctx.paths, () => {}, { walAutoCheckpoint: 0 }));
    const rules = ruleCache({ paths: ctx.paths, onReload: () => {} });
    const ping = async () => ({ pid: process.pid, version: ctx.version, startedAt: "" });
    const core = daemonCore({
      ctx,
      recorder,
      rules,
      readers: cachedReaders(ctx.paths),
      log: daemonLog(ctx.paths.daemonLog, ctx.clock),
      ping,
    });
    try {
      const local = await createGate(ctx).briefing({ cwd: repo.path, agent: "claude-code" });
      expect(local.rules.map((r) => r.name)).toContain("no-deploys-unwatched");
      expect(local.grants?.[0]?.scope).toBe("railway.*");
      const asked = { method: "briefing" as const, cwd: repo.path, agent: "claude-code", at: NOW };
      const remote = core.briefing({ ...asked, version: ctx.version, repository: repo.path });
      expect(remote).toEqual({ briefing: local });
      expect(core.briefing({ ...asked, version: "0.0.1-other" })).toHaveProperty("local");
    } finally {
      rules.close();
      recorder.close();
    }
  });
});
