// Who a person at this machine is, for the record: the OS account, never a name the caller supplies.
import type { Env } from "../ports/index.ts";

export function personName(env: Env): string {
  try {
    // Loaded here, not at the top: the bundle hoists a builtin import into every face's start.
    return (require("node:os") as typeof import("node:os")).userInfo().username;
  } catch {
    return env.USER || env.LOGNAME || "unknown";
  }
}
