// What the machine's agent wall holds, read as data (its description, written by `protect --wall`): a shell command
// that runs inside it cannot read the unreadable or write the unwritable whatever its text says, so the gate need not
// ask about a target the line leaves open that could only be harmful there, and says plainly what the kernel refuses.
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../core/action.ts";
import type { Paths } from "../ports/paths.ts";
import type { Finding } from "./combine.ts";

export interface WallHolds {
  readonly unreadable: readonly string[];
  readonly unwritable: readonly string[];
}

const beneath = (p: string, root: string) => p === root || p.startsWith(root === "/" ? "/" : `${root}/`);

/** The agent wall's held paths, or undefined when none is written (or it cannot be read: nothing is assumed). */
export function readWallHolds(paths: Pick<Paths, "guard">): WallHolds | undefined {
  try {
    const raw: unknown = JSON.parse(readFileSync(join(paths.guard, "agent-wall.json"), "utf8"));
    const w = (raw as { wall?: { kind?: string; unreadable?: { path: string }[]; unwritable?: { path: string }[] } })
      .wall;
    if (w?.kind !== "agent" || !Array.isArray(w.unreadable) || !Array.isArray(w.unwritable)) return undefined;
    return { unreadable: w.unreadable.map((u) => u.path), unwritable: w.unwritable.map((u) => u.path) };
  } catch {
    return undefined;
  }
}

type Kind = "read" | "write";

function kindOf(action: Action): Kind | undefined {
  if (action.name === "filesystem.read") return "read";
  if (action.name === "filesystem.write" || action.name === "filesystem.delete") return "write";
  return undefined;
}

/** A segment that stands for any name: empty (a witness's unknown part) or a glob. */
const ANY = (seg: string) => seg === "" || /[*?[{]/.test(seg);

function list(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}

/**
 * Whether no command inside the wall can make or write `path`: it is beneath an unwritable place, or the first part
 * of it that is not there would have to be made in a folder above an unwritable place (which loses the right to make
 * entries); a part standing for any name is held when every name there now is, and no new one can be made.
 */
export function heldWrite(unwritable: readonly string[], path: string, depth = 0): boolean {
  if (unwritable.some((u) => beneath(path, u))) return true;
  const above = (dir: string) => unwritable.some((u) => u !== dir && beneath(u, dir));
  const segs = path.split("/").slice(1);
  let cur = "/";
  for (let i = 0; i < segs.length; i++) {
    const seg = segs[i] ?? "";
    const rest = segs.slice(i + 1).join("/");
    if (ANY(seg)) {
      if (!above(cur) || depth > 2) return false;
      return list(cur).every((k) => heldWrite(unwritable, join(cur, k, rest), depth + 1));
    }
    const next = join(cur, seg);
    if (!existsSync(next)) return above(cur);
    cur = next;
  }
  return false;
}

/** Whether the wall refuses `action` on `path` (a witness or a target; a `/**` subtree is its folder). */
export function held(holds: WallHolds, action: Action, path: string): boolean {
  const kind = kindOf(action);
  if (!kind || !path.startsWith("/")) return false;
  const p = path.replace(/\/\*\*(\/.*)?$/, "");
  if (kind === "write") return heldWrite(holds.unwritable, p);
  const known = p.split("/").findIndex(ANY);
  const prefix = known < 0 ? p : p.split("/").slice(0, known).join("/");
  return holds.unreadable.some((h) => beneath(prefix, h));
}

/** A refusal where the kernel will refuse anyway: asking a person first would only lead to a failed command. */
export function wallFindings(holds: WallHolds, action: Action): Finding[] {
  const kind = kindOf(action);
  if (!kind) return [];
  const hit = action.targets.find((t) => held(holds, action, t));
  if (!hit) return [];
  const verb = kind === "read" ? "read" : "write";
  return [
    {
      action,
      effect: "deny",
      source: "wall",
      reason: `the kernel wall around this agent's shell refuses to ${verb} ${hit}: no agent's command can ${verb} it, whatever a person answers here; a person who wants it does it from their own terminal`,
    },
  ];
}
