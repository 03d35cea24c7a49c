// `memnox start` after a stop puts the daemon's keeping back at once (issue 31): the passes watch the stop file, so a
// pass skipped while the stop held runs as soon as it is gone, not at the five-minute backstop.
import { afterEach, expect, test } from "bun:test";
import { rmSync, writeFileSync } from "node:fs";
import { daemonLog } from "../src/daemon/log.ts";
import { type DaemonPass, startPasses } from "../src/daemon/passes.ts";
import { createRecorder } from "../src/ledger/index.ts";
import { type FakeHome, fakeHome, testContext } from "./support/index.ts";
import { whenChanged } from "./support/wait.ts";

let home: FakeHome;
afterEach(() => home[Symbol.dispose]());

test("a stop skips the passes; ending it runs them at once", async () => {
  home = fakeHome();
  const { ctx } = testContext(home, { now: Date.now() });
  const until = new Date(Date.now() + 3_600_000).toISOString();
  writeFileSync(ctx.paths.stop, JSON.stringify({ stoppedAt: until, until, by: "pat", mode: "enforce" }));
  const runs: string[] = [];
  const pass: DaemonPass = {
    name: "counting",
    watched: () => [],
    async run(pc) {
      runs.push(pc.trigger);
    },
  };
  const recorder = createRecorder(ctx.paths, () => {});
  const runner = startPasses({ ctx, passes: [pass], log: daemonLog(ctx.paths.daemonLog, ctx.clock), recorder });
  await runner.started;
  expect(runs).toEqual([]);
  // What `memnox start` does: the stop file goes.
  rmSync(ctx.paths.stop);
  await whenChanged(home.memnoxHome, () => runs.length > 0, 10_000);
  await runner.close();
  recorder.close();
  expect(runs[0]).toBe("change");
});
