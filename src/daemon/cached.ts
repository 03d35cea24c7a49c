// The daemon's state readers: each file read once and kept until it changes on disk (src/io/stamp.ts).
import type { StateReaders } from "../gate/wiring.ts";
import { fileReaders } from "../gate/wiring.ts";
import { cachedFile } from "../io/stamp.ts";
import type { Paths } from "../ports/paths.ts";

export { cachedFile, stamp } from "../io/stamp.ts";

export function cachedReaders(paths: Paths): StateReaders {
  const direct = fileReaders(paths);
  return {
    // Already kept by its stamps and the seal's (fileReaders): a seal written alone is seen too.
    config: direct.config,
    overlays: cachedFile(paths.overlays, direct.overlays),
    probation: cachedFile(paths.probation, direct.probation),
    stop: cachedFile(paths.stop, direct.stop),
    orgConditions: cachedFile(paths.orgConditions, direct.orgConditions),
    syncMark: cachedFile(paths.sync, direct.syncMark),
    budgets: cachedFile(paths.budgets, direct.budgets),
  };
}
