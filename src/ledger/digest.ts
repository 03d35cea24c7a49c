// The keyed digest of a call's arguments: comparable on this machine, unguessable anywhere else, never the arguments.
import { hmac } from "@noble/hashes/hmac.js";
import { sha256 } from "@noble/hashes/sha2.js";
import type { Paths } from "../state/paths.ts";
import { ARGS_KEY_FILE, machineKey, toHex } from "./keys.ts";

export type ArgsDigest = (raw: string) => string;

/** HMAC-SHA-256 of `raw` under this machine's key (read or made on first call), as 64 hex characters. */
export function createArgsDigest(paths: Pick<Paths, "keys">): ArgsDigest {
  let key: Uint8Array | undefined;
  const encoder = new TextEncoder();
  return (raw) => {
    key ??= machineKey(paths, ARGS_KEY_FILE);
    return toHex(hmac(sha256, key, encoder.encode(raw)));
  };
}
