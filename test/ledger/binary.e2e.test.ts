// The ledger commands in the compiled binary: bun:sqlite, noble and the bundle signature all survive compilation.
import { afterAll, expect, test } from "bun:test";
import { openLedger } from "../../src/ledger/store.ts";
import { verifyFile } from "../../src/ledger/verify-file.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { fakeHome, runBinary } from "../support/index.ts";
import { decision, outcome } from "./helpers.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

test("timeline, why, verify and a signed bundle from the compiled binary", async () => {
  const now = new Date().toISOString();
  {
    using ledger = openLedger(memnoxPaths(home.env()));
    const d = ledger.append(decision({ occurredAt: now, effect: "deny", enforceEffect: "deny", reason: "no" }));
    ledger.append(outcome(d.id, { occurredAt: now }));
  }
  const env = home.env();
  const t = await runBinary("memnox", ["timeline", "--json"], { env });
  expect(t.stderr).toBe("");
  expect(JSON.parse(t.stdout).count).toBe(1);
  const w = await runBinary("memnox", ["why"], { env });
  expect(w.stdout).toContain("reason  no");
  const v = await runBinary("memnox", ["verify"], { env });
  expect(v.code).toBe(0);
  expect(v.stdout).toContain("intact: 2 row(s)");
  const b = await runBinary("memnox", ["timeline", "--export", "bundle", "--out", home.join("b.json")], { env });
  expect(b.code).toBe(0);
  expect(verifyFile(home.join("b.json"))).toMatchObject({ ok: true, signature: "valid" });
});
