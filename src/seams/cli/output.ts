// How commands print: JSON is the contract, the human wording is not.
import { maskSecrets, secretValues } from "../../core/secrets.ts";
import type { Context } from "../../ports/context.ts";
import type { Stdio } from "../../ports/index.ts";

/**
 * The CLI's own stdio with every credential masked: no reader or report prints one, whatever a row holds, and a
 * credential in the command's own arguments (`memnox check '<line>'`) is masked wherever the output repeats it.
 */
export function maskedStdio(io: Stdio, args: readonly string[]): Stdio {
  const opts = { known: secretValues(args.join(" ")) };
  return {
    get stdinIsTTY() {
      return io.stdinIsTTY;
    },
    get stdoutIsTTY() {
      return io.stdoutIsTTY;
    },
    get stderrIsTTY() {
      return io.stderrIsTTY;
    },
    out: (text) => io.out(maskSecrets(text, opts)),
    err: (text) => io.err(maskSecrets(text, opts)),
    readAll: () => io.readAll(),
    columns: () => io.columns?.(),
  };
}

export function printJson(ctx: Context, value: unknown): void {
  ctx.io.out(`${JSON.stringify(value, null, 2)}\n`);
}

export function printLines(ctx: Context, lines: readonly string[]): void {
  if (lines.length > 0) ctx.io.out(`${lines.join("\n")}\n`);
}

/** Print `value` as JSON when asked, else the human form. */
export function emit(ctx: Context, json: boolean | undefined, value: unknown, human: () => readonly string[]): void {
  if (json) printJson(ctx, value);
  else printLines(ctx, human());
}

export function pad(s: string, width: number): string {
  return s.length >= width ? s : s + " ".repeat(width - s.length);
}
