// The keyed digest of a call's arguments: comparable on this machine, unguessable anywhere else, never the arguments.
import { hmacSha256Hex } from "../io/hash.ts";
import type { Paths } from "../ports/paths.ts";
import { ARGS_KEY_FILE, machineKey } from "./keys.ts";

type ArgsDigest = (raw: string) => string;

/** HMAC-SHA-256 of `raw` under this machine's key (read or made on first call), as 64 hex characters. */
export function createArgsDigest(paths: Pick<Paths, "keys">): ArgsDigest {
  let key: Uint8Array | undefined;
  return (raw) => {
    key ??= machineKey(paths, ARGS_KEY_FILE);
    return hmacSha256Hex(key, raw);
  };
}

/** The digest where the key may be unreadable (inside a kernel wall): empty then, and the daemon keys the arguments. */
export function tolerantDigest(digest: ArgsDigest): ArgsDigest {
  let unreadable = false;
  return (raw) => {
    if (unreadable) return "";
    try {
      return digest(raw);
    } catch {
      unreadable = true;
      return "";
    }
  };
}
