// Names the one binary answers to: symlinks to the stable copy, or a small launcher when running from source.
import { existsSync, lstatSync, mkdirSync, readFileSync, readlinkSync, rmSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { shellQuote } from "../core/shell-quote.ts";
import { writeFileAtomic } from "../io/files.ts";
import type { Context } from "../ports/context.ts";

/**
 * The program the links point at: the stable copy setup made, else this executable (or bun + script from source).
 * Wrapped MCP entries start memnox the same way, so this is the one place that choice is made.
 */
export function linkTarget(ctx: Pick<Context, "paths" | "selfArgv">): readonly string[] {
  if (existsSync(ctx.paths.app)) return [ctx.paths.app];
  return ctx.selfArgv;
}

/** Make `dir/name` invoke memnox as `name`; idempotent, and repairs a link that points elsewhere. */
export function ensureLink(ctx: Context, dir: string, name: string): string {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const path = join(dir, name);
  const target = linkTarget(ctx);
  const [bin, script] = target;
  if (bin && script === undefined) {
    if (isLinkTo(path, bin)) return path;
    rmSync(path, { force: true });
    symlinkSync(bin, path);
    return path;
  }
  const launcher = `#!/bin/sh\nMEMNOX_ARGV0=${shellQuote(name)} exec ${target.map(shellQuote).join(" ")} "$@"\n`;
  if (readIfFile(path) !== launcher) writeFileAtomic(path, launcher, 0o755);
  return path;
}

function isLinkTo(path: string, target: string): boolean {
  try {
    return lstatSync(path).isSymbolicLink() && readlinkSync(path) === target;
  } catch {
    return false;
  }
}

function readIfFile(path: string): string | undefined {
  try {
    return lstatSync(path).isFile() ? readFileSync(path, "utf8") : undefined;
  } catch {
    return undefined;
  }
}
