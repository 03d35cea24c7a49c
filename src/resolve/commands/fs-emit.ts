// Emitting filesystem actions: paths made absolute, pseudo-devices dropped, disks called disks.
import type { Arg, Call } from "../call.ts";
import { absolutePath, isDiskDevice, isInertDevice } from "../paths.ts";

export function pathOf(call: Call, a: Arg): string {
  return a.static ? absolutePath(a.text, call.scope.cwd, call.scope.home) : a.text;
}

export function paths(call: Call, args: readonly Arg[]): string[] {
  return args.map((a) => pathOf(call, a)).filter((p) => !isInertDevice(p));
}

export function emitRead(call: Call, targets: readonly string[]): void {
  if (targets.length > 0) call.emit({ name: "filesystem.read", class: "read", targets });
}

export function emitWrite(call: Call, targets: readonly string[]): void {
  const disks = targets.filter(isDiskDevice);
  const files = targets.filter((t) => !isDiskDevice(t) && !isInertDevice(t));
  if (disks.length > 0) call.emit({ name: "disk.write", class: "destructive", targets: disks });
  if (files.length > 0) call.emit({ name: "filesystem.write", class: "write", targets: files });
}

export function emitDelete(call: Call, targets: readonly string[]): void {
  if (targets.length > 0) call.emit({ name: "filesystem.delete", class: "destructive", targets });
}
