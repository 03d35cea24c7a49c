// `memnox doctor --wiring` and `--prove`: is each seam actually in the path, and does it refuse when asked to.
// The setup work implements these (wiring-report.ts, prove.ts); the doctor command (the scan work) prints them.
import type { Context } from "../ports/context.ts";
import type { ProofLine, WiringLine } from "./wiring-lines.ts";

export async function wiringReport(ctx: Context): Promise<readonly WiringLine[]> {
  const { wiringLines } = await import("./wiring-report.ts");
  return wiringLines(ctx);
}

export async function proveSeams(ctx: Context): Promise<readonly ProofLine[]> {
  const { proveAll } = await import("./prove.ts");
  return proveAll(ctx);
}
