// Emitting filesystem actions: paths made absolute, pseudo-devices dropped, disks called disks.
import type { ActionSpec, Arg, Call } from "../call.ts";
import { absolutePath, isDiskDevice, isInertDevice } from "../paths.ts";

export function pathOf(call: Call, a: Arg): string {
  return a.static ? absolutePath(a.text, call.scope.cwd, call.scope.home) : a.text;
}

/** Everything under `path`: the target of a recursive read, copy, permission change or delete. */
export function subtree(path: string): string {
  if (!path.startsWith("/") || path.endsWith("/**")) return path;
  return `${path === "/" ? "" : path.replace(/\/+$/, "")}/**`;
}

export function paths(call: Call, args: readonly Arg[]): string[] {
  return args.map((a) => pathOf(call, a)).filter((p) => !isInertDevice(p));
}

export function emitRead(call: Call, targets: readonly string[]): void {
  if (targets.length > 0) call.emit({ name: "filesystem.read", class: "read", targets });
}

/** Names and metadata only (`ls`, `stat`, `find` without `-exec`): no file's content is read. */
export function emitList(call: Call, targets: readonly string[]): void {
  if (targets.length > 0) call.emit({ name: "filesystem.list", class: "read", targets });
}

/** Writes of `targets`: files are filesystem.write, block devices disk.write, pseudo-devices nothing. */
export function writeActions(targets: readonly string[]): ActionSpec[] {
  const disks = targets.filter(isDiskDevice);
  const files = targets.filter((t) => !isDiskDevice(t) && !isInertDevice(t));
  const out: ActionSpec[] = [];
  if (disks.length > 0) out.push({ name: "disk.write", class: "destructive", targets: disks });
  if (files.length > 0) out.push({ name: "filesystem.write", class: "write", targets: files });
  return out;
}

export function emitWrite(call: Call, targets: readonly string[]): void {
  for (const a of writeActions(targets)) call.emit(a);
}

export function emitDelete(call: Call, targets: readonly string[]): void {
  if (targets.length > 0) call.emit({ name: "filesystem.delete", class: "destructive", targets });
}
