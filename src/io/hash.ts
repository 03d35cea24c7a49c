// SHA-256 and HMAC-SHA-256 through Bun's native hasher: node:crypto drags Node's stream machinery into a hook's start.
export function sha256Hex(text: string | Uint8Array): string {
  // The one-shot form: a hasher object per call cost `verify` a third of its time.
  return Bun.SHA256.hash(text, "hex");
}

export function hmacSha256Hex(key: Uint8Array, text: string): string {
  return new Bun.CryptoHasher("sha256", key).update(text).digest("hex");
}
