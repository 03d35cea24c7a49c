// A container given a folder of this machine (`docker run -v ~/.ssh:/k`, `--mount source=~`) reads all of it, as
// `docker cp` does what it copies: those are reads of everything under the folder, before the container's verb.
import type { Arg, Call } from "../call.ts";
import { emitRead, pathOf, subtree } from "./fs-emit.ts";

/** The host side of a bind mount: `SRC:DST[:opts]` of -v, or `source=`/`src=` of --mount (named volumes skipped). */
function mountSource(value: string, long: boolean): string | undefined {
  if (long) {
    const m = /(?:^|,)(?:source|src)=([^,]+)/.exec(value);
    return m?.[1];
  }
  const src = value.split(":")[0] ?? "";
  return src.startsWith("/") || src.startsWith("~") || src.startsWith(".") ? src : undefined;
}

/** Reads of every folder a docker or podman command mounts or copies from; the verb itself is the table's. */
export function containerReads(call: Call, args: readonly Arg[]): void {
  const sources: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    const m = /^(-v|--volume|--mount)(=(.*))?$/.exec(t);
    if (!m) continue;
    const value = m[3] ?? args[++i]?.text ?? "";
    const src = mountSource(value, m[1] === "--mount");
    if (src) sources.push(src);
  }
  if (args[0]?.text === "cp" && args.length >= 3) {
    const from = args.slice(1).find((a) => !a.text.startsWith("-"));
    if (from && !/^[\w.-]+:/.test(from.text)) sources.push(from.text);
  }
  const targets = sources.map((s) => subtree(pathOf(call, { text: s, static: true, glob: false })));
  emitRead(call, targets);
}
