// Several declared environments: the real engine rules on each, the strictest verdict applies, the row names the
// environment that decided, and a replay of that row reproduces it.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import type { Action } from "../src/core/action.ts";
import type { Mode } from "../src/core/effect.ts";
import type { EventInput } from "../src/core/event.ts";
import type { PolicyRequest, StateFact } from "../src/core/request.ts";
import { egressRequest } from "../src/daemon/egress/gate.ts";
import { decide } from "../src/gate/decide.ts";
import type { GateDeps, RuleSetView } from "../src/gate/deps.ts";
import { environmentsOf, environmentVariable } from "../src/gate/environments.ts";
import { replayWith } from "../src/gate/replay.ts";
import type { DeclaredScope } from "../src/gate/scope.ts";
import { noteSessionStart, sessionStart } from "../src/gate/sessions.ts";
import type { GateRequest } from "../src/gate/types.ts";
import { draftFrom } from "../src/ledger/normalize.ts";
import { compareVerdict } from "../src/ledger/reproduce.ts";
import type { LedgerRow } from "../src/ledger/row.ts";
import { chained } from "../src/ledger/store.ts";
import { ruleSetFromSources, sha256 } from "../src/policy/load/index.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { answerHold, fingerprint, readHold } from "../src/state/pending.ts";
import { tempDir } from "./support/fs.ts";
import { recordingDeps } from "./support/gate-deps.ts";

const dir = tempDir("memnox-gate-envs");
afterAll(() => dir[Symbol.dispose]());
const NOW = Date.parse("2026-11-30T12:00:00.000Z");
const FILE = "/repo/memnox.policies.toml";

const RULES = `version = 1
[[policies]]
name = "no-production-drops"
[policies.match]
actions = ["database.drop"]
environments = ["production"]
[policies.decision]
effect = "deny"
reason = "no dropped tables in production"

[[policies]]
name = "staging-drops-ask"
[policies.match]
actions = ["database.drop"]
environments = ["staging"]
[policies.decision]
effect = "ask"
reason = "a dropped table in staging asks first"

[[policies]]
name = "production-migrations-ask"
[policies.match]
actions = ["database.migrate"]
environments = ["prod*"]
[policies.decision]
effect = "ask"
reason = "a production migration asks first"

[[policies]]
name = "out-of-scope-deploys-denied"
[policies.match]
actions = ["deploy.service"]
scope = ["out_of_scope"]
[policies.decision]
effect = "deny"
reason = "a deploy outside the declared environments is refused"
`;

const sources = [{ path: FILE, text: RULES, hash: sha256(RULES), origin: "repository" as const }];
const ruleSet = ruleSetFromSources(sources, "/home/sam");

const act = (name: string, cls: Action["class"], targets: string[] = []): Action => ({
  name,
  class: cls,
  targets,
  arguments: {},
});

function deps(opts: {
  environments?: string[];
  actions: Action[];
  mode?: Mode;
  rules?: RuleSetView;
  scope?: DeclaredScope;
  pending?: string;
}): GateDeps & { rows: EventInput[]; asked: PolicyRequest[] } {
  const asked: PolicyRequest[] = [];
  const rules = opts.rules ?? ruleSet;
  const pending = opts.pending ?? dir.join(`pending-${crypto.randomUUID()}`);
  const recorded = recordingDeps(pending);
  return {
    asked,
    now: () => ({ epochMs: NOW, utcOffsetMinutes: 0 }),
    settings: () => ({ mode: opts.mode ?? "enforce", failOpen: false }),
    rules: () => ({
      ...rules,
      evaluate(r: PolicyRequest, facts: readonly StateFact[], at) {
        asked.push(r);
        return rules.evaluate(r, facts, at);
      },
    }),
    resolve: () => ({ actions: opts.actions, normalized: "x", unknown: [] }),
    caller: {
      agent: "claude-code",
      session: "s1",
      ...(opts.environments ? { environments: opts.environments } : {}),
      ...(opts.scope ? { scope: opts.scope } : {}),
      branch: () => "main",
      boundary: () => undefined,
    },
    facts: () => [],
    stop: () => undefined,
    ...recorded,
  };
}

const req = (over: Partial<GateRequest> = {}): GateRequest => ({
  surface: "shell",
  command: "psql -c 'drop table orders'",
  cwd: "/repo",
  canAsk: false,
  ...over,
});
const drop = [act("database.drop", "destructive", ["orders"])];
const migrate = [act("database.migrate", "write", ["orders"])];

/** The row decide() wrote, as the ledger would hand it back to `why --verify`. */
function asRow(e: EventInput | undefined): LedgerRow {
  if (!e) throw new Error("no row was written");
  return chained(draftFrom(e), undefined);
}

async function replays(e: EventInput | undefined) {
  const row = asRow(e);
  const kept = { hash: ruleSet.hash, sources };
  return compareVerdict(row, await replayWith("/home/sam")(row, kept));
}

describe("MEMNOX_ENV", () => {
  test("names one environment or several; each once, in the order declared", () => {
    expect(environmentsOf(undefined)).toEqual([]);
    expect(environmentsOf("")).toEqual([]);
    expect(environmentsOf("production")).toEqual(["production"]);
    expect(environmentsOf(" staging , production,,staging ")).toEqual(["staging", "production"]);
    expect(environmentVariable([])).toBeUndefined();
    expect(environmentVariable(["staging"])).toBe("staging");
    expect(environmentVariable(["staging", " production", "staging"])).toBe("staging,production");
  });
});

describe("several declared environments", () => {
  test("a production-only deny applies when production is one of them, whatever the order", async () => {
    for (const environments of [
      ["staging", "production"],
      ["production", "staging"],
    ]) {
      const d = deps({ environments, actions: drop });
      const a = await decide(req(), d);
      expect(a.effect).toBe("deny");
      expect(a.rule?.name).toBe("no-production-drops");
      expect(a.reason).toBe("no dropped tables in production");
      expect(a.decided).toEqual({ action: "database.drop", target: "orders", environment: "production" });
      expect(d.asked.map((r) => r.environment).sort()).toEqual(["production", "staging"]);
      expect(d.rows).toHaveLength(1);
      expect(d.rows[0]?.request).toMatchObject({ environment: "production", environments });
      expect(d.rows[0]?.ruleId).toBe("no-production-drops");
    }
  });

  test("the row replays exactly: the deciding environment reproduces it, the other would not", async () => {
    const d = deps({ environments: ["staging", "production"], actions: drop });
    await decide(req(), d);
    const r = await replays(d.rows[0]);
    expect(r.differences).toEqual([]);
    expect(r.replayed).toMatchObject({ effect: "deny", ruleId: "no-production-drops" });
    const row = d.rows[0];
    const asStaging = row?.request ? { ...row, request: { ...row.request, environment: "staging" } } : row;
    expect((await replays(asStaging)).reproduces).toBe(false);
  });

  test("an ask in one environment beats an allow in the other; the hold is bound to the one that asked", async () => {
    const pending = dir.join("pending-envs");
    const d = deps({ environments: ["staging", "production"], actions: migrate, pending });
    const first = await decide(req({ command: "migrate" }), d);
    expect(first.effect).toBe("ask");
    expect(first.rule?.name).toBe("production-migrations-ask");
    const hold = readHold(pending, first.holdId ?? "");
    expect(hold?.environment).toBe("production");
    expect(hold?.fingerprint).toBe(
      fingerprint({ agent: "claude-code", action: "database.migrate", target: "orders", environment: "production" }),
    );
    expect((await replays(d.rows[0])).reproduces).toBe(true);
    answerHold(pending, first.holdId ?? "", { by: "sam", grant: true, nowMs: NOW });
    const retry = await decide(req({ command: "migrate" }), d);
    expect(retry.effect).toBe("allow");
    expect(retry.reason).toContain("approved by sam");
  });

  test("a grant given in staging is not spent on production's question", async () => {
    const pending = dir.join("pending-staging-grant");
    const staged = deps({ environments: ["staging"], actions: drop, pending });
    const asked = await decide(req(), staged);
    expect(asked.effect).toBe("ask");
    answerHold(pending, asked.holdId ?? "", { by: "sam", grant: true, nowMs: NOW });
    const both = await decide(req(), deps({ environments: ["staging", "production"], actions: drop, pending }));
    expect(both.effect).toBe("deny");
    expect((await decide(req(), staged)).effect).toBe("allow");
  });

  test("each environment sits against the declared scope on its own", async () => {
    const scope: DeclaredScope = { paths: [], repos: [], services: [], envs: ["staging"], expect: [] };
    const deploy = [act("deploy.service", "write", ["api"])];
    const inScope = await decide(req(), deps({ environments: ["staging"], scope, actions: deploy }));
    expect(inScope.effect).toBe("allow");
    const d = deps({ environments: ["staging", "production"], scope, actions: deploy });
    const out = await decide(req(), d);
    expect(out.effect).toBe("deny");
    expect(d.rows[0]?.request).toMatchObject({ environment: "production", scope: "out_of_scope" });
    expect((await replays(d.rows[0])).reproduces).toBe(true);
  });

  test("an environment the rules cannot be asked about fails closed in enforce", async () => {
    const broken: RuleSetView = {
      ...ruleSet,
      evaluate(r, facts, at) {
        if (r.environment === "production") throw new Error("no answer for production");
        return ruleSet.evaluate(r, facts, at);
      },
    };
    const a = await decide(req(), deps({ environments: ["staging", "production"], actions: migrate, rules: broken }));
    expect(a.effect).toBe("deny");
    expect(a.reason).toContain("no answer for production");
  });
});

describe("one environment or none behaves as before", () => {
  test("one: evaluated once, recorded without a list", async () => {
    const d = deps({ environments: ["production"], actions: drop });
    const a = await decide(req(), d);
    expect(a.effect).toBe("deny");
    expect(d.asked).toHaveLength(1);
    expect(d.rows[0]?.request?.environment).toBe("production");
    expect(d.rows[0]?.request?.environments).toBeUndefined();
    expect(a.decided).toEqual({ action: "database.drop", target: "orders", environment: "production" });
  });

  test("none: evaluated once without an environment, so no environment rule applies", async () => {
    const d = deps({ actions: drop });
    const a = await decide(req(), d);
    expect(a.effect).toBe("allow");
    expect(d.asked).toHaveLength(1);
    expect(d.asked[0]?.environment).toBeUndefined();
    expect(d.rows[0]?.request?.environment).toBeUndefined();
    expect(a.decided).toEqual({ action: "database.drop", target: "orders" });
  });
});

describe("a run's session start", () => {
  test("carries every declared environment to the egress proxy's request; an older file's one still reads", () => {
    const home = dir.join(`home-${crypto.randomUUID()}`);
    const paths = memnoxPaths({ HOME: home, MEMNOX_HOME: `${home}/.memnox` });
    const at = { epochMs: NOW, utcOffsetMinutes: 0 };
    noteSessionStart(paths, {
      session: "ses_two",
      agent: "claude",
      cwd: home,
      startedAt: new Date(NOW).toISOString(),
      environments: ["staging", "production"],
    });
    const two = egressRequest(paths, "api.example", { session: "ses_two" }, at, "d", undefined, "1");
    expect(two.caller.environments).toEqual(["staging", "production"]);
    mkdirSync(`${paths.root}/sessions`, { recursive: true });
    const old = { session: "ses_old", agent: "claude", cwd: home, startedAt: "2026-11-30T11:00:00.000Z" };
    writeFileSync(`${paths.root}/sessions/ses_old.json`, JSON.stringify({ ...old, environment: "production" }));
    expect(sessionStart(paths, "ses_old")?.environments).toEqual(["production"]);
  });
});
