// The JSON is the contract: each record command's --json keys, on a home with nothing recorded yet.
import { afterAll, expect, test } from "bun:test";
import { fakeHome, gitRepo } from "./support/index.ts";
import { cli } from "./support/record.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "x\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});
const T = Date.parse("2026-11-30T12:00:00.000Z");

const CASES: [string[], string[]][] = [
  [["next"], ["kept", "notYet", "range", "ready", "thresholds"]],
  [
    ["next", "--hand-over"],
    ["handedOver", "skipped", "written"],
  ],
  [["next", "--roles"], ["roles"]],
  [["allow", "--list"], ["grants"]],
  [["allow", "gh.*", "--for", "5m", "--reason", "contract"], ["grant"]],
  [["budget", "list"], ["budgets"]],
  [["budget", "set", "pushes", "--actions", "git.push", "--limit", "5"], ["budget"]],
  [
    ["budget", "suggest", "--dry-run"],
    ["suggested", "written"],
  ],
  [["budget", "remove", "pushes"], ["removed"]],
  [
    ["lock", "--list"],
    ["leases", "local"],
  ],
  [
    ["lock", "README.md"],
    ["lease", "local"],
  ],
  [["lock", "--release", "README.md"], ["released"]],
  [["lock", "--forget"], ["forgotten"]],
  [["collisions"], ["building", "files", "range"]],
  [["skills"], ["flagged", "items"]],
  [["skills", "--accept"], ["accepted"]],
];

test("every record command answers --json with its stable keys", async () => {
  for (const [args, keys] of CASES) {
    const r = await cli(home, [...args, "--json"], T, repo.path);
    expect([args.join(" "), Object.keys(r.json()).sort()]).toEqual([args.join(" "), keys]);
  }
  const budget = (
    await cli(home, ["budget", "set", "deploys", "--actions", "railway.up", "--limit", "2", "--json"], T, repo.path)
  ).json();
  expect(Object.keys(budget.budget).sort()).toEqual(
    ["actions", "by", "freesAt", "left", "limit", "name", "setAt", "unit", "used", "window"].sort(),
  );
});

test("claims with nothing recorded is a clear error, as JSON under --json", async () => {
  const r = await cli(home, ["claims", "--json"], T, repo.path);
  expect(r.code).not.toBe(0);
  expect(r.json().error.message).toContain("no session in the ledger");
});
