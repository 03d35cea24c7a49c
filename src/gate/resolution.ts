// What a call resolves to, worked out in the seam's own process (its text never leaves it): the one resolver run
// with the project's facts, targets expanded by meaning. Kept apart from wiring.ts so a seam the daemon answers
// loads the resolver and nothing of the rule loader, the ledger or the state files.
import type { Context } from "../ports/context.ts";
import { resolveArgv, resolveCommand } from "../resolve/index.ts";
import type { Resolution } from "../resolve/types.ts";
import type { Instant } from "./deps.ts";
import { type TargetExpander, targetExpander } from "./expand.ts";
import { projectFacts, scriptText } from "./project.ts";
import { snapshotText } from "./snapshots.ts";
import type { GateRequest } from "./types.ts";

/** Passes at most: a script may run another script the first pass could not see into. */
const SCRIPT_PASSES = 3;

/**
 * The resolver handed the project's facts, then the text of the scripts the line runs (read here, inside the
 * checkout), again until no new script can be read.
 */
export function resolveWithProject(req: GateRequest, home: string, env?: Readonly<Record<string, string>>): Resolution {
  const line = req.argv ? req.argv.join(" ") : (req.command ?? "");
  let project = projectFacts(req.cwd, line);
  const run = () => {
    const rctx = { cwd: req.cwd, home, project, ...(env ? { env } : {}) };
    return req.argv ? resolveArgv(req.argv, rctx) : resolveCommand(req.command ?? "", rctx);
  };
  let r = run();
  for (let pass = 0; pass < SCRIPT_PASSES && r.runs; pass++) {
    const files: Record<string, string> = { ...project.files };
    for (const path of r.runs) {
      const text = scriptText(path, project.repository) ?? snapshotText(path, home, env);
      if (text !== undefined) files[path] = text;
    }
    if (Object.keys(files).length === Object.keys(project.files ?? {}).length) break;
    project = { ...project, files };
    r = run();
  }
  return r;
}

/**
 * The caller's variables that name places, handed to the resolver so `$TMPDIR/x` or `$MEMNOX_HOME/config.toml` is
 * the path it is. Only these: a variable's value can be a secret, and a target is recorded.
 */
const PLACE_VARIABLES = [
  "TMPDIR",
  "USER",
  "LOGNAME",
  "OLDPWD",
  "XDG_CONFIG_HOME",
  "XDG_DATA_HOME",
  "XDG_STATE_HOME",
  "XDG_CACHE_HOME",
  "XDG_RUNTIME_DIR",
  "MEMNOX_HOME",
  "CLAUDE_CONFIG_DIR",
  "CLAUDE_PROJECT_DIR",
  "CODEX_HOME",
  "GEMINI_CLI_HOME",
  "GIT_DIR",
  "GNUPGHOME",
  "KUBECONFIG",
  "AWS_SHARED_CREDENTIALS_FILE",
  "AWS_CONFIG_FILE",
  "DOCKER_CONFIG",
];

export function placeVariables(env: Context["env"]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k of PLACE_VARIABLES) {
    const v = env[k];
    if (v) out[k] = v;
  }
  return out;
}

/** The local UTC offset costs milliseconds to read the first time (time-zone data): read only if a window asks. */
export function lazyInstant(epochMs: number): Instant {
  let offset: number | undefined;
  return {
    epochMs,
    get utcOffsetMinutes() {
      offset ??= -new Date(epochMs).getTimezoneOffset();
      return offset;
    },
  };
}

/** THE resolution a seam decides on (the resolver with the project's facts, each target expanded by meaning). */
export interface SeamResolver {
  resolve(req: GateRequest): Resolution;
  /** THE target expansion, for an action a seam hands in already resolved (a file tool's path). */
  readonly expand: TargetExpander;
}

export function seamResolver(ctx: Pick<Context, "paths" | "env">): SeamResolver {
  const paths = ctx.paths;
  const expand = targetExpander({ home: paths.home, root: paths.root, env: ctx.env });
  return {
    resolve: (req) => {
      const r = resolveWithProject(req, paths.home, placeVariables(ctx.env));
      return { ...r, actions: r.actions.map((a) => expand(a, req.cwd)) };
    },
    expand,
  };
}
