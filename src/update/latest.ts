// The latest release, from release.json at the base: offline or unreachable is an answer, not an exception.
import { INDEX_FILE, parseReleaseIndex, type ReleaseIndex } from "./release-index.ts";

export type Fetch = (url: string, init: { signal: AbortSignal }) => Promise<Response>;

type Latest =
  | { readonly reached: true; readonly url: string; readonly index: ReleaseIndex }
  | { readonly reached: false; readonly url: string; readonly reason: string };

const TIMEOUT_MS = 20_000;

export async function latestRelease(base: string, fetchFn: Fetch): Promise<Latest> {
  const url = `${base}/${INDEX_FILE}`;
  let res: Response;
  try {
    res = await fetchFn(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  } catch (e) {
    return { reached: false, url, reason: (e as Error).message.toLowerCase() };
  }
  if (!res.ok) return { reached: false, url, reason: `it answered ${res.status} ${res.statusText}`.trim() };
  return { reached: true, url, index: parseReleaseIndex(url, await res.text()) };
}

/** A download that must match what release.json says of it, byte for byte. */
export async function fetchVerified(url: string, sha256: string, fetchFn: Fetch): Promise<Uint8Array> {
  const res = await fetchFn(url, { signal: AbortSignal.timeout(TIMEOUT_MS) });
  if (!res.ok) throw new Error(`${url} answered ${res.status}`);
  const bytes = new Uint8Array(await res.arrayBuffer());
  const got = new Bun.CryptoHasher("sha256").update(bytes).digest("hex");
  if (got !== sha256) throw new Error(`${url} does not match release.json (sha256 ${got}, expected ${sha256})`);
  return bytes;
}
