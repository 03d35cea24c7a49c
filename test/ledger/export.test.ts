// A bundle is checked here with node:crypto, not the library that signed it, and with no memnox code in the check.
import { afterAll, describe, expect, test } from "bun:test";
import { createHash, createPublicKey, verify as edVerify } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { openLedger } from "../../src/ledger/store.ts";
import { verifyFile } from "../../src/ledger/verify-file.ts";
import { memnoxPaths } from "../../src/ports/paths.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, testContext } from "../support/index.ts";
import { at, decision, outcome, T0 } from "./helpers.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());
const paths = memnoxPaths(home.env());
{
  using ledger = openLedger(paths);
  for (let i = 29; i >= 0; i--) {
    const d = ledger.append(decision({ occurredAt: at(-i * 3_600_000), agent: i % 2 ? "codex" : "claude-code" }));
    ledger.append(outcome(d.id, { occurredAt: at(-i * 3_600_000 + 500) }));
  }
}

async function cli(...args: string[]) {
  const { ctx, io } = testContext(home, { args, now: T0 + 60_000 });
  const code = await run(ctx);
  return { code, out: io.stdout() };
}

/** What jq -cjS prints: keys sorted, no spaces. Written here independently of src/. */
function sortedJson(v: unknown): string {
  if (Array.isArray(v)) return `[${v.map(sortedJson).join(",")}]`;
  if (v && typeof v === "object")
    return `{${Object.keys(v)
      .sort()
      .map((k) => `${JSON.stringify(k)}:${sortedJson((v as Record<string, unknown>)[k])}`)
      .join(",")}}`;
  return JSON.stringify(v);
}

function checkWithNodeCrypto(text: string): boolean {
  const cut = text.indexOf("\n\n");
  const header = JSON.parse(text.slice(0, cut)) as Record<string, unknown>;
  const body = text.slice(cut + 2);
  const digestOk = header.bodyDigest === `sha256:${createHash("sha256").update(body).digest("hex")}`;
  const { signature, publicKey: _pk, publicKeyPem, ...statement } = header;
  const key = createPublicKey(String(publicKeyPem));
  const sigOk = edVerify(null, Buffer.from(sortedJson(statement)), key, Buffer.from(String(signature), "base64"));
  return digestOk && sigOk;
}

describe("timeline --export bundle", () => {
  const file = home.join("audit.json");

  test("writes a header, a blank line and the events, and says how many and that it is signed", async () => {
    const r = await cli("timeline", "--export", "bundle", "--out", file);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^60 event\(s\) from 2026-11-29 to 2026-11-30, signed -> /);
    const text = readFileSync(file, "utf8");
    const header = JSON.parse(text.slice(0, text.indexOf("\n\n")));
    expect(header).toMatchObject({
      format: "memnox.bundle/1",
      count: 60,
      range: { firstSeq: 1, lastSeq: 60 },
      filters: { agent: null, session: null, only: null },
      chain: { status: "intact", anchoredOn: { kind: "genesis" }, gaps: 0 },
    });
    expect(header.excluded).toContain("arguments: only a keyed digest (argsDigest) is recorded, never the arguments");
    expect(header.bodyDigest).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(
      text
        .slice(text.indexOf("\n\n") + 2)
        .split("\n")
        .filter(Boolean).length,
    ).toBe(60);
  });

  test("verifies with node:crypto Ed25519, and fails after one byte of the body changes", () => {
    const text = readFileSync(file, "utf8");
    expect(checkWithNodeCrypto(text)).toBe(true);
    const i = text.indexOf('"operation":"git.push"', text.indexOf("\n\n"));
    const flipped = `${text.slice(0, i + 14)}G${text.slice(i + 15)}`;
    expect(flipped.length).toBe(text.length);
    expect(checkWithNodeCrypto(flipped)).toBe(false);
    const widened = text.replace('"count": 60', '"count": 61');
    expect(checkWithNodeCrypto(widened)).toBe(false);
  });

  test("memnox verify --file says valid, and names the body digest once a byte changed", async () => {
    expect(verifyFile(file)).toMatchObject({ format: "bundle", signature: "valid", bodyDigest: "matches", ok: true });
    const r = await cli("verify", "--file", file, "--json");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ ok: true, chain: { chain: "intact", rows: 60 } });
    const text = readFileSync(file, "utf8");
    const bad = home.join("audit-bad.json");
    writeFileSync(bad, text.replace(/"exitCode":0/, '"exitCode":1'));
    const b = await cli("verify", "--file", bad);
    expect(b.code).toBe(1);
    expect(b.out).toContain("DOES NOT match its digest");
    expect(b.out).toMatch(/broken at row 2 .*does not match its hash/);
  });

  test("a filtered export states what it left out and still verifies with its gaps", async () => {
    const f = home.join("codex.json");
    expect((await cli("timeline", "--export", "bundle", "--agent", "codex", "--out", f)).code).toBe(0);
    const report = verifyFile(f);
    expect(report.ok).toBe(true);
    expect(report.chain.gaps).toBeGreaterThan(0);
    const header = JSON.parse(readFileSync(f, "utf8").split("\n\n")[0] ?? "");
    expect(header.excluded).toContain("actions of agents other than codex");
    expect(header.count).toBe(30);
  });
});

describe("timeline --export jsonl and json", () => {
  test("jsonl is one canonical row per line, each rechecking its own hash and link", async () => {
    const f = home.join("events.jsonl");
    expect((await cli("timeline", "--export", "jsonl", "--since", "5h", "--out", f)).code).toBe(0);
    const lines = readFileSync(f, "utf8").trim().split("\n");
    expect(lines.length).toBe(10);
    expect(Object.keys(JSON.parse(lines[0] ?? "{}"))).toEqual(
      expect.arrayContaining([
        "id",
        "seq",
        "occurredAt",
        "agentSessionId",
        "operation",
        "argsDigest",
        "prevHash",
        "hash",
      ]),
    );
    expect(verifyFile(f)).toMatchObject({ format: "jsonl", ok: true, chain: { anchoredOn: { kind: "range" } } });
    writeFileSync(f, lines.filter((_, i) => i !== 4).join("\n"));
    expect(verifyFile(f).chain.gaps).toBe(1);
  });

  test("json carries range, exclusions and the events", async () => {
    const r = await cli("timeline", "--export", "json", "--since", "2h");
    const doc = JSON.parse(r.out);
    expect(doc).toMatchObject({ format: "memnox.events/1", count: doc.events.length });
    expect(doc.excluded).toContain(`rows before ${new Date(T0 + 60_000 - 7_200_000).toISOString()}`);
  });
});

const tools = Bun.which("jq") && Bun.which("openssl") && Bun.which("sha256sum");
test.skipIf(!tools)("a bundle checks with jq, openssl and sha256sum alone, as the header says", async () => {
  const file = home.join("shell.json");
  expect((await cli("timeline", "--export", "bundle", "--out", file)).code).toBe(0);
  const script = [
    "set -euo pipefail",
    `f=${JSON.stringify(file)}`,
    `header=$(awk '/^$/{exit} {print}' "$f")`,
    `jq -r .publicKeyPem <<<"$header" > key.pem`,
    `jq -r .signature <<<"$header" | base64 -d > sig.bin`,
    `jq -cjS 'del(.signature,.publicKey,.publicKeyPem)' <<<"$header" > statement`,
    "openssl pkeyutl -verify -pubin -inkey key.pem -rawin -in statement -sigfile sig.bin",
    `body=$(sha256sum < <(awk 'found{print} /^$/{found=1}' "$f") | cut -d' ' -f1)`,
    `test "sha256:$body" = "$(jq -r .bodyDigest <<<"$header")" && echo body-ok`,
  ].join("\n");
  const r = Bun.spawnSync(["bash", "-c", script], { cwd: home.path, stdout: "pipe", stderr: "pipe" });
  expect(r.stderr.toString()).toBe("");
  expect(r.stdout.toString()).toContain("Signature Verified Successfully");
  expect(r.stdout.toString()).toContain("body-ok");
});
