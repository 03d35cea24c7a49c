// What a decision row keeps for the notice layer: the keys of what the call did, what it took, and the firsts only
// noticed while the history warms up. The ledger's notice index is built from exactly these fields.
import { SEEN_FIELD, TAKEN_FIELD } from "../../ledger/notices.ts";
import type { Noticed } from "./gather.ts";

export function noticeDetail(n: Noticed): Record<string, string> {
  return {
    ...(n.seen.length > 0 ? { [SEEN_FIELD]: n.seen.join("\n") } : {}),
    ...(n.taken ? { [TAKEN_FIELD]: n.taken } : {}),
    ...(n.noted.length > 0 ? { notice: `noticed, not asked while the history warms up: ${n.noted.join("; ")}` } : {}),
  };
}
