// ~/.memnox/app/install.json: how the copy in ~/.memnox/app got there, so `memnox update` upgrades it the same way.
// install.sh writes `script` receipts; setup, when it copies a binary from elsewhere (npm, npx), writes `copy`.
import { dirname, join } from "node:path";
import * as v from "valibot";
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import type { Paths } from "../ports/paths.ts";

const Text = v.pipe(v.string(), v.minLength(1, "is empty"));

const ReceiptSchema = v.variant("method", [
  v.object({
    method: v.literal("script"),
    version: Text,
    target: Text,
    prefix: Text,
    /** Only when MEMNOX_INSTALL_BASE was set; otherwise the GitHub releases. */
    base: v.optional(Text),
  }),
  v.object({
    method: v.literal("copy"),
    version: Text,
    /** The binary the copy was taken from, whose path says which package manager owns it. */
    source: Text,
  }),
]);

export type InstallReceipt = v.InferOutput<typeof ReceiptSchema>;

export function receiptPath(paths: Pick<Paths, "app">): string {
  return join(dirname(paths.app), "install.json");
}

/** The receipt, or undefined when there is none; a receipt that is not one is an error naming the file and field. */
export function readReceipt(paths: Pick<Paths, "app">): InstallReceipt | undefined {
  const file = receiptPath(paths);
  const data = readJsonIfExists(file);
  if (data === undefined) return undefined;
  const res = v.safeParse(ReceiptSchema, data, { abortEarly: true });
  if (res.success) return res.output;
  const issue = res.issues[0];
  const where = (issue.path ?? []).map((p) => String(p.key)).join(".") || "method";
  throw new MemnoxError(
    "io",
    `\`${file}\` is not an install receipt: \`${where}\` ${issue.message}`,
    "move it aside; memnox update then prints the upgrade command instead of running it",
  );
}

/** For setup: record that ~/.memnox/app/memnox is a copy of `source` (an npm, pnpm or npx install). */
export function writeCopyReceipt(paths: Pick<Paths, "app">, version: string, source: string): void {
  writeJsonAtomic(receiptPath(paths), { method: "copy", version, source } satisfies InstallReceipt);
}
