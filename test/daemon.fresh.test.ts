// A change on disk is in force for the daemon's very next decision: each evaluate below follows its write in the same
// turn, so no watcher event can have arrived, and only the daemon's own check of the files can have seen the change.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { cachedReaders } from "../src/daemon/cached.ts";
import { daemonCore } from "../src/daemon/core.ts";
import { deferringRecorder } from "../src/daemon/deferred.ts";
import { daemonLog } from "../src/daemon/log.ts";
import { ruleCache } from "../src/daemon/rules.ts";
import { callerFacts } from "../src/gate/caller.ts";
import { evaluateRequest } from "../src/gate/remote/evaluate.ts";
import type { GateAnswer } from "../src/gate/types.ts";
import { createRecorder } from "../src/ledger/index.ts";
import { resolveCommand } from "../src/resolve/index.ts";
import { writeStop } from "../src/state/stop.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

/** `git status` decided by `effect`; the reasons are padded so that both texts have the same length. */
const rules = (effect: "allow" | "deny", reason = effect === "deny" ? "status is deny.." : "status is allow") =>
  `version = 1\n[[policies]]\nname = "status"\n[policies.match]\nactions = ["git.status"]\n[policies.decision]\neffect = "${effect}"\nreason = "${reason}"\n`;

function setUp() {
  const { ctx } = testContext(home);
  const repo = gitRepo({ "memnox.policies.toml": rules("allow") });
  writeFileSync(ctx.paths.config, 'mode = "enforce"\n');
  const recorder = deferringRecorder(createRecorder(ctx.paths, () => {}, { walAutoCheckpoint: 0 }));
  const cache = ruleCache({ paths: ctx.paths, onReload: () => {} });
  const log = daemonLog(ctx.paths.daemonLog, ctx.clock);
  const ping = async () => ({ pid: process.pid, version: ctx.version, startedAt: "" });
  const core = daemonCore({ ctx, recorder, rules: cache, readers: cachedReaders(ctx.paths), log, ping });
  const decide = async (cwd = repo.path): Promise<GateAnswer> => {
    const command = "git status";
    const reply = await core.evaluate(
      evaluateRequest(
        { surface: "hook", command, cwd, canAsk: true, agent: "claude-code" },
        {
          version: ctx.version,
          caller: callerFacts(ctx),
          resolution: resolveCommand(command, { cwd, home: home.home }),
          digest: () => "0".repeat(64),
          at: { epochMs: ctx.clock.now(), utcOffsetMinutes: 0 },
        },
      ),
    );
    core.settle();
    if (!("answer" in reply)) throw new Error(`decided in the seam: ${reply.local}`);
    return reply.answer;
  };
  const close = () => {
    cache.close();
    recorder.close();
    repo[Symbol.dispose]();
  };
  return { ctx, repo, decide, close };
}

describe("the daemon's next decision after a change on disk", () => {
  test("follows a rule file rewritten in place", async () => {
    const { repo, decide, close } = setUp();
    try {
      expect((await decide()).reason).toBe("status is allow");
      writeFileSync(repo.join("memnox.policies.toml"), rules("deny", "status is denied now"));
      const answer = await decide();
      expect([answer.effect, answer.reason]).toEqual(["deny", "status is denied now"]);
    } finally {
      close();
    }
  });

  test("follows a rule file replaced by rename with one of the very same size", async () => {
    const { repo, decide, close } = setUp();
    try {
      expect((await decide()).reason).toBe("status is allow");
      expect(rules("deny").length).toBe(rules("allow").length);
      writeFileSync(repo.join("next.toml"), rules("deny"));
      renameSync(repo.join("next.toml"), repo.join("memnox.policies.toml"));
      expect((await decide()).reason).toBe("status is deny..");
    } finally {
      close();
    }
  });

  test("follows a rule file that appeared nearer the working directory", async () => {
    const { repo, decide, close } = setUp();
    try {
      const sub = repo.join("packages", "app");
      mkdirSync(sub, { recursive: true });
      expect((await decide(sub)).reason).toBe("status is allow");
      writeFileSync(join(sub, "memnox.policies.toml"), rules("deny", "the app says no"));
      expect((await decide(sub)).reason).toBe("the app says no");
    } finally {
      close();
    }
  });

  test("follows the mode changed in config.toml and a stop written by `memnox stop`", async () => {
    const { ctx, decide, close } = setUp();
    try {
      expect((await decide()).mode).toBe("enforce");
      writeFileSync(ctx.paths.config, 'mode = "observe"\n');
      expect((await decide()).mode).toBe("observe");
      const now = ctx.clock.now();
      writeStop(ctx.paths.stop, {
        stoppedAt: new Date(now).toISOString(),
        until: new Date(now + 60_000).toISOString(),
        by: "test",
        mode: "observe",
      });
      expect((await decide()).stopped).toBe(true);
    } finally {
      close();
    }
  });
});
