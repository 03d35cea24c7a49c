// Who a person at this machine is, for the record and for a rule's `approvers`: the OS account that runs memnox
// (its user name and the Unix groups it is in), read from the system by the process's uid, never a name the caller
// supplies: USER and LOGNAME are the caller's to set, and Bun's os.userInfo().username is read from USER.
import { readFileSync } from "node:fs";
import type { Env } from "../ports/index.ts";

export function personName(env: Env, passwdFile = "/etc/passwd"): string {
  const uid = process.getuid?.();
  // No uids here (Windows): the environment is all there is.
  if (uid === undefined) return env.USERNAME || env.USER || "unknown";
  return passwdName(passwdFile, uid) ?? idName() ?? `uid ${uid}`;
}

function passwdName(file: string, uid: number): string | undefined {
  try {
    for (const line of readFileSync(file, "utf8").split("\n")) {
      const [name, , id] = line.split(":");
      if (name && id !== undefined && Number(id) === uid) return name;
    }
  } catch {
    // no passwd file: ask the system below
  }
  return undefined;
}

/** An account only a directory service knows (macOS, LDAP): the system's own `id`, by absolute path, not PATH's. */
function idName(): string | undefined {
  try {
    // Loaded here, not at the top: the bundle hoists a builtin import into every face's start.
    const { execFileSync } = require("node:child_process") as typeof import("node:child_process");
    const out = execFileSync("/usr/bin/id", ["-un"], { encoding: "utf8", timeout: 2000 }).trim();
    return out || undefined;
  } catch {
    return undefined;
  }
}

interface Person {
  readonly name: string;
  /** The Unix groups the account is in, by name (from /etc/group: groups only a directory service knows are not seen). */
  readonly groups: readonly string[];
}

export function localPerson(env: Env, groupFile = "/etc/group"): Person {
  const name = personName(env);
  let gids: number[] = [];
  try {
    gids = [process.getegid?.() ?? -1, ...(process.getgroups?.() ?? [])];
  } catch {
    // no group ids on this platform: the name alone
  }
  const groups = new Set<string>();
  try {
    for (const line of readFileSync(groupFile, "utf8").split("\n")) {
      const [group, , gid, members] = line.split(":");
      if (!group || gid === undefined) continue;
      if (gids.includes(Number(gid)) || (members ?? "").split(",").includes(name)) groups.add(group);
    }
  } catch {
    // no group file: the name alone
  }
  return { name, groups: [...groups] };
}

/** Whether this person may answer a hold naming `approvers` (none named: anyone at this machine may). */
export function mayAnswer(p: Person, approvers: readonly string[]): boolean {
  return approvers.length === 0 || approvers.includes(p.name) || p.groups.some((g) => approvers.includes(g));
}
