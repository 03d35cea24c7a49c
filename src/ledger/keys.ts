// Keys generated on this machine on first use, stored 0600 under paths.keys, never printed, sent or exported.
import { chmodSync, linkSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import type { Paths } from "../ports/paths.ts";

export const ARGS_KEY_FILE = "args-hmac.key";
export const SIGNING_KEY_FILE = "ledger-ed25519.key";

/** 32 random bytes kept in `paths.keys/<name>`; the first process to create it wins and every other reads that one. */
export function machineKey(paths: Pick<Paths, "keys">, name: string): Uint8Array {
  const file = join(paths.keys, name);
  const existing = readKey(file);
  if (existing) return existing;
  mkdirSync(paths.keys, { recursive: true, mode: 0o700 });
  chmodSync(paths.keys, 0o700);
  const key = crypto.getRandomValues(new Uint8Array(32));
  const tmp = `${file}.tmp-${process.pid}-${toHex(crypto.getRandomValues(new Uint8Array(4)))}`;
  try {
    writeFileSync(tmp, `${toHex(key)}\n`, { mode: 0o600 });
    // link() fails if another process created the key first: then theirs is the key, never a second one.
    linkSync(tmp, file);
    return key;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EEXIST")
      throw new MemnoxError("io", `could not create the key \`${file}\`: ${(e as Error).message}`);
    const theirs = readKey(file);
    if (!theirs) throw new MemnoxError("io", `the key \`${file}\` is unreadable`, "move it aside and retry");
    return theirs;
  } finally {
    rmSync(tmp, { force: true });
  }
}

export function readKey(file: string): Uint8Array | undefined {
  let text: string;
  try {
    text = readFileSync(file, "utf8").trim();
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new MemnoxError("io", `could not read the key \`${file}\`: ${(e as Error).message}`);
  }
  if (!/^[0-9a-f]{64}$/.test(text))
    throw new MemnoxError("io", `the key \`${file}\` is not 32 bytes of hex`, "move it aside; a new one is made");
  return fromHex(text);
}

function toHex(bytes: Uint8Array): string {
  return Buffer.from(bytes).toString("hex");
}

function fromHex(hex: string): Uint8Array {
  return new Uint8Array(Buffer.from(hex, "hex"));
}
