// Which kernel can hold a wall here, probed: Landlock's ABI on Linux, seatbelt's sandbox-exec on macOS.
import { spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { OWN_NAMESPACE } from "./applier.ts";
import type { Kernel } from "./held.ts";

export const SANDBOX_EXEC = "/usr/bin/sandbox-exec";

/** `cap` lowers the ABI used (MEMNOX_WALL_ABI): what an older kernel would hold, shown and tested on a newer one. */
export async function probeKernel(platform: string, cap?: number): Promise<Kernel> {
  if (platform === "darwin") {
    return existsSync(SANDBOX_EXEC) ? { kind: "seatbelt" } : { kind: "none", why: `${SANDBOX_EXEC} is missing` };
  }
  if (platform !== "linux") return { kind: "none", why: `${platform} has no kernel wall memnox can raise` };
  const { landlockAbi } = await import("./ffi.ts");
  const found = landlockAbi();
  if (found < 1) return { kind: "none", why: "this Linux kernel has no Landlock (built without it, or off at boot)" };
  const abi = cap !== undefined && Number.isInteger(cap) && cap >= 0 ? Math.min(found, cap) : found;
  return abi < 1 ? { kind: "none", why: `Landlock capped at ABI ${abi}` } : { kind: "landlock", abi };
}

export function abiCap(raw: string | undefined): number | undefined {
  if (raw === undefined || raw === "") return undefined;
  const n = Number(raw);
  return Number.isInteger(n) && n >= 0 ? n : undefined;
}

/**
 * Whether a command can be given a mount namespace of its own here, tried for real the way the applier does it
 * (perl, an unprivileged user namespace, a tmpfs mounted in it): containers and some distributions switch it off.
 */
export function namespacesWork(
  perl: string | undefined,
  nr: { unshare: number; mount: number } | undefined,
  dir: string,
): boolean {
  if (!perl || !nr || !existsSync(dir)) return false;
  // `dir` is covered in the probe's own namespace only, which ends with it.
  try {
    const script = `${OWN_NAMESPACE}\nmy ($none, $tmpfs, $o) = ('none', 'tmpfs', 'size=4k');\nown_namespace(${nr.unshare}, ${nr.mount}) eq '' or exit 1;\nsyscall(${nr.mount}, $none, $ARGV[0], $tmpfs, 6, $o) == 0 or exit 2;`;
    return spawnSync(perl, ["-e", script, dir], { stdio: "ignore", timeout: 5000 }).status === 0;
  } catch {
    return false;
  }
}

/** A socket inode at `path` that nothing listens on (mknod makes one without privilege): what covers a hidden file. */
export function makePlaceholder(perl: string | undefined, nr: { mknodat: number } | undefined, path: string): boolean {
  if (!perl || !nr) return false;
  if (existsSync(path)) return true;
  const script = `my ($p) = $ARGV[0] =~ /\\A(.*)\\z/s; syscall(${nr.mknodat}, -100, $p, 0140000 | 0600, 0) == 0 or exit 1;`;
  return spawnSync(perl, ["-e", script, path], { stdio: "ignore", timeout: 5000 }).status === 0;
}
