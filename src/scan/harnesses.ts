// Hermes, OpenClaw and Ruflo run other agents: one row each on the roster, several principals at the seam. Roles,
// runtimes, hooks and federation are read off the directories and configs those products scaffolded.
import { basename, extname, join } from "node:path";
import { isRecord } from "../core/record.ts";
import type { Locations } from "../wire/clients.ts";
import type { DetectedAgent } from "./agents.ts";
import { entries, filesUnder, isDir, type Trail } from "./trail.ts";
import type { HarnessRow } from "./types.ts";

/** The parsed config of a harness's MCP client file, as the wire read it. */
type Docs = ReadonlyMap<string, unknown>;

const names = (v: unknown): string[] => {
  if (Array.isArray(v))
    return v.flatMap((x) =>
      typeof x === "string" ? [x] : isRecord(x) && typeof (x.name ?? x.id) === "string" ? [String(x.name ?? x.id)] : [],
    );
  return isRecord(v) ? Object.keys(v) : [];
};
const nonEmpty = (v: unknown) => (Array.isArray(v) ? v.length > 0 : isRecord(v) && Object.keys(v).length > 0);
const stem = (f: string) => basename(f, extname(f));
const ROLE_FILE = /\.(md|ya?ml|json|toml)$/;

function hermes(a: DetectedAgent, doc: unknown): HarnessRow {
  const d = isRecord(doc) ? doc : {};
  return {
    agentId: a.id,
    kind: "hermes",
    runtimes: [],
    roles: names(d.agents).sort(),
    hooks: nonEmpty(d.hooks) ? 1 : 0,
    federated: false,
    evidence: a.evidence.map((e) => e.path),
  };
}

function openclaw(a: DetectedAgent, doc: unknown, loc: Locations): HarnessRow {
  const d = isRecord(doc) ? doc : {};
  const state = loc.env.OPENCLAW_STATE_DIR || join(loc.home, ".openclaw");
  const agentsCfg = isRecord(d.agents) ? d.agents : {};
  const entriesCfg = agentsCfg.entries ?? agentsCfg.list;
  const roles = new Set([...names(entriesCfg), ...entries(join(state, "agents"))]);
  const runtimes = new Set<string>();
  for (const e of Array.isArray(entriesCfg) ? entriesCfg : isRecord(entriesCfg) ? Object.values(entriesCfg) : []) {
    if (isRecord(e) && typeof e.runtime === "string") runtimes.add(e.runtime);
  }
  const nodes = entries(join(state, "nodes"));
  return {
    agentId: a.id,
    kind: "openclaw",
    runtimes: [...runtimes].sort(),
    roles: [...roles].sort(),
    hooks: nonEmpty(d.hooks) ? 1 : 0,
    federated: nodes.length > 0,
    evidence: [
      ...a.evidence.map((e) => e.path),
      ...["sandboxes", "credentials", "nodes"].map((n) => join(state, n)).filter(isDir),
    ],
  };
}

const FEDERATION = /"federation"\s*:\s*(true|\{)|^\s*federation:\s*(true|\s*$)/m;

function ruflo(a: DetectedAgent, trail: Trail, repo: string): HarnessRow {
  const roles = [".agents", join(".claude", "agents")].flatMap((d) =>
    filesUnder(join(repo, d), 2)
      .filter((f) => ROLE_FILE.test(f))
      .map(stem),
  );
  const settings = trail.text(join(repo, ".claude", "settings.json"));
  const githooks = filesUnder(join(repo, ".githooks"), 0).filter((f) => !f.endsWith(".sample"));
  const hooks = (settings && /"hooks"\s*:\s*\{\s*"/.test(settings) ? 1 : 0) + githooks.length;
  const configs = a.evidence.flatMap((e) =>
    filesUnder(e.path, 0)
      .filter((f) => /\.(json|ya?ml)$/.test(f))
      .map((f) => join(e.path, f)),
  );
  const federated = configs.some((f) => FEDERATION.test(trail.text(f, 256 * 1024) ?? ""));
  const runtimes = ["claude-code", ...(isDir(join(repo, ".codex")) ? ["codex"] : [])];
  return {
    agentId: a.id,
    kind: "ruflo",
    runtimes,
    roles: [...new Set(roles)].sort(),
    hooks,
    federated,
    evidence: a.evidence.map((e) => e.path),
  };
}

/** One row per detected harness; `docs` holds each client file's parsed document by path. */
export function harnessRows(
  agents: readonly DetectedAgent[],
  docs: Docs,
  trail: Trail,
  loc: Locations,
  repo: string,
): HarnessRow[] {
  const docOf = (a: DetectedAgent) => a.evidence.map((e) => docs.get(e.path)).find((d) => d !== undefined);
  return agents.flatMap((a) => {
    if (a.id === "hermes") return [hermes(a, docOf(a))];
    if (a.id === "openclaw") return [openclaw(a, docOf(a), loc)];
    if (a.id === "ruflo") return [ruflo(a, trail, repo)];
    return [];
  });
}

/** Behind each harness row, how many principals act: each role, or the harness itself when it names none. */
export function principals(rows: readonly HarnessRow[]): number {
  return rows.reduce((n, r) => n + Math.max(1, r.roles.length), 0);
}
