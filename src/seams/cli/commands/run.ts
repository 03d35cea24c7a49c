// `memnox run -- <cmd…>`: start an agent behind every seam and hand back its exit code.
import { existsSync, mkdirSync } from "node:fs";
import { basename, resolve } from "node:path";
import { describeError, MemnoxError } from "../../../core/errors.ts";
import { shellQuote } from "../../../core/shell-quote.ts";
import type { DeclaredScope } from "../../../gate/scope.ts";
import { findRealBinary, isExecutable } from "../../../io/real-binary.ts";
import { repoRoot } from "../../../io/repo.ts";
import type { Context } from "../../../ports/context.ts";
import { interceptorState } from "../../../wire/interceptors.ts";
import { ensureLink } from "../../../wire/links.ts";
import { agentEnvironment, newSessionId } from "../../shared/agent-env.ts";
import { runChild } from "../../shared/child.ts";
import { type CommandFactory, command } from "../command.ts";
import { runHooks } from "./_run-hooks.ts";
import { runJudged } from "./_run-judged.ts";
import { unfamiliarLine } from "./_run-unfamiliar.ts";
import { type Prepared, prepareWall, type Raised, raiseWall, type WallRun } from "./_run-wall.ts";

const list = (v: string | undefined): string[] =>
  (v ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);

export const run: CommandFactory = (ctx) =>
  command({
    meta: { name: "run", description: "start an agent with every seam in its path; hands back its exit code" },
    args: {
      task: { type: "string", description: "what the agent was asked to do" },
      paths: { type: "string", description: "paths it may write (comma-separated)" },
      repos: { type: "string", description: "repositories it works in (comma-separated)" },
      services: { type: "string", description: "services it may reach (comma-separated)" },
      envs: {
        type: "string",
        description: "environments it may touch (comma-separated; each is ruled on, strictest wins)",
      },
      expect: { type: "string", description: "actions it is expected to take (comma-separated patterns)" },
      role: { type: "string", description: "the job it does, for rules that name roles" },
      milestone: { type: "boolean", default: true, negativeDescription: "skip the working-tree milestone" },
      transcript: { type: "boolean", description: "keep what it printed under ~/.memnox/transcripts/" },
      guard: {
        type: "boolean",
        default: true,
        negativeDescription: "with --untrusted: no kernel wall, only the seams asking (said out loud)",
      },
      untrusted: {
        type: "boolean",
        description: "inside the kernel wall, for a repository nobody here vouched for",
      },
    },
    async run({ args, rawArgs }) {
      const dash = rawArgs.indexOf("--");
      const cmd = dash >= 0 ? rawArgs.slice(dash + 1) : [];
      if (cmd.length === 0 || !cmd[0])
        throw new MemnoxError("usage", "memnox run needs a command after --", "memnox run -- claude");
      const opts: RunOptions = {
        scope: {
          ...(args.task ? { task: args.task } : {}),
          paths: list(args.paths),
          repos: list(args.repos),
          services: list(args.services),
          envs: list(args.envs),
          expect: list(args.expect),
        },
        ...(args.role ? { role: args.role } : {}),
        milestone: args.milestone !== false,
        transcript: args.transcript === true,
        untrusted: args.untrusted === true,
        guard: args.guard !== false,
      };
      // Whether anybody here worked in this repository is read before the judgment below records a row in it.
      const unfamiliar = opts.untrusted ? undefined : await unfamiliarLine(ctx, ctx.cwd);
      // What it is handed is judged before it starts, like any line an agent types; an agent starting is not.
      return runJudged(ctx, cmd, (argv) => runAgent(ctx, argv, { ...opts, ...(unfamiliar ? { unfamiliar } : {}) }));
    },
  });

interface RunOptions {
  readonly scope: DeclaredScope;
  readonly role?: string;
  readonly milestone: boolean;
  readonly transcript: boolean;
  readonly untrusted: boolean;
  /** false: `--no-guard`, no kernel wall. */
  readonly guard: boolean;
  /** The line suggesting `--untrusted` in a repository nobody here has worked in. */
  readonly unfamiliar?: string;
}

async function runAgent(ctx: Context, cmd: readonly string[], opts: RunOptions): Promise<number> {
  const session = ctx.env.MEMNOX_SESSION || newSessionId(ctx.clock.now());
  const agent = ctx.env.MEMNOX_AGENT_NAME || (cmd[0] ?? "agent").split("/").pop() || "agent";
  const root = opts.scope.paths[0] ?? repoRoot(ctx.cwd, ctx.env) ?? ctx.cwd;
  const overlay = agentEnvironment(ctx, {
    session,
    agent,
    scope: opts.scope,
    projectRoot: root,
    ...(opts.role ? { role: opts.role } : {}),
  });
  for (const name of ["memnox-bash", "memnox-zsh", "memnox-shell"]) ensureLink(ctx, ctx.paths.bin, name);
  const env = { ...ctx.env, ...overlay };
  const program = startable(ctx, cmd[0] ?? "", env.PATH);
  const name = basename(cmd[0] ?? program);
  const walled: WallRun = { session, agent, program, name, root, untrusted: opts.untrusted, guard: opts.guard };
  // A repository nobody here has worked in: one line suggests the preset, which stays the person's choice.
  if (opts.unfamiliar) ctx.io.err(`${opts.unfamiliar}\n`);
  const prepared = await prepareWall(ctx, walled);
  try {
    return await runPrepared(ctx, cmd, opts, { session, agent, root, env, program, walled, prepared });
  } finally {
    await prepared.close();
  }
}

interface Started {
  readonly session: string;
  readonly agent: string;
  readonly root: string;
  readonly env: Record<string, string | undefined>;
  readonly program: string;
  readonly walled: WallRun;
  readonly prepared: Prepared;
}

async function runPrepared(ctx: Context, cmd: readonly string[], opts: RunOptions, s: Started): Promise<number> {
  const { session, agent, root, env, program } = s;
  const hooks = runHooks(ctx, {
    session,
    agent,
    root,
    milestone: opts.milestone,
    env,
    scope: opts.scope,
    ...(opts.role ? { role: opts.role } : {}),
  });
  const egress = await hooks.before();
  Object.assign(env, egress);
  let wall: Raised | undefined;
  try {
    wall = raiseWall(ctx, s.walled, s.prepared, egress);
  } catch (e) {
    await hooks.after(126, 0);
    throw e;
  }
  if (wall) Object.assign(env, wall.env);
  ctx.io.err(`memnox: session ${session} (${agent}) started; every seam is in its path\n`);
  if (interceptorState(ctx).links.length === 0) {
    // PATH first means nothing with no interceptor in it: a CLI run without the shell would go unseen, said here.
    ctx.io.err(
      `memnox: no PATH interceptors in ${ctx.paths.bin} yet, so a CLI the agent starts directly is not seen (memnox protect --interceptors)\n`,
    );
  }
  const started = [...(wall?.argv ?? [program]), ...cmd.slice(1)];
  const argv = opts.transcript ? transcriptArgv(ctx, session, started) : started;
  try {
    let result: Awaited<ReturnType<typeof runChild>>;
    try {
      result = await runChild(argv, { env, cwd: ctx.cwd, interactive: ctx.io.stdinIsTTY });
    } catch (e) {
      // What run set up (the proxy, the session) is taken down even when the program never started.
      await hooks.after(127, 0);
      throw new MemnoxError("command_not_found", `\`${cmd[0]}\` could not be started (${describeError(e)})`);
    }
    await hooks.after(result.exitCode, result.durationMs);
    return result.exitCode;
  } finally {
    wall?.close();
  }
}

/** The program to start, found before anything is set up: a shell's 127 (not found) or 126 (not executable), at once. */
function startable(ctx: Context, name: string, pathVar: string | undefined): string {
  if (!name.includes("/")) {
    const found = findRealBinary(name, pathVar, [ctx.paths.bin], ctx.execPath);
    if (!found) throw new MemnoxError("command_not_found", `\`${name}\`: command not found on PATH`);
    return found;
  }
  const path = resolve(ctx.cwd, name);
  if (isExecutable(path)) return path;
  if (!existsSync(path)) throw new MemnoxError("command_not_found", `\`${name}\`: no such file`);
  throw new MemnoxError("not_executable", `\`${name}\` cannot be executed (not an executable file)`);
}

/** `script` keeps the agent's terminal a terminal while logging what it printed. */
function transcriptArgv(ctx: Context, session: string, argv: readonly string[]): string[] {
  const file = `${ctx.paths.transcripts}/${session}.log`;
  const script = findRealBinary("script", ctx.env.PATH, [ctx.paths.bin], ctx.execPath);
  if (!script) throw new MemnoxError("not_found", "--transcript needs `script` (util-linux or BSD) on PATH");
  const quoted = argv.map(shellQuote).join(" ");
  mkdirSync(ctx.paths.transcripts, { recursive: true, mode: 0o700 });
  return process.platform === "darwin" ? [script, "-q", file, ...argv] : [script, "-q", "-f", "-e", "-c", quoted, file];
}
