// How commands print: JSON is the contract, the human wording is not.
import type { Context } from "../../ports/context.ts";

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
