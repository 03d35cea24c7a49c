// Parsed rule files are kept by content: unchanged files skip parsing, a changed file is read afresh.
import { afterAll, expect, test } from "bun:test";
import { readdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { loadRuleSet } from "../src/policy/load/index.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { fakeHome, gitRepo } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "x\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

const rule = (name: string, effect: string) =>
  `version = 1\n[[policies]]\nname = "${name}"\n[policies.match]\nactions = ["git.push"]\n[policies.decision]\neffect = "${effect}"\n`;

test("a cached parse gives the same rule set, and an edit is never served stale", () => {
  const env = home.env();
  const paths = memnoxPaths(env);
  const cacheDir = join(home.memnoxHome, "cache", "rules");
  writeFileSync(repo.join("memnox.policies.toml"), rule("pushes", "ask"));
  const first = loadRuleSet({ cwd: repo.path, env, paths, cacheDir });
  expect(readdirSync(cacheDir)).toHaveLength(1);
  const second = loadRuleSet({ cwd: repo.path, env, paths, cacheDir });
  expect(second.hash).toBe(first.hash);
  expect(second.checked[0]?.rules).toEqual(first.checked[0]?.rules ?? []);
  writeFileSync(repo.join("memnox.policies.toml"), rule("pushes", "deny"));
  const edited = loadRuleSet({ cwd: repo.path, env, paths, cacheDir });
  expect(edited.checked.find((c) => c.path.endsWith("memnox.policies.toml"))?.rules[0]?.decision.effect).toBe("deny");
  expect(edited.hash).not.toBe(first.hash);
});
