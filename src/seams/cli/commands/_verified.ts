// One recorded row printed, with `--verify`'s replay of it under its own rule set when asked (why, trace).

import type { Reevaluate } from "../../../ledger/reevaluate.ts";
import { reproduce, reproductionLines } from "../../../ledger/reproduce.ts";
import type { LedgerRow } from "../../../ledger/row.ts";
import type { Ledger } from "../../../ledger/store.ts";
import type { Context } from "../../../ports/context.ts";
import { emit } from "../output.ts";

/** The two flags every such report takes. */
export const VERIFY_ARGS = {
  verify: { type: "boolean", description: "replay the row with its own rule set and say whether it reproduces" },
  json: { type: "boolean", description: "structured output" },
} as const;

/** Prints the report (its JSON gains `verify`); exit 1 when the replay was asked for and the row does not reproduce. */
export async function emitVerified(
  ctx: Context,
  args: { readonly verify?: boolean | undefined; readonly json?: boolean | undefined },
  at: { readonly ledger: Ledger; readonly row: LedgerRow; readonly evaluate: Reevaluate },
  value: Readonly<Record<string, unknown>>,
  lines: () => readonly string[],
): Promise<number> {
  const check = args.verify ? await reproduce(at.ledger, at.row, at.evaluate) : undefined;
  emit(ctx, args.json, { ...value, verify: check ?? null }, () => [
    ...lines(),
    ...(check ? reproductionLines(check) : []),
  ]);
  return check && !check.reproduces ? 1 : 0;
}
