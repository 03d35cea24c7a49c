// citty hands a flag it does not know through to the command; memnox refuses it, naming the command.
import { MemnoxError } from "../../../core/errors.ts";

const camel = (s: string) => s.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());

/** Throws a usage error for the first flag in `args` that `defined` does not declare (citty adds camelCase twins). */
export function refuseUnknownFlags(args: Record<string, unknown>, defined: object, where: string): void {
  const known = new Set(Object.keys(defined).flatMap((k) => [k, camel(k)]));
  const extra = Object.keys(args).find((k) => k !== "_" && !known.has(k));
  if (extra !== undefined) throw new MemnoxError("usage", `unknown flag \`--${extra}\` for memnox ${where}`);
}
