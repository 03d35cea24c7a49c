// Ids and secrets the control plane hands out: random, prefixed by what they name; a secret is kept only as its hash.
import { hmacSha256Hex, sha256Hex } from "../io/hash.ts";

function random(bytes: number): Uint8Array {
  return crypto.getRandomValues(new Uint8Array(bytes));
}

export function newId(prefix: string): string {
  return `${prefix}_${Buffer.from(random(9)).toString("hex")}`;
}

/** A bearer token: `mnx_<kind>_` and 32 random bytes. Shown once; only tokenHash() of it is stored. */
export function newToken(kind: "person" | "operator" | "machine" | "agent"): string {
  return `mnx_${kind[0]}_${Buffer.from(random(32)).toString("base64url")}`;
}

/** Tokens and device codes are 256 random bits, so a plain SHA-256 is enough to make the stored form useless. */
export function secretHash(secret: string): string {
  return sha256Hex(`memnox-secret-v1\n${secret}`);
}

export function newDeviceCode(): string {
  return Buffer.from(random(32)).toString("base64url");
}

// RFC 8628 section 6.1: consonants only, so no code spells a word and none is misread.
const USER_CODE_ALPHABET = "BCDFGHJKLMNPQRSTVWXZ";

/** Eight letters as `XXXX-XXXX` (20^8 codes), approved only by somebody holding a token of the workspace. */
export function newUserCode(): string {
  const out: string[] = [];
  // 240 is the largest multiple of 20 below 256: rejecting above it keeps every letter equally likely.
  while (out.length < 8)
    for (const b of random(8)) if (b < 240 && out.length < 8) out.push(USER_CODE_ALPHABET[b % 20] ?? "");
  return `${out.slice(0, 4).join("")}-${out.slice(4).join("")}`;
}

/** What a person types, normalised: case and separators do not matter. */
export function normalUserCode(raw: string): string {
  const letters = raw.toUpperCase().replace(/[^A-Z]/g, "");
  return letters.length === 8 ? `${letters.slice(0, 4)}-${letters.slice(4)}` : letters;
}

/** The hostname as stored: keyed by the organization's salt, so a listing is no directory of where people work. */
export function hostnameHash(salt: string, hostname: string): string {
  return hmacSha256Hex(Buffer.from(salt, "hex"), `memnox-host-v1\n${hostname.toLowerCase()}`).slice(0, 32);
}

export function newSalt(): string {
  return Buffer.from(random(16)).toString("hex");
}

/** Compared in time that does not depend on where they first differ; empty text never matches. */
export function sameText(a: string, b: string): boolean {
  if (a.length !== b.length || a.length === 0) return false;
  let d = 0;
  for (let i = 0; i < a.length; i++) d |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return d === 0;
}
