import { describe, expect, test } from "bun:test";
import { createHash } from "node:crypto";
import { statSync } from "node:fs";
import { join } from "node:path";
import { createArgsDigest } from "../../src/ledger/digest.ts";
import { ARGS_KEY_FILE, SIGNING_KEY_FILE } from "../../src/ledger/keys.ts";
import { machinePublicKey, machineSigner, verifySignature } from "../../src/ledger/sign.ts";
import { tempDir } from "../support/index.ts";

describe("machine keys", () => {
  test("the args digest is keyed: comparable here, not a plain hash a short command could be guessed from", () => {
    using dir = tempDir("memnox-keys");
    const keys = dir.join("keys");
    const digest = createArgsDigest({ keys });
    expect(digest("ls")).toMatch(/^[0-9a-f]{64}$/);
    expect(digest("ls")).toBe(createArgsDigest({ keys })("ls"));
    expect(digest("ls")).not.toBe(createHash("sha256").update("ls").digest("hex"));
    expect(digest("ls")).not.toBe(createArgsDigest({ keys: dir.join("other") })("ls"));
    expect(statSync(keys).mode & 0o777).toBe(0o700);
    expect(statSync(join(keys, ARGS_KEY_FILE)).mode & 0o777).toBe(0o600);
  });

  test("processes racing to make the key all end up with the one key", async () => {
    using dir = tempDir("memnox-keys");
    const keys = dir.join("keys");
    const worker = join(import.meta.dir, "digest-worker.ts");
    const runs = Array.from({ length: 6 }, () =>
      Bun.spawn([process.execPath, worker, keys], { stdout: "pipe", stderr: "inherit" }),
    );
    const out = await Promise.all(runs.map((c) => new Response(c.stdout).text()));
    expect(new Set(out.map((o) => o.trim())).size).toBe(1);
    expect(out[0]?.trim()).toBe(createArgsDigest({ keys })("ls"));
  });

  test("the signing key is made once, 0600, and only its public half is ever handed out", () => {
    using dir = tempDir("memnox-keys");
    const keys = dir.join("keys");
    expect(machinePublicKey({ keys })).toBeUndefined();
    const signer = machineSigner({ keys });
    expect(statSync(join(keys, SIGNING_KEY_FILE)).mode & 0o777).toBe(0o600);
    expect(machinePublicKey({ keys })).toBe(signer.publicKey);
    const msg = new TextEncoder().encode("hello");
    expect(verifySignature(msg, signer.sign(msg), signer.publicKey)).toBe(true);
    expect(verifySignature(new TextEncoder().encode("hellp"), signer.sign(msg), signer.publicKey)).toBe(false);
    expect(signer.publicKeyPem).toStartWith("-----BEGIN PUBLIC KEY-----\n");
  });
});
