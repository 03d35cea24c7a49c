// Ed25519 signatures by this machine's ledger key; the public half travels so anyone can check without memnox.

import { join } from "node:path";
import * as ed from "@noble/ed25519";
import { sha512 } from "@noble/hashes/sha2.js";
import type { Paths } from "../ports/paths.ts";
import { machineKey, readKey, SIGNING_KEY_FILE } from "./keys.ts";

ed.hashes.sha512 = sha512;

/** The SPKI DER prefix of an Ed25519 public key (RFC 8410), so a PEM can be written without a library. */
const SPKI_PREFIX = Buffer.from("302a300506032b6570032100", "hex");

export interface Signer {
  /** Raw 32-byte public key, base64. */
  readonly publicKey: string;
  /** The same key as an SPKI PEM, for openssl and node:crypto. */
  readonly publicKeyPem: string;
  /** Ed25519 signature over the bytes, base64. */
  sign(message: Uint8Array): string;
}

export function machineSigner(paths: Pick<Paths, "keys">): Signer {
  const secret = machineKey(paths, SIGNING_KEY_FILE);
  const pub = ed.getPublicKey(secret);
  return {
    publicKey: Buffer.from(pub).toString("base64"),
    publicKeyPem: publicKeyPem(pub),
    sign: (message) => Buffer.from(ed.sign(message, secret)).toString("base64"),
  };
}

/** A fresh Ed25519 key: 32 random secret bytes, and the public half (base64) that may travel. */
export function newKeyPair(): { readonly secret: Uint8Array; readonly publicKey: string } {
  const secret = ed.utils.randomSecretKey();
  return { secret, publicKey: Buffer.from(ed.getPublicKey(secret)).toString("base64") };
}

/** Ed25519 signature by `secret` over the bytes, base64. */
export function signWith(secret: Uint8Array, message: Uint8Array): string {
  return Buffer.from(ed.sign(message, secret)).toString("base64");
}

/** This machine's public key if one was ever made; reading never creates a key. */
export function machinePublicKey(paths: Pick<Paths, "keys">): string | undefined {
  const secret = readKey(join(paths.keys, SIGNING_KEY_FILE));
  return secret ? Buffer.from(ed.getPublicKey(secret)).toString("base64") : undefined;
}

export function publicKeyPem(raw: Uint8Array): string {
  const der = Buffer.concat([SPKI_PREFIX, Buffer.from(raw)]).toString("base64");
  return `-----BEGIN PUBLIC KEY-----\n${der}\n-----END PUBLIC KEY-----\n`;
}

/** False for a malformed key or signature as well as a wrong one. */
export function verifySignature(message: Uint8Array, signatureB64: string, publicKeyB64: string): boolean {
  try {
    const sig = new Uint8Array(Buffer.from(signatureB64, "base64"));
    const pub = new Uint8Array(Buffer.from(publicKeyB64, "base64"));
    if (sig.length !== 64 || pub.length !== 32) return false;
    return ed.verify(sig, message, pub);
  } catch {
    return false;
  }
}
