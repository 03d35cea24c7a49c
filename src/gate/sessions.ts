// Where each hooked session started, so its project boundary stays the repository it began in after a `cd`.
import { join } from "node:path";
import { readJsonIfExists, writeJsonAtomic } from "../io/files.ts";
import { repoRoot } from "../io/repo.ts";
import type { Paths } from "../ports/paths.ts";
import type { DeclaredScope } from "./scope.ts";
import { declaredScopeOf } from "./scope.ts";

interface SessionStart {
  readonly session: string;
  readonly agent: string;
  readonly cwd: string;
  /** The checkout the session started in, when it started in one. */
  readonly root?: string;
  readonly startedAt: string;
  /** What `memnox run` declared for it, so a seam that knows only the session (the egress proxy) rules alike. */
  readonly environments?: readonly string[];
  readonly role?: string;
  readonly scope?: DeclaredScope;
}

const fileOf = (paths: Pick<Paths, "root">, session: string) =>
  join(paths.root, "sessions", `${session.replace(/[^\w.-]/g, "_").slice(0, 120)}.json`);

export function sessionStart(paths: Pick<Paths, "root">, session: string): SessionStart | undefined {
  try {
    const raw = readJsonIfExists(fileOf(paths, session));
    if (typeof raw !== "object" || raw === null) return undefined;
    const r = raw as Record<string, unknown>;
    if (typeof r.cwd !== "string" || typeof r.agent !== "string" || typeof r.startedAt !== "string") return undefined;
    const scope = r.scope === undefined ? undefined : declaredScopeOf(r.scope);
    // A file written before several environments were carried names one, as `environment`.
    const environments = Array.isArray(r.environments)
      ? r.environments.filter((e): e is string => typeof e === "string")
      : typeof r.environment === "string"
        ? [r.environment]
        : [];
    return {
      session,
      agent: r.agent,
      cwd: r.cwd,
      startedAt: r.startedAt,
      ...(typeof r.root === "string" ? { root: r.root } : {}),
      ...(environments.length > 0 ? { environments } : {}),
      ...(typeof r.role === "string" ? { role: r.role } : {}),
      ...(scope ? { scope } : {}),
    };
  } catch {
    return undefined;
  }
}

/** The first start wins: a resumed session keeps the boundary it began with. */
export function noteSessionStart(paths: Pick<Paths, "root">, s: Omit<SessionStart, "root">): SessionStart {
  const existing = sessionStart(paths, s.session);
  if (existing) return existing;
  const root = repoRoot(s.cwd);
  const start: SessionStart = { ...s, ...(root ? { root } : {}) };
  writeJsonAtomic(fileOf(paths, s.session), start);
  return start;
}
