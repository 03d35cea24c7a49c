// `timeline --export jsonl|json|bundle`: the rows themselves, the range, what was left out; a bundle is signed.
import { maskDeep } from "../../core/secrets.ts";
import { canonical, sha256Hex } from "../canonical.ts";
import type { LedgerRow } from "../row.ts";
import type { Signer } from "../sign.ts";
import type { Ledger } from "../store.ts";
import { type ChainReport, verifyObjects } from "../verify.ts";
import { joinEntries } from "./entries.ts";
import { matches, type TimelineQuery } from "./timeline.ts";
import { childrenOf, rowsIn } from "./window.ts";

export const EXPORT_FORMATS = ["jsonl", "json", "bundle"] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const BUNDLE_FORMAT = "memnox.bundle/1";
export const EVENTS_FORMAT = "memnox.events/1";
/** Header fields outside the signed bytes: the signature and the key that checks it. */
export const UNSIGNED_HEADER_FIELDS = ["signature", "publicKey", "publicKeyPem"] as const;

export interface ExportSet {
  readonly rows: readonly LedgerRow[];
  readonly range: { from: string | null; to: string | null; firstSeq: number | null; lastSeq: number | null };
  readonly filters: { agent: string | null; session: string | null; only: string | null };
  readonly excluded: readonly string[];
  readonly chain: ChainReport;
}

/** The rows of the window and filters, each decision with its outcome and answer rows, in chain order. */
export function collectExport(ledger: Ledger, q: TimelineQuery): ExportSet {
  const rows = rowsIn(ledger, q.window);
  const filtered = q.agent !== undefined || q.session !== undefined || q.only !== undefined;
  let chosen: LedgerRow[] = rows;
  if (filtered) {
    const late = q.window.until
      ? childrenOf(
          ledger,
          rows.filter((r) => r.kind === "decision").map((r) => r.id),
        )
      : [];
    const bySeq = new Map<number, LedgerRow>();
    for (const e of joinEntries(rows, late).filter((x) => matches(x, q)))
      for (const r of [e.row, e.answer, e.outcome]) if (r) bySeq.set(r.seq, r);
    chosen = [...bySeq.values()].sort((a, b) => a.seq - b.seq);
  }
  // Rows are masked when written; one written before that is masked here, and then no longer matches its hash.
  let unmasked = 0;
  chosen = chosen.map((r) => {
    if (r.kind === "anchor") return r;
    const m = maskDeep(r);
    if (canonical(m) === canonical(r)) return r;
    unmasked += 1;
    return m;
  });
  const anchors = chosen.filter((r) => r.kind === "anchor");
  const chain = verifyObjects(chosen, { source: "export", anchors, gapsAllowed: filtered });
  const first = chosen[0];
  const last = chosen.at(-1);
  const times = chosen.map((r) => r.occurredAt).sort();
  return {
    rows: chosen,
    range: {
      from: q.window.since ?? times[0] ?? null,
      to: q.window.until ?? times.at(-1) ?? null,
      firstSeq: first?.seq ?? null,
      lastSeq: last?.seq ?? null,
    },
    filters: { agent: q.agent ?? null, session: q.session ?? null, only: q.only ?? null },
    excluded: [
      // Whether rows were purged is the ledger's first row, not the first a filter kept.
      ...exclusions(q, rows[0]),
      ...(unmasked > 0
        ? [`credentials: ${unmasked} row(s) recorded one and have it masked here, so they no longer match their hash`]
        : []),
    ],
    chain,
  };
}

function exclusions(q: TimelineQuery, first: LedgerRow | undefined): string[] {
  const out = [
    "arguments: only a keyed digest (argsDigest) is recorded, never the arguments",
    "transcripts: what agents printed stays on this machine",
    "rule-set sources: kept on this machine, named by policyHash",
  ];
  if (q.window.since) out.push(`rows before ${q.window.since}`);
  if (q.window.until) out.push(`rows from ${q.window.until} on`);
  if (!q.window.since && first && first.seq > 1)
    out.push(`rows 1..${first.seq - 1}: purged past retention (the chain is anchored on row ${first.seq})`);
  if (q.agent !== undefined) out.push(`actions of agents other than ${q.agent}`);
  if (q.session !== undefined) out.push(`actions of sessions other than ${q.session}`);
  if (q.only !== undefined) out.push(`actions other than ${q.only}, and rows that are not actions`);
  return out;
}

/** One row per line, in the canonical form its hash was computed over (plus the hash). */
function jsonlBody(rows: readonly LedgerRow[]): string {
  return rows.map((r) => `${canonical(r)}\n`).join("");
}

export function renderExport(format: ExportFormat, set: ExportSet, createdAt: string, signer?: Signer): string {
  if (format === "jsonl") return jsonlBody(set.rows);
  const meta = {
    range: set.range,
    count: set.rows.length,
    filters: set.filters,
    excluded: set.excluded,
    chain: chainSummary(set.chain),
    createdAt,
  };
  if (format === "json") return `${JSON.stringify({ format: EVENTS_FORMAT, ...meta, events: set.rows }, null, 2)}\n`;
  if (!signer) throw new Error("a bundle needs a signer");
  const body = jsonlBody(set.rows);
  const statement = {
    format: BUNDLE_FORMAT,
    ...meta,
    bodyDigest: `sha256:${sha256Hex(body)}`,
    signedBytes: `canonical JSON (keys sorted, no spaces; jq -cjS) of this header without ${UNSIGNED_HEADER_FIELDS.join(", ")}`,
  };
  const header = {
    ...statement,
    signature: signer.sign(new TextEncoder().encode(canonical(statement))),
    publicKey: signer.publicKey,
    publicKeyPem: signer.publicKeyPem,
  };
  return `${JSON.stringify(header, null, 2)}\n\n${body}`;
}

function chainSummary(c: ChainReport): Record<string, unknown> {
  return { status: c.chain, rows: c.rows, anchoredOn: c.anchoredOn, gaps: c.gaps, broken: c.broken };
}
