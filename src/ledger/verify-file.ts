// `memnox verify --file F`: an exported jsonl, json or bundle checked row by row, and a bundle's digest and signature.
import { readFileSync } from "node:fs";
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { canonical, sha256Hex } from "./canonical.ts";
import { BUNDLE_FORMAT, EVENTS_FORMAT, UNSIGNED_HEADER_FIELDS } from "./read/export.ts";
import { verifySignature } from "./sign.ts";
import { type ChainReport, verifyObjects } from "./verify.ts";

type Row = Record<string, unknown>;

export interface FileReport {
  readonly file: string;
  readonly format: "bundle" | "json" | "jsonl";
  readonly chain: ChainReport;
  /** Bundles only: the header's signature over its statement, and the body against its digest. */
  readonly signature: "valid" | "invalid" | null;
  readonly bodyDigest: "matches" | "differs" | null;
  readonly publicKey: string | null;
  readonly signedByThisMachine: boolean | null;
  readonly problems: readonly string[];
  readonly ok: boolean;
}

export function verifyFile(file: string, thisMachineKey?: string): FileReport {
  let text: string;
  try {
    text = readFileSync(file, "utf8");
  } catch (e) {
    throw new MemnoxError("io", `could not read \`${file}\`: ${(e as Error).message}`);
  }
  const bundle = splitBundle(text);
  if (bundle) return checkBundle(file, bundle.header, bundle.body, thisMachineKey);
  const whole = tryJson(text);
  if (isRecord(whole) && whole.format === EVENTS_FORMAT && Array.isArray(whole.events)) {
    const filtered = isRecord(whole.filters) && Object.values(whole.filters).some((v) => v !== null);
    return report(file, "json", walk(whole.events as Row[], filtered), [], null);
  }
  const rows = parseLines(file, text);
  return report(file, "jsonl", walk(rows, true), [], null);
}

function checkBundle(file: string, header: Row, body: string, thisMachineKey?: string): FileReport {
  const problems: string[] = [];
  const statement: Row = { ...header };
  for (const k of UNSIGNED_HEADER_FIELDS) delete statement[k];
  const sig = typeof header.signature === "string" ? header.signature : "";
  const pub = typeof header.publicKey === "string" ? header.publicKey : "";
  const signature = verifySignature(new TextEncoder().encode(canonical(statement)), sig, pub) ? "valid" : "invalid";
  if (signature === "invalid") problems.push("the header's signature does not verify with the key it names");
  const digest = header.bodyDigest === `sha256:${sha256Hex(body)}` ? "matches" : "differs";
  if (digest === "differs") problems.push("the body does not match the digest in the header");
  const rows = parseLines(file, body);
  if (header.count !== rows.length)
    problems.push(`the header counts ${header.count} events, the body holds ${rows.length}`);
  const filtered = isRecord(header.filters) && Object.values(header.filters).some((v) => v !== null);
  const chain = walk(rows, filtered);
  return report(file, "bundle", chain, problems, {
    signature,
    bodyDigest: digest,
    publicKey: pub || null,
    signedByThisMachine: thisMachineKey === undefined ? null : thisMachineKey === pub,
  });
}

function report(
  file: string,
  format: FileReport["format"],
  chain: ChainReport,
  problems: string[],
  signed: Pick<FileReport, "signature" | "bodyDigest" | "publicKey" | "signedByThisMachine"> | null,
): FileReport {
  const s = signed ?? { signature: null, bodyDigest: null, publicKey: null, signedByThisMachine: null };
  return { file, format, chain, ...s, problems, ok: chain.chain === "intact" && problems.length === 0 };
}

function walk(rows: readonly Row[], gapsAllowed: boolean): ChainReport {
  const anchors = rows.filter((r) => r.kind === "anchor");
  return verifyObjects(rows, { source: "export", anchors, gapsAllowed });
}

/** A bundle is a JSON header naming its format, a blank line, then the body. */
function splitBundle(text: string): { header: Row; body: string } | undefined {
  const cut = text.indexOf("\n\n");
  if (cut < 0 || !text.startsWith("{")) return undefined;
  const header = tryJson(text.slice(0, cut));
  if (!isRecord(header) || header.format !== BUNDLE_FORMAT) return undefined;
  return { header, body: text.slice(cut + 2) };
}

function parseLines(file: string, text: string): Row[] {
  const rows: Row[] = [];
  const lines = text.split("\n");
  for (const [i, line] of lines.entries()) {
    if (line.trim() === "") continue;
    const v = tryJson(line);
    if (!isRecord(v))
      throw new MemnoxError("usage", `\`${file}\` line ${i + 1} is not a JSON event`, "is it a memnox export?");
    rows.push(v);
  }
  return rows;
}

function tryJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
