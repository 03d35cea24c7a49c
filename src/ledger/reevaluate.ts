// The port `--verify` replays a row through; the gate implements it (src/gate/replay.ts) with the pure engine.
import type { Effect } from "../core/effect.ts";
import type { LedgerRow } from "./row.ts";
import type { RuleSetSources } from "./store.ts";

export interface Replayed {
  readonly effect: Effect;
  readonly ruleId?: string;
  readonly reason: string;
}

export type Reevaluate = (row: LedgerRow, ruleSet: RuleSetSources) => Promise<Replayed>;
