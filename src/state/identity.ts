// Who a person at this machine is, for the record: the OS account, never a name the caller supplies.
import { userInfo } from "node:os";
import type { Env } from "../ports/index.ts";

export function personName(env: Env): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER || env.LOGNAME || "unknown";
  }
}
