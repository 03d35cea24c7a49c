// The canary: a secret argument reaches the ledger only as a keyed digest, never a file, an export or an output.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { createArgsDigest } from "../../src/ledger/digest.ts";
import { createRecorder } from "../../src/ledger/recorder.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, testContext } from "../support/index.ts";
import { at, decision, outcome, T0 } from "./helpers.ts";

const SECRET = "sk-live-CANARY-9f2c4e7a1b3d5f60";
const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

test("a secret argument never appears in the db file, its WAL, any export or any reader's output", async () => {
  const paths = memnoxPaths(home.env());
  const digest = createArgsDigest(paths);
  const raw = `curl -H "Authorization: Bearer ${SECRET}" https://api.example.com`;
  let err = "";
  const rec = createRecorder(paths, (t) => {
    err += t;
  });
  const d = rec.record(
    decision({ occurredAt: at(-60_000), argsDigest: digest(raw), effect: "deny", enforceEffect: "deny" }),
  );
  rec.record(outcome(d?.id ?? "", { occurredAt: at(-59_000) }));
  rec.record(decision({ occurredAt: "not a time", argsDigest: digest(raw) }));
  const outputs: string[] = [err];
  const commands = [
    ["timeline"],
    ["timeline", "--json"],
    ["why"],
    ["why", "--json"],
    ["trace", d?.id ?? "", "--json"],
    ["replay", "--json"],
    ["report", "--json"],
    ["verify", "--json"],
    ["timeline", "--export", "bundle", "--out", home.join("b.json")],
    ["timeline", "--export", "jsonl", "--out", home.join("e.jsonl")],
    ["timeline", "--export", "json"],
    ["purge", "--dry-run", "--json"],
  ];
  for (const args of commands) {
    const { ctx, io } = testContext(home, { args, now: T0 });
    await run(ctx);
    outputs.push(io.stdout(), io.stderr());
  }
  const files = readdirSync(paths.root).map((f) => `${paths.root}/${f}`);
  files.push(home.join("b.json"), home.join("e.jsonl"));
  expect(files).toContain(`${paths.db}-wal`);
  const needles = [SECRET, Buffer.from(SECRET).toString("base64"), Buffer.from(SECRET).toString("hex")];
  for (const f of files.filter((x) => !x.endsWith("/keys"))) {
    const bytes = readFileSync(f).toString("latin1");
    for (const n of needles) expect(bytes.includes(n), `${f} holds the secret`).toBe(false);
  }
  for (const o of outputs) for (const n of needles) expect(o.includes(n)).toBe(false);
  expect(outputs.join("")).toContain(digest(raw).slice(0, 16));
  rec.close();
});
