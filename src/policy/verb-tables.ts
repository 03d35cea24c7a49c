// The verb tables the baseline is generated from. The resolver owns them (src/resolve); wired here at integration.
import { MemnoxError } from "../core/errors.ts";
import type { VerbTable } from "../resolve/types.ts";

export function verbTables(): readonly VerbTable[] {
  throw new MemnoxError(
    "not_built",
    "the verb tables are not built yet",
    "they arrive with the resolver (src/resolve)",
  );
}
