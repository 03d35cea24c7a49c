// The real compiled binary, built once per test run and invoked through symlinks like a user would.
import { existsSync, mkdirSync, statSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget } from "../../build.ts";
import type { Env } from "../../src/ports/index.ts";
import { tempDir } from "./fs.ts";

const ROOT = join(import.meta.dir, "..", "..");
let built: Promise<string> | undefined;

/** Builds dist/<host>/memnox once per run (unless MEMNOX_TEST_BINARY names one already built). */
export function compiledBinary(): Promise<string> {
  const given = process.env.MEMNOX_TEST_BINARY;
  if (given && existsSync(given)) return Promise.resolve(given);
  built ??= build(hostTarget(), true);
  return built;
}

export interface RunResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

export interface RunOptions {
  readonly env: Env;
  readonly stdin?: string;
  readonly cwd?: string;
}

const linkDirs = new Map<string, string>();

/** Runs the compiled binary under the name `argv0` (a symlink, as PATH wrappers are). */
export async function runBinary(argv0: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  const bin = await compiledBinary();
  const path = argv0 === "memnox" ? bin : linkAs(bin, argv0);
  return spawn([path, ...args], opts);
}

/** Runs bin/memnox.ts from source with bun; `argv0` picks the face as a symlink would. */
export function runSource(argv0: string, args: readonly string[], opts: RunOptions): Promise<RunResult> {
  return spawn([process.execPath, join(ROOT, "bin", "memnox.ts"), ...args], {
    ...opts,
    env: { ...opts.env, MEMNOX_ARGV0: argv0 },
  });
}

function linkAs(bin: string, name: string): string {
  const key = `${bin}\0${statSync(bin).mtimeMs}`;
  let dir = linkDirs.get(key);
  if (!dir) {
    dir = tempDir("memnox-links").path;
    linkDirs.set(key, dir);
  }
  const link = join(dir, name);
  if (!existsSync(link)) {
    mkdirSync(dir, { recursive: true });
    symlinkSync(bin, link);
  }
  return link;
}

/** Any program, its output collected: what every real-client helper here runs through. */
export function runProcess(argv: readonly string[], opts: RunOptions): Promise<RunResult> {
  return spawn([...argv], opts);
}

async function spawn(argv: string[], opts: RunOptions): Promise<RunResult> {
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(opts.env)) if (v !== undefined) env[k] = v;
  const child = Bun.spawn(argv, {
    env,
    cwd: opts.cwd ?? env.HOME ?? process.cwd(),
    stdin: opts.stdin === undefined ? "ignore" : new Blob([opts.stdin]),
    stdout: "pipe",
    stderr: "pipe",
  });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}
