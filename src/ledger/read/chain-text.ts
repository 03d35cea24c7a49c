// The chain verdict in words: intact and where it is anchored, or where it broke and why.

import type { ChainReport } from "../verify.ts";
import type { FileReport } from "../verify-file.ts";
import { clock } from "./format.ts";

export function chainLines(c: ChainReport): string[] {
  if (c.chain === "broken" && c.broken)
    return [`broken at row ${c.broken.seq} (${c.broken.id}): ${c.broken.reason}`, `${c.rows} row(s) before it verify`];
  if (c.rows === 0) return ["intact: the ledger is empty"];
  const lines = [`intact: ${c.rows} row(s), ${c.firstSeq}..${c.lastSeq}, tip ${c.tipHash?.slice(0, 16)}`];
  const a = c.anchoredOn;
  if (a.kind === "genesis") lines.push("anchored on the first row ever written");
  if (a.kind === "anchor") {
    const who =
      a.signedByThisMachine === null
        ? ""
        : a.signedByThisMachine
          ? ", signed by this machine"
          : ", signed by another key";
    lines.push(
      `anchored on row ${a.seq}: rows up to ${a.droppedThroughSeq} were purged ${clock(a.purgedAt)} (older than ${clock(a.cutoff)}), anchor ${a.anchorId}${who}`,
    );
  }
  if (a.kind === "range") lines.push(`starts at row ${a.seq}, linked to ${a.prevHash.slice(0, 16)} before this range`);
  if (c.gaps > 0) lines.push(`${c.gaps} gap(s) where this file skips rows (a filtered export), links there unchecked`);
  return lines;
}

export function fileLines(r: FileReport): string[] {
  const lines = [`${r.file} (${r.format})`, ...chainLines(r.chain)];
  if (r.signature) lines.push(`signature ${r.signature}${r.signedByThisMachine ? " (this machine's key)" : ""}`);
  if (r.bodyDigest)
    lines.push(`body ${r.bodyDigest === "matches" ? "matches its digest" : "DOES NOT match its digest"}`);
  for (const p of r.problems) lines.push(`problem: ${p}`);
  return lines;
}
