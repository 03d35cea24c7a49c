#!/usr/bin/env bun
// The only entry: read argv, environment and clock once, wire the real adapters, route, lazy-load one face.
import {
  bunGit,
  bunProc,
  desktopNotify,
  installedAt,
  osProcesses,
  ownGit,
  processStdio,
  provingHome,
} from "../src/adapters/index.ts";
import { describeError, isMemnoxError } from "../src/core/errors.ts";
import { colourAllowed, withoutEscapes } from "../src/core/plain.ts";
import type { Context } from "../src/ports/context.ts";
import type { Stdio } from "../src/ports/index.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { type Face, type Route, route } from "./route.ts";

declare const MEMNOX_VERSION: string | undefined;

type FaceRun = (ctx: Context) => Promise<number>;

const FACES: Record<Face, (args: readonly string[]) => Promise<FaceRun>> = {
  cli: () => import("../src/seams/cli/index.ts").then((m) => m.run),
  hook: () => import("../src/seams/hook/index.ts").then((m) => m.run),
  "mcp-proxy": () => import("../src/seams/mcp-proxy/index.ts").then((m) => m.run),
  session: () => import("../src/seams/session/index.ts").then((m) => m.run),
  shell: () => import("../src/seams/shell/index.ts").then((m) => m.run),
  shim: () => import("../src/seams/shim/index.ts").then((m) => m.run),
  // Bare `memnox daemon` is the daemon (what the user service starts); with a flag it is the CLI command of that name.
  daemon: (args) =>
    args.length === 0
      ? import("../src/daemon/index.ts").then((m) => m.run)
      : import("../src/seams/cli/index.ts").then(
          (m) => (ctx: Context) => m.run({ ...ctx, args: ["daemon", ...ctx.args] }),
        ),
  wall: () => import("../src/seams/wall/index.ts").then((m) => m.run),
};

function isCompiled(): boolean {
  return Bun.main.startsWith("/$bunfs/") || Bun.main.startsWith("B:/~BUN/");
}

function invocation(): { invokedAs: string; args: string[]; selfArgv: string[] } {
  if (isCompiled()) return { invokedAs: process.argv0, args: process.argv.slice(2), selfArgv: [process.execPath] };
  // From source (`bun bin/memnox.ts`), MEMNOX_ARGV0 stands in for the symlink name so tests can reach every face.
  const invokedAs = process.env.MEMNOX_ARGV0 || "memnox";
  return { invokedAs, args: process.argv.slice(2), selfArgv: [process.execPath, Bun.main] };
}

/** The faces an agent's calls arrive at: they keep to the home they were installed in, whatever the caller says. */
const SEATED: ReadonlySet<Face> = new Set<Face>(["hook", "shim", "shell", "mcp-proxy"]);

/** A deleted working directory makes process.cwd() throw: the shell's own PWD (or /) stands in for it. */
function workingDirectory(env: NodeJS.ProcessEnv): string {
  try {
    return process.cwd();
  } catch {
    return env.PWD || "/";
  }
}

/** A hook must answer in its agent's protocol whatever failed, or the agent reads a crash as "go ahead". */
async function hookFallback(
  args: readonly string[],
  io: Stdio,
  root: string | undefined,
  why: string,
): Promise<number> {
  try {
    const m = await import("../src/seams/hook/index.ts");
    return await m.answerUnbuilt(args, io, root, why);
  } catch (e) {
    io.err(`memnox: the hook failed before it could answer (${why}; ${describeError(e)})\n`);
    return 2;
  }
}

let currentFace: Face | undefined;

async function main(): Promise<number> {
  const io = processStdio();
  let r: Route | undefined;
  let root: string | undefined;
  try {
    const { invokedAs, args, selfArgv } = invocation();
    r = route(invokedAs, args);
    currentFace = r.face;
    const env = process.env;
    const processes = osProcesses(process.platform, process.pid);
    const seated = SEATED.has(r.face) && isCompiled() ? installedAt(process.execPath) : undefined;
    // Another MEMNOX_HOME is honoured only for the scratch home of a doctor --prove that is running.
    const proving =
      seated !== undefined && env.MEMNOX_HOME !== undefined && env.MEMNOX_HOME !== seated.root
        ? provingHome(env.MEMNOX_HOME, seated.root)
        : false;
    const installed = proving ? undefined : seated;
    const placed = installed ? { ...env, MEMNOX_HOME: installed.root, HOME: installed.home ?? env.HOME } : env;
    root = placed.MEMNOX_HOME || (placed.HOME ? `${placed.HOME}/.memnox` : undefined);
    const paths = memnoxPaths(placed);
    const ctx: Context = {
      argv0: invokedAs,
      ...(r.name !== undefined ? { invokedName: r.name } : {}),
      args: r.args,
      env,
      cwd: workingDirectory(env),
      startedAt: Date.now(),
      clock: { now: () => Date.now() },
      paths,
      io,
      proc: bunProc(),
      git: bunGit(env, ownGit(paths, process.execPath)),
      notify: desktopNotify(process.platform),
      processes,
      version: typeof MEMNOX_VERSION === "string" ? MEMNOX_VERSION : "0.0.0-source",
      execPath: process.execPath,
      selfArgv,
    };
    const face = await FACES[r.face](r.args);
    return await face(ctx);
  } catch (e) {
    if (r?.face === "hook") return hookFallback(r.args, io, root, describeError(e));
    // An error may quote the arguments: a credential among them is masked, as the CLI masks all it prints. The masker
    // is loaded only here: its patterns cost every interceptor and hook a few milliseconds at start otherwise.
    const { maskSecrets, secretValues } = await import("../src/core/secrets.ts");
    const known = secretValues(process.argv.slice(2).join(" "));
    const words = `memnox: ${maskSecrets(describeError(e), { known })}
`;
    // A message can carry what it quotes (an id, a path); only a terminal that wants colour gets escape codes.
    io.err(colourAllowed(io.stderrIsTTY, process.env) ? words : withoutEscapes(words));
    return isMemnoxError(e) ? e.exitCode : 70;
  }
}

// No top-level await: the bytecode build must compile this module.
main().then((code) => {
  process.exitCode = code;
  // A hook has answered (its rows are written first): anything still pending must not keep the agent waiting.
  if (currentFace === "hook") process.exit(code);
});
