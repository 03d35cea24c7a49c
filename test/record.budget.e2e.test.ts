// Budgets with the compiled binary: counted from the ledger, so the daemon answering, the daemon gone (each hook
// deciding in its own process) and a daemon started again all count the same calls; call N+1 asks, naming the
// budget and what is left. And a second agent's write to a file another session leased asks, naming the holder.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { budgetUses, ledgerCounter } from "../src/gate/budgets.ts";
import { openLedger } from "../src/ledger/store.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { readBudgets } from "../src/state/budgets.ts";
import { type RunningDaemon, startDaemon } from "./support/daemon.ts";
import { fakeHome, gitRepo, runBinary } from "./support/index.ts";
import { type Claude, enforce, payloads } from "./support/record.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "one\n", "src/app.ts": "export {};\n" });
const env = home.env();
const claude: Claude = { session: "ses-budget", cwd: repo.path };
let n = 0;

async function readme(): Promise<{ decision: string; reason: string }> {
  n += 1;
  const r = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
    env,
    cwd: repo.path,
    stdin: payloads.pre(claude, "Read", { file_path: repo.join("README.md") }, `toolu_b${n}`),
  });
  const out = r.stdout ? JSON.parse(r.stdout).hookSpecificOutput : undefined;
  return { decision: out?.permissionDecision ?? "allow", reason: out?.permissionDecisionReason ?? "" };
}

async function memnox(...args: string[]) {
  const r = await runBinary("memnox", args, { env, cwd: repo.path });
  return { code: r.code, json: () => JSON.parse(r.stdout), out: r.stdout, err: r.stderr };
}

beforeAll(() => enforce(home));
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

describe("a budget, counted from the ledger wherever the gate runs", () => {
  let daemon: RunningDaemon | undefined;
  afterAll(async () => {
    await daemon?.stop();
  });

  test("with the daemon answering: three reads proceed, the fourth asks with the budget's name", async () => {
    const set = await memnox(
      "budget",
      "set",
      "readme-reads",
      "--actions",
      "filesystem.read",
      "--limit",
      "3",
      "--window",
      "1d",
      "--json",
    );
    expect(set.code).toBe(0);
    daemon = await startDaemon(home);
    for (let i = 0; i < 3; i++) expect((await readme()).decision).toBe("allow");
    const fourth = await readme();
    expect(fourth.decision).toBe("ask");
    expect(fourth.reason).toContain("the budget readme-reads is spent (3 of 3 calls used in 1d, 0 left)");
    const ping = await daemon.ping();
    expect(ping?.answered.evaluate).toBeGreaterThanOrEqual(4);
  }, 240_000);

  test("the daemon gone, every hook counts in its own process from the same rows: it still asks", async () => {
    await daemon?.stop();
    daemon = undefined;
    const fifth = await readme();
    expect(fifth.decision).toBe("ask");
    const list = (await memnox("budget", "list", "--json")).json();
    expect(list.budgets).toEqual([
      expect.objectContaining({ name: "readme-reads", used: 3, left: 0, limit: 3, unit: "calls", window: "1d" }),
    ]);
  }, 60_000);

  test("parity: the daemon's counter and the seam's counter agree on the same ledger, and a new daemon asks too", async () => {
    const paths = memnoxPaths(env);
    const budgets = readBudgets(paths.budgets);
    const now = Date.now();
    using ledger = openLedger(paths);
    const direct = budgetUses(ledger.db, budgets, now);
    let settled = 0;
    const daemonSide = ledgerCounter(paths, () => {
      settled += 1;
    })(budgets, now);
    expect(daemonSide).toEqual(direct);
    expect(settled).toBe(1);
    expect(direct[0]).toMatchObject({ used: 3, left: 0 });

    daemon = await startDaemon(home);
    expect((await readme()).decision).toBe("ask");
    expect((await daemon.ping())?.answered.evaluate).toBeGreaterThanOrEqual(1);
    // Removing the budget (a loosening, on the record) lets the next read through.
    expect((await memnox("budget", "remove", "readme-reads")).code).toBe(0);
    expect((await readme()).decision).toBe("allow");
  }, 120_000);
});

describe("a lease through the compiled binary", () => {
  test("a second agent's write to a file another session leased asks, naming the holder", async () => {
    const write = (who: Claude, id: string) =>
      runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
        env,
        cwd: repo.path,
        stdin: payloads.pre(who, "Write", { file_path: repo.join("src/app.ts"), content: "export const a = 1;\n" }, id),
      });
    const first = await write({ session: "ses-writer-one", cwd: repo.path }, "toolu_w1");
    expect(
      first.stdout === "" ? undefined : JSON.parse(first.stdout).hookSpecificOutput?.permissionDecision,
    ).toBeUndefined();
    const second = JSON.parse((await write({ session: "ses-writer-two", cwd: repo.path }, "toolu_w2")).stdout);
    expect(second.hookSpecificOutput.permissionDecision).toBe("ask");
    expect(second.hookSpecificOutput.permissionDecisionReason).toContain(
      `${repo.join("src/app.ts")} is leased by claude-code (ses-writer-one) since`,
    );
    const list = (await memnox("lock", "--list", "--json")).json();
    expect(list.leases.map((l: { session: string }) => l.session)).toEqual(["ses-writer-one"]);
  }, 60_000);
});
