// The computed counterfactual: what a credential a refused read aimed at would have opened, from the last scan's
// reach already on disk (its label, the CLI it authenticates and that CLI's verbs). Nothing beyond that is claimed.
import { readFileSync, statSync } from "node:fs";

import { isRecord } from "../../core/record.ts";

interface ScanCredential {
  readonly path: string;
  readonly label: string;
  readonly facts: Readonly<Record<string, number | boolean>>;
  readonly cli?: string;
}

interface ScanCli {
  readonly cli: string;
  readonly credential: string;
  readonly verbs: Readonly<Record<string, number>>;
  readonly outside: number;
}

interface Reachable {
  readonly at: string;
  readonly credentials: readonly ScanCredential[];
  readonly clis: readonly ScanCli[];
}

function parse(raw: unknown): Reachable | undefined {
  if (!isRecord(raw) || !Array.isArray(raw.credentials)) return undefined;
  const credentials = raw.credentials.filter(
    (c): c is ScanCredential => isRecord(c) && typeof c.path === "string" && typeof c.label === "string",
  );
  const clis = (Array.isArray(raw.clis) ? raw.clis : []).filter(
    (c): c is ScanCli => isRecord(c) && typeof c.cli === "string" && typeof c.credential === "string",
  );
  return { at: typeof raw.scannedAt === "string" ? raw.scannedAt : "", credentials, clis };
}

/** One cached read of the scan file per process, again only when it changed. */
export function scanReach(file: string): (path: string) => string | undefined {
  let seen: { mtimeMs: number; value: Reachable | undefined } | undefined;
  const load = (): Reachable | undefined => {
    try {
      const mtimeMs = statSync(file).mtimeMs;
      if (seen?.mtimeMs !== mtimeMs) seen = { mtimeMs, value: parse(JSON.parse(readFileSync(file, "utf8"))) };
      return seen.value;
    } catch {
      return undefined;
    }
  };
  return (path) => {
    const scan = load();
    const c = scan?.credentials.find((x) => x.path === path);
    return scan && c ? reachWords(c, scan) : undefined;
  };
}

function reachWords(c: ScanCredential, scan: Reachable): string {
  const facts = Object.entries(c.facts ?? {})
    .map(([k, v]) => (typeof v === "boolean" ? (v ? k : `no ${k}`) : `${v} ${k}`))
    .join(", ");
  const cli = scan.clis.find((x) => x.credential === c.path);
  const verbs = cli
    ? `; it authenticates ${cli.cli}, whose verb table has ${cli.outside} verb(s) that act off this machine, ${cli.verbs.write ?? 0} that write and ${cli.verbs.destructive ?? 0} destructive`
    : c.cli
      ? `; it authenticates ${c.cli}`
      : "";
  const when = scan.at ? ` (the scan of ${scan.at.slice(0, 10)})` : "";
  return `${c.label}${facts ? ` (${facts})` : ""}${verbs}${when}`;
}
