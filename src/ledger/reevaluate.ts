// The port `--verify` replays a row through: the engine, wired at integration; until then it says it is not built.
import type { Effect } from "../core/effect.ts";
import { MemnoxError } from "../core/errors.ts";
import type { LedgerRow } from "./row.ts";
import type { RuleSetSources } from "./store.ts";

export interface Replayed {
  readonly effect: Effect;
  readonly ruleId?: string;
  readonly reason: string;
}

export type Reevaluate = (row: LedgerRow, ruleSet: RuleSetSources) => Promise<Replayed>;

export const reevaluate: Reevaluate = async () => {
  throw new MemnoxError(
    "not_built",
    "replaying a verdict needs the policy engine, which is not wired to the ledger yet",
    "memnox why without --verify reads the recorded verdict",
  );
};
