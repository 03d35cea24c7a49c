// The row a purge leaves in the chain: which prefix went, the last hash it had, signed by this machine's key.
import { canonical } from "./canonical.ts";
import type { Detail } from "./row.ts";
import { type Signer, verifySignature } from "./sign.ts";

export interface AnchorFacts {
  /** The last sequence number dropped; every row up to it is gone. */
  readonly throughSeq: number;
  readonly firstDroppedSeq: number;
  readonly droppedCount: number;
  /** Hash of row `throughSeq`: the first kept row's prevHash must equal it. */
  readonly lastDroppedHash: string;
  /** Rows older than this instant were past retention. */
  readonly cutoff: string;
}

/** The exact bytes an anchor's signature covers. */
function anchorMessage(f: AnchorFacts): Uint8Array {
  const facts = {
    throughSeq: f.throughSeq,
    firstDroppedSeq: f.firstDroppedSeq,
    droppedCount: f.droppedCount,
    lastDroppedHash: f.lastDroppedHash,
    cutoff: f.cutoff,
  };
  return new TextEncoder().encode(`memnox.anchor/1\n${canonical(facts)}`);
}

export function anchorDetail(f: AnchorFacts, signer: Signer): Detail {
  return { ...f, signature: signer.sign(anchorMessage(f)), publicKey: signer.publicKey };
}

/** The facts of an anchor row's detail, or undefined when it is not a well-formed anchor. */
export function anchorFacts(detail: unknown): (AnchorFacts & { signature: string; publicKey: string }) | undefined {
  if (!detail || typeof detail !== "object") return undefined;
  const d = detail as Record<string, unknown>;
  const nums = ["throughSeq", "firstDroppedSeq", "droppedCount"] as const;
  const strs = ["lastDroppedHash", "cutoff", "signature", "publicKey"] as const;
  if (nums.some((k) => typeof d[k] !== "number") || strs.some((k) => typeof d[k] !== "string")) return undefined;
  return d as unknown as AnchorFacts & { signature: string; publicKey: string };
}

export function anchorSignatureValid(f: AnchorFacts & { signature: string; publicKey: string }): boolean {
  return verifySignature(anchorMessage(f), f.signature, f.publicKey);
}
