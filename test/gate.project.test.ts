// The project facts the gate reads for the resolver, from real files: only what a line could use, only inside the
// checkout, never a settings file or a secret, and the verdict they lead to under the baseline.
import { afterAll, describe, expect, test } from "bun:test";
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { assess } from "../src/gate/assess.ts";
import { projectFacts, scriptText } from "../src/gate/project.ts";
import { gateDeps } from "../src/gate/wiring.ts";
import { baselineRules } from "../src/policy/baseline.ts";
import { renderRuleFile } from "../src/policy/render.ts";
import { verbTables } from "../src/resolve/index.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const repo = gitRepo({
  "package.json": JSON.stringify({
    name: "shop",
    scripts: { test: "vitest run", release: "npm publish", lint: "eslint ." },
    devDependencies: { vitest: "^2", eslint: "^9" },
  }),
  "node_modules/.bin/vitest": "#!/bin/sh\n",
  "packages/web/package.json": JSON.stringify({
    name: "web",
    scripts: { dev: "vite" },
    dependencies: { react: "^19" },
  }),
  "pyproject.toml":
    '[project]\nname = "svc"\ndependencies = ["httpx>=0.27"]\n[dependency-groups]\ndev = ["ruff==0.6", "pytest"]\n',
  "requirements-dev.txt": "black==24.1\n-r requirements.txt\n",
  "scripts/check.sh": "#!/bin/sh\nnpm test\n",
  "scripts/release.sh": "#!/usr/bin/env bash\nnpm test\ngit push --force origin main\n",
  ".env": "SECRET=1\n",
  "config.json": "{}\n",
});
const home = fakeHome();
afterAll(() => {
  repo[Symbol.dispose]();
  home[Symbol.dispose]();
});

describe("what the gate reads for the resolver", () => {
  test("package manifests from the working directory up to the checkout: scripts of the nearest, every declaration", () => {
    const f = projectFacts(repo.join("packages/web"), "npm run dev");
    expect(f.repository).toBe(repo.path);
    expect(f.packageDir).toBe(repo.join("packages/web"));
    expect(f.scripts).toEqual({ dev: "vite" });
    expect(f.packages).toEqual(expect.arrayContaining(["web", "react", "shop", "vitest", "eslint"]));
    expect(f.bins).toEqual(["vitest"]);
  });

  test("python declarations from pyproject and requirements files", () => {
    const f = projectFacts(repo.path, "uvx ruff check .");
    expect(f.packages).toEqual(expect.arrayContaining(["httpx", "ruff", "pytest", "black"]));
    expect(f.scripts).toBeUndefined();
  });

  test("only the manifests the line could use: a git status reads none of them", () => {
    expect(projectFacts(repo.path, "git status")).toEqual({ repository: repo.path });
  });

  test("a script inside the checkout is read; a dotfile, a settings file or anything outside is not", () => {
    expect(scriptText(repo.join("scripts/check.sh"), repo.path)).toBe("#!/bin/sh\nnpm test\n");
    expect(scriptText(repo.join(".env"), repo.path)).toBeUndefined();
    mkdirSync(repo.join(".venv/bin"), { recursive: true });
    writeFileSync(repo.join(".venv/bin/activate"), "deactivate () { :; }\n");
    expect(scriptText(repo.join(".venv/bin/activate"), repo.path)).toBe("deactivate () { :; }\n");
    mkdirSync(repo.join(".git/hooks"), { recursive: true });
    writeFileSync(repo.join(".git/hooks/pre-commit"), "#!/bin/sh\n");
    expect(scriptText(repo.join(".git/hooks/pre-commit"), repo.path)).toBeUndefined();
    expect(scriptText(repo.join("config.json"), repo.path)).toBeUndefined();
    expect(scriptText(join(home.home, "x.sh"), repo.path)).toBeUndefined();
    const big = repo.join("scripts/big.sh");
    writeFileSync(big, `#!/bin/sh\n${"echo x\n".repeat(20_000)}`);
    expect(scriptText(big, repo.path)).toBeUndefined();
    mkdirSync(repo.join("scripts/dir.sh"), { recursive: true });
    expect(scriptText(repo.join("scripts/dir.sh"), repo.path)).toBeUndefined();
  });
});

describe("the verdicts they lead to, under the baseline in enforce", () => {
  const base = baselineRules(verbTables(), { date: "2026-11-30" });
  writeFileSync(join(home.memnoxHome, "machine.policies.toml"), renderRuleFile([], base.machine));
  writeFileSync(join(home.memnoxHome, "repo.policies.toml"), renderRuleFile([], base.repository));
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  const { ctx } = testContext(home, {
    cwd: repo.path,
    env: { MEMNOX_POLICIES: join(home.memnoxHome, "repo.policies.toml") },
  });
  const deps = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
  const verdict = (command: string) =>
    assess({ surface: "hook", command, cwd: repo.path, canAsk: true }, deps, deps.now()).combined;

  test.each([
    ["npm test", "allow"],
    ["npm run lint", "allow"],
    ["npx vitest run", "allow"],
    ["npx eslint .", "allow"],
    ["sh scripts/check.sh", "allow"],
    ["./scripts/check.sh", "allow"],
    ["rm -rf node_modules dist", "allow"],
    ["npm run release", "ask"],
    ["npx cowsay hi", "ask"],
    ["sh scripts/release.sh", "deny"],
    ["bash scripts/release.sh", "deny"],
    ["rm .env", "ask"],
    ["rm -rf .git", "ask"],
  ])("%s: %s", (command, effect) => expect(verdict(command).effect).toBe(effect as "allow" | "ask" | "deny"));
});
