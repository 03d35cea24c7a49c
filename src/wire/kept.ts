// kept.json (written by setup) says what the daemon keeps in place; `mcp wrap`/`unwrap` flip whether it wraps
// MCP servers installed later. Absent on a machine setup never reached, and then left absent.
import { MemnoxError } from "../core/errors.ts";
import { readJsonIfExists, withLock, writeJsonAtomic } from "../state/files.ts";

export const WRAP_NEW_SERVERS = "wrapNewMcpServers";

export type KeptUpdate = "updated" | "absent";

export function setWrapNewServers(keptFile: string, on: boolean): KeptUpdate {
  return withLock(keptFile, () => {
    const kept = readJsonIfExists(keptFile);
    if (kept === undefined) return "absent";
    if (typeof kept !== "object" || kept === null || Array.isArray(kept)) {
      throw new MemnoxError("config_invalid", `\`${keptFile}\` is not a JSON object`, "run `memnox setup` again");
    }
    writeJsonAtomic(keptFile, { ...kept, [WRAP_NEW_SERVERS]: on });
    return "updated";
  });
}
