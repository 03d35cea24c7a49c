// How a request sits against what `memnox run` declared (--task/--paths/--repos/--services/--envs/--expect). Pure.
import type { Action, ScopeFit } from "../core/action.ts";

export interface DeclaredScope {
  readonly task?: string;
  readonly paths: readonly string[];
  readonly repos: readonly string[];
  readonly services: readonly string[];
  readonly envs: readonly string[];
  readonly expect: readonly string[];
}

function isDeclared(s: DeclaredScope | undefined): s is DeclaredScope {
  return (
    s !== undefined &&
    (Boolean(s.task) || s.paths.length + s.repos.length + s.services.length + s.envs.length + s.expect.length > 0)
  );
}

function within(path: string, root: string): boolean {
  const r = root.endsWith("/") ? root.slice(0, -1) : root;
  return path === r || path.startsWith(`${r}/`);
}

function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, "\\$&").replace(/\*/g, ".*");
  return new RegExp(`^${escaped}$`);
}

/** A task with nothing else declared is in scope; each declared dimension can put a request out of it. */
export function scopeFit(
  scope: DeclaredScope | undefined,
  action: Action,
  environment: string | undefined,
  tmpDirs: readonly string[],
): ScopeFit {
  if (!isDeclared(scope)) return "undeclared";
  const roots = [...scope.paths, ...scope.repos];
  // A path outside what was declared is out of scope whether it is written or read (a read a task never needed is
  // what a scope rule about `filesystem.read` is for); a listing of names is not.
  if (roots.length > 0 && action.name !== "filesystem.list") {
    const paths = action.targets.filter((t) => t.startsWith("/") && action.name.startsWith("filesystem."));
    const outside = paths.filter((p) => !roots.some((r) => within(p, r)) && !tmpDirs.some((t) => within(p, t)));
    if (outside.length > 0) return "out_of_scope";
  }
  if (scope.envs.length > 0 && environment !== undefined && !scope.envs.includes(environment)) return "out_of_scope";
  if (scope.services.length > 0) {
    const service = serviceOf(action);
    if (service !== undefined && !scope.services.some((s) => globToRegExp(s).test(service))) return "out_of_scope";
  }
  if (scope.expect.length > 0 && action.class !== "read" && action.name !== "shell.execute") {
    if (!scope.expect.some((e) => globToRegExp(e).test(action.name))) return "out_of_scope";
  }
  return "in_scope";
}

/** The service an action reaches: an MCP server, or an HTTP host. */
function serviceOf(action: Action): string | undefined {
  if (action.name.startsWith("mcp.")) return action.name.split(".")[1];
  if (action.name === "http.request" || action.name === "http.loopback") return action.targets[0];
  return undefined;
}

/** A declared scope read back from JSON: lists of strings, anything else dropped. */
export function declaredScopeOf(raw: unknown): DeclaredScope | undefined {
  if (typeof raw !== "object" || raw === null) return undefined;
  const v = raw as Partial<Record<keyof DeclaredScope, unknown>>;
  const list = (x: unknown) => (Array.isArray(x) ? x.filter((s): s is string => typeof s === "string") : []);
  return {
    ...(typeof v.task === "string" ? { task: v.task } : {}),
    paths: list(v.paths),
    repos: list(v.repos),
    services: list(v.services),
    envs: list(v.envs),
    expect: list(v.expect),
  };
}
