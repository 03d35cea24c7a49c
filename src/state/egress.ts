// egress.json: where the daemon's proxy listens, so `memnox run` and `memnox env` point an agent at it.
import { rmSync } from "node:fs";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import type { Paths } from "../ports/paths.ts";

interface EgressRecord {
  readonly host: string;
  readonly port: number;
  readonly pid: number;
  readonly startedAt: string;
}

export function writeEgress(paths: Pick<Paths, "egress">, record: EgressRecord): void {
  writeJsonAtomic(paths.egress, record);
}

export function readEgress(paths: Pick<Paths, "egress">): EgressRecord | undefined {
  try {
    const raw = readJsonIfExists(paths.egress) as Partial<EgressRecord> | undefined;
    if (!raw || typeof raw.host !== "string" || typeof raw.port !== "number" || typeof raw.pid !== "number")
      return undefined;
    return { host: raw.host, port: raw.port, pid: raw.pid, startedAt: String(raw.startedAt ?? "") };
  } catch {
    return undefined;
  }
}

/** Only the daemon that wrote it takes it away, so a second one starting and failing leaves the first's record. */
export function removeEgress(paths: Pick<Paths, "egress">, pid: number): void {
  if (readEgress(paths)?.pid === pid) rmSync(paths.egress, { force: true });
}

/** The proxy address an agent is given; no credentials in it, since some clients (Claude Code) stall on them. */
export function proxyUrl(address: { readonly host: string; readonly port: number }): string {
  return `http://${address.host}:${address.port}`;
}

/** What the proxy cannot see, in the words `memnox run` and `memnox doctor --wiring` print. */
const EGRESS_BLIND_SPOTS: readonly string[] = [
  "anything that ignores HTTP_PROXY/HTTPS_PROXY/ALL_PROXY, or a host listed in NO_PROXY",
  "an agent started from the desktop or a dock icon, unless its own settings name the proxy",
  "the path, headers and body of an HTTPS request: only the destination host is known",
  "which agent sent a request, beyond the session its proxy address declares (a `memnox run` gets a port of its own)",
];

export function egressBlindSpotsLine(): string {
  return `the egress proxy cannot see: ${EGRESS_BLIND_SPOTS.join("; ")}`;
}
