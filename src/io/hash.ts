// SHA-256 and HMAC-SHA-256 through Bun's native hasher: node:crypto drags Node's stream machinery into a hook's start.
export function sha256Hex(text: string | Uint8Array): string {
  return new Bun.CryptoHasher("sha256").update(text).digest("hex");
}

export function hmacSha256Hex(key: Uint8Array, text: string): string {
  return new Bun.CryptoHasher("sha256", key).update(text).digest("hex");
}
