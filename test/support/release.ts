// Releases for tests: assembled by the real release code (stand-in binaries for speed, or the real one), served
// from loopback like the GitHub releases, and install.sh run under dash.
import { chmodSync, existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type Assembled, assemble, INSTALL_SCRIPT } from "../../bin/release/index.ts";
import { hostTarget, TARGETS } from "../../build.ts";
import type { Env } from "../../src/ports/index.ts";

export interface BuiltRelease extends Assembled {
  readonly version: string;
  readonly releaseDir: string;
  readonly npmDir: string;
}

/** A release of `binary` for this host, assembled into `<dir>/release` and `<dir>/npm`. */
export function hostRelease(dir: string, version: string, binary: string): BuiltRelease {
  const releaseDir = join(dir, "release");
  const npmDir = join(dir, "npm");
  const out = assemble({
    version,
    built: [{ target: hostTarget(), binary }],
    targets: TARGETS,
    releaseDir,
    npmDir,
    level: 1,
    mtime: 0,
  });
  return { ...out, version, releaseDir, npmDir };
}

/**
 * A stand-in memnox: prints `version` for --version and appends any other call to $MEMNOX_STUB_LOG, so a test sees
 * install.sh run `update --rewire` with the new binary.
 */
export function stubBinary(dir: string, version: string): string {
  mkdirSync(dir, { recursive: true });
  const path = join(dir, "memnox");
  writeFileSync(
    path,
    `#!/bin/sh\ncase "$1" in\n  --version) echo ${version} ;;\n  *) printf '%s %s\\n' ${version} "$*" >>"\${MEMNOX_STUB_LOG:-/dev/null}" ;;\nesac\n`,
  );
  chmodSync(path, 0o755);
  return path;
}

export interface ReleaseServer extends AsyncDisposable {
  readonly url: string;
  /** Serve `dir` under `/<name>/`. */
  mount(name: string, dir: string): string;
  /** Paths requested so far, in order. */
  readonly requests: string[];
}

export function releaseServer(): ReleaseServer {
  const mounts = new Map<string, string>();
  const requests: string[] = [];
  const server = Bun.serve({
    hostname: "127.0.0.1",
    port: 0,
    fetch(req) {
      const path = decodeURIComponent(new URL(req.url).pathname);
      requests.push(path);
      const [, name, ...rest] = path.split("/");
      const dir = name === undefined ? undefined : mounts.get(name);
      const file = dir && rest.length > 0 && !rest.includes("..") ? join(dir, ...rest) : undefined;
      if (!file || !existsSync(file)) return new Response("not found", { status: 404 });
      return new Response(Bun.file(file));
    },
  });
  const url = `http://127.0.0.1:${server.port}`;
  return {
    url,
    requests,
    mount(name, dir) {
      mounts.set(name, dir);
      return `${url}/${name}`;
    },
    [Symbol.asyncDispose]: async () => {
      await server.stop(true);
    },
  };
}

export interface ScriptRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** POSIX sh without bash-isms: dash, which Debian and Ubuntu run as /bin/sh. */
const DASH = Bun.which("dash") ?? "/bin/sh";

/** bin/install.sh under dash, as `curl … | sh` runs it, with exactly `env`. */
export async function runInstallScript(args: readonly string[], env: Env, cwd?: string): Promise<ScriptRun> {
  return runSh([DASH, INSTALL_SCRIPT, ...args], env, cwd);
}

/** A snippet under dash with install.sh's functions loaded and its main not run. */
export async function installFunctions(snippet: string, env: Env): Promise<ScriptRun> {
  return runSh([DASH, "-c", `MEMNOX_INSTALL_SOURCED=1 . "$0"\n${snippet}`, INSTALL_SCRIPT], env);
}

async function runSh(argv: string[], env: Env, cwd?: string): Promise<ScriptRun> {
  const clean: Record<string, string> = {};
  for (const [k, v] of Object.entries(env)) if (v !== undefined) clean[k] = v;
  const child = Bun.spawn(argv, {
    env: clean,
    cwd: cwd ?? (clean.HOME && existsSync(clean.HOME) ? clean.HOME : "/"),
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
