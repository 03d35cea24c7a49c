import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { createRecorder, tryAppend, unwrittenCount } from "../../src/ledger/recorder.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { fakeHome } from "../support/index.ts";
import { decision, ledgerHome } from "./helpers.ts";

describe("a row that cannot be written never stops the action", () => {
  test("the recorder reports on stderr, counts across processes, and returns undefined", () => {
    using home = fakeHome();
    const paths = memnoxPaths(home.env());
    writeFileSync(home.join("not-a-dir"), "");
    const broken = { ...paths, db: home.join("not-a-dir", "memnox.db") };
    let err = "";
    using rec = createRecorder(broken, (t) => {
      err += t;
    });
    expect(rec.record(decision({ operation: "git.push" }))).toBeUndefined();
    expect(rec.record(decision({ operation: "rm" }))).toBeUndefined();
    expect(rec.failures).toBe(2);
    expect(err).toContain("could not record `git.push` in the ledger");
    expect(err).toContain("the action was not stopped for it");
    expect(unwrittenCount(paths)).toBe(2);
    rec.keepRuleSet("h".repeat(64), []);
    expect(err).toContain("could not keep rule set hhhhhhhhhhhh");
  });

  test("a working recorder returns the row, and tryAppend reports bad input rather than throwing", () => {
    using h = ledgerHome();
    let err = "";
    using rec = createRecorder(h.paths, (t) => {
      err += t;
    });
    const r = rec.record(decision());
    expect(r?.id).toMatch(/^evt_/);
    const sink = { err: (t: string) => (err += t), unwrittenPath: h.paths.ledgerUnwritten };
    expect(tryAppend(h.ledger, decision({ occurredAt: "soon" }), sink)).toBeUndefined();
    expect(err).toContain("field `occurredAt`");
    expect(unwrittenCount(h.paths)).toBe(1);
    expect(rec.failures).toBe(0);
  });
});
