// `memnox run --envs staging,production` with the compiled binary: a production-only deny applies to a call the agent
// makes, the row names production as the environment that decided, and `why --verify` reproduces it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "x\n" });

const RULES = `version = 1
[[policies]]
name = "production-git-frozen"
[policies.match]
actions = ["git.*"]
environments = ["production"]
[policies.decision]
effect = "deny"
reason = "no git from an agent while production is declared"
`;

beforeAll(async () => {
  const bin = await compiledBinary();
  const binDir = join(home.memnoxHome, "bin");
  mkdirSync(binDir, { recursive: true });
  symlinkSync(bin, join(binDir, "git"));
  writeFileSync(join(home.memnoxHome, "config.toml"), `mode = "enforce"\n`);
  writeFileSync(repo.join("memnox.policies.toml"), RULES);
});

afterAll(() => {
  for (const d of [home, repo]) d[Symbol.dispose]();
});

const env = (extra: Record<string, string> = {}) => home.env({ SHELL: "/bin/bash", ...extra });
const memnox = (args: string[], extra: Record<string, string> = {}) =>
  runBinary("memnox", args, { env: env(extra), cwd: repo.path });
const runWith = (envs: string, extra: Record<string, string> = {}) =>
  memnox(["run", "--no-milestone", "--envs", envs, "--", "bash", "-c", 'echo "$MEMNOX_ENV"; git status -s'], extra);

interface Row {
  readonly id: string;
  readonly operation: string;
  readonly effect: string;
  readonly agentSessionId?: string;
}

async function lastGitRow(): Promise<Row | undefined> {
  const t = JSON.parse((await memnox(["timeline", "--json"])).stdout) as { events: Row[] };
  return t.events.filter((e) => e.operation.startsWith("git.")).at(-1);
}

describe("memnox run --envs with several environments", () => {
  test("staging alone: the production rule does not apply and git runs", async () => {
    const r = await runWith("staging");
    expect(r.stdout.split("\n")[0]).toBe("staging");
    expect(r.code).toBe(0);
    expect((await lastGitRow())?.effect).toBe("allow");
  });

  test("staging,production: the production-only deny applies, names production, and why --verify reproduces it", async () => {
    const r = await runWith("staging,production");
    expect(r.stdout.split("\n")[0]).toBe("staging,production");
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("no git from an agent while production is declared");
    const row = await lastGitRow();
    expect(row?.effect).toBe("deny");
    const why = JSON.parse((await memnox(["why", row?.id ?? "", "--verify", "--json"])).stdout) as {
      rule: { name: string } | null;
      evidence: { environment: string | null; environments: string[] };
      verify: { reproduces: boolean; replayed: { effect: string; ruleId: string | null } };
    };
    expect(why.rule?.name).toBe("production-git-frozen");
    expect(why.evidence.environment).toBe("production");
    expect(why.evidence.environments).toEqual(["staging", "production"]);
    expect(why.verify).toMatchObject({
      reproduces: true,
      replayed: { effect: "deny", ruleId: "production-git-frozen" },
    });
    const human = await memnox(["why", row?.id ?? ""]);
    expect(human.stdout).toContain("env     production, the strictest of staging, production");
  });

  test("a narrower MEMNOX_ENV inherited from the shell does not stand in for what the run declared", async () => {
    const r = await runWith("staging,production", { MEMNOX_ENV: "staging" });
    expect(r.stdout.split("\n")[0]).toBe("staging,production");
    expect(r.code).toBe(126);
  });
});
