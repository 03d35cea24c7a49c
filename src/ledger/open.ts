// The reading commands open the ledger only when one exists: reading never creates an empty database.
import { existsSync } from "node:fs";
import type { Context } from "../ports/context.ts";
import type { Ledger } from "./store.ts";
import { openLedger } from "./store.ts";
import { tipExists, tipFiles } from "./tip.ts";

/** Runs `fn` on the open ledger, or `none()` when nothing has been recorded on this machine yet. */
export function withLedger<T>(ctx: Context, fn: (ledger: Ledger) => T, none: () => T): T {
  if (!existsSync(ctx.paths.db)) return none();
  const ledger = openLedger(ctx.paths);
  try {
    return fn(ledger);
  } finally {
    ledger.close();
  }
}

export async function withLedgerAsync<T>(ctx: Context, fn: (ledger: Ledger) => Promise<T>, none: () => T): Promise<T> {
  if (!existsSync(ctx.paths.db)) return none();
  const ledger = openLedger(ctx.paths);
  try {
    return await fn(ledger);
  } finally {
    ledger.close();
  }
}

export function noLedgerLine(ctx: Context): string {
  if (tipExists(tipFiles(ctx.paths)))
    return `no ledger at ${ctx.paths.db}, though its tip kept outside the database says rows were recorded: it was removed (memnox verify)`;
  return `nothing recorded yet (no ledger at ${ctx.paths.db})`;
}
