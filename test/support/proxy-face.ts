// The proxy face's own stdio wiring in a real process, with a scripted gate standing in for createGate (not built yet).
// Rules come as JSON in MEMNOX_TEST_RULES, e.g. {"mcp.srv.get_x":{"effect":"deny","reason":"no"}}.
import { bunGit, bunProc, processStdio } from "../../src/adapters/index.ts";
import { describeError } from "../../src/core/errors.ts";
import type { Context } from "../../src/ports/context.ts";
import { parseProxyArgs, runProxy, stdioOptions } from "../../src/seams/mcp-proxy/index.ts";
import { memnoxPaths } from "../../src/state/paths.ts";
import { type Rule, scriptedGate } from "./holding-gate.ts";

const io = processStdio();
try {
  const env = process.env;
  const paths = memnoxPaths(env);
  const ctx: Context = {
    argv0: "memnox-mcp-proxy",
    args: process.argv.slice(2),
    env,
    cwd: process.cwd(),
    startedAt: Date.now(),
    clock: { now: () => Date.now() },
    paths,
    io,
    proc: bunProc(),
    git: bunGit(env),
    notify: { notice: async () => {} },
    version: "0.0.0-test",
    execPath: process.execPath,
    selfArgv: [process.execPath, import.meta.path],
  };
  const rules = JSON.parse(env.MEMNOX_TEST_RULES ?? "{}") as Record<string, Rule>;
  const gate = scriptedGate(paths.pending, rules);
  process.exitCode = await runProxy(stdioOptions(ctx, parseProxyArgs(ctx.args), gate));
} catch (e) {
  io.err(`memnox: ${describeError(e)}\n`);
  process.exitCode = 2;
}
