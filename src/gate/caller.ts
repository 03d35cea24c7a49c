// Facts about the caller, each from one documented source: the hook's agent or MEMNOX_AGENT_NAME, MEMNOX_ENV (one
// environment or several), run's declared scope and paths, where the session started, and the checked-out branch.

import { realOr } from "../io/real.ts";
import { currentBranch, repoRoot } from "../io/repo.ts";
import type { Context } from "../ports/context.ts";
import type { Boundary } from "./boundary.ts";
import type { CallerFacts } from "./deps.ts";
import { environmentsOf } from "./environments.ts";
import { agentRuns, principalOf } from "./principal.ts";
import { type DeclaredScope, declaredScopeOf } from "./scope.ts";
import { sessionStart } from "./sessions.ts";
import { snapshotDir } from "./snapshots.ts";

/**
 * Always writable whatever the boundary: the system temp directories (TMPDIR is what os.tmpdir() reads), /dev and
 * Claude Code's shell snapshots.
 */
function exemptDirs(ctx: Pick<Context, "env" | "paths">): string[] {
  // Claude Code's shell snapshots are its own state, written before its Bash commands: never outside the project.
  const dirs = ["/tmp", "/var/tmp", "/dev", ctx.env.TMPDIR ?? "", snapshotDir(ctx.paths.home, ctx.env)].filter(Boolean);
  return [...new Set(dirs.flatMap((d) => [d, realOr(d)]))];
}

function declaredScope(env: Context["env"]): DeclaredScope | undefined {
  const raw = env.MEMNOX_SCOPE;
  if (!raw) return undefined;
  try {
    return declaredScopeOf(JSON.parse(raw));
  } catch {
    return undefined;
  }
}

export function callerFacts(ctx: Context): CallerFacts {
  const env = ctx.env;
  const scope = declaredScope(env);
  const environments = environmentsOf(env.MEMNOX_ENV);
  const exempt = exemptDirs(ctx);
  const declaredRoots = [...(scope?.paths ?? []), ...(scope?.repos ?? [])];
  return {
    ...(env.MEMNOX_AGENT_NAME ? { agent: env.MEMNOX_AGENT_NAME } : {}),
    ...(env.MEMNOX_SESSION ? { session: env.MEMNOX_SESSION } : {}),
    ...(environments.length > 0 ? { environments } : {}),
    ...(env.MEMNOX_ROLE ? { role: env.MEMNOX_ROLE } : {}),
    ...(scope ? { scope } : {}),
    branch: (cwd) => currentBranch(cwd),
    principal: () => principalOf(env, ctx.paths.account),
    runs: (agent, cwd) => agentRuns(agent, env, ctx.paths.home, cwd),
    boundary(cwd, session): Boundary | undefined {
      if (declaredRoots.length > 0) return { roots: declaredRoots, exempt };
      const started = session ? sessionStart(ctx.paths, session)?.root : undefined;
      const root = env.MEMNOX_PROJECT_ROOT || started || repoRoot(cwd);
      return root ? { roots: [root, realOr(root)].filter((r, i, a) => a.indexOf(r) === i), exempt } : undefined;
    },
  };
}
