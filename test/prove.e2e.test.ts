// doctor --prove against the real seams: the compiled binary set up on a fake machine, then each installed seam —
// every agent's hook command, the interceptor on PATH, the governed shell, git's pre-push, every wrapped MCP entry —
// asked to refuse a force push or a tool call. Absent seams decline; a seam that lets it through is caught.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { proveSeams } from "../src/wire/wiring.ts";
import type { ProofLine } from "../src/wire/wiring-lines.ts";
import { compiledBinary, fakeHome, fixtureTree, gitRepo, runBinary, testContext } from "./support/index.ts";

const home = fakeHome({
  ...fixtureTree("homes", "claude-code"),
  ...fixtureTree("homes", "codex"),
  ...fixtureTree("homes", "gemini-cli"),
  ...fixtureTree("homes", "cursor"),
  ...fixtureTree("homes", "windsurf"),
  ...fixtureTree("homes", "copilot-cli"),
  ...fixtureTree("homes", "opencode"),
});
const repo = gitRepo({ "a.txt": "a" });
const systemPath = process.env.PATH ?? "/usr/bin:/bin";
const bin = join(home.memnoxHome, "bin");
const said: string[] = [];

beforeAll(async () => {
  await compiledBinary();
  for (const args of [
    ["setup", "--yes"],
    ["protect", "--hooks"],
  ]) {
    const r = await runBinary("memnox", args, { env: home.env({ PATH: systemPath }), cwd: repo.path });
    said.push(r.stdout, r.stderr);
    if (r.code !== 0) throw new Error(`memnox ${args.join(" ")} exited ${r.code}: ${r.stderr}`);
  }
}, 120_000);

afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

const prove = (path: string) => proveSeams(testContext(home, { cwd: repo.path, env: { PATH: path } }).ctx);
const results = (lines: readonly ProofLine[]) => Object.fromEntries(lines.map((l) => [l.seam, l.result]));

describe("doctor --prove through the installed seams", () => {
  test("every seam setup and protect --hooks installed refuses, through the stable copy of the binary", async () => {
    const lines = await prove(`${bin}:${systemPath}`);
    said.push(JSON.stringify(lines));
    // Claude Code (folder trust) and Codex (/hooks) skip a hook nobody trusted yet: it refuses when run, but the agent
    // does not run it, which is what setup said waits on the person.
    expect(results(lines)).toEqual({
      "hooks:claude-code": "inactive",
      "hooks:codex": "inactive",
      "hooks:gemini-cli": "refused",
      "hooks:cursor": "refused",
      "hooks:windsurf": "refused",
      "hooks:copilot-cli": "refused",
      "hooks:opencode": "refused",
      interceptor: "refused",
      shell: "refused",
      "git-hook": "refused",
      "proxy:github": "refused",
      "proxy:docs": "refused",
      "proxy:sqlite": "refused",
      "proxy:linear": "refused",
      "proxy:notion": "refused",
    });
    const hook = lines.find((l) => l.seam === "hooks:gemini-cli");
    expect(hook?.words).toContain("refused it: memnox doctor --prove asked this seam to refuse");
    expect(lines.find((l) => l.seam === "hooks:claude-code")?.words).toContain("accept Claude Code's trust dialog");
    // Trusted as Claude Code records it, the same hook is proven.
    const state = home.join(".claude.json");
    const before = readFileSync(state, "utf8");
    const doc = JSON.parse(before) as { projects?: Record<string, unknown> };
    writeFileSync(
      state,
      JSON.stringify({ ...doc, projects: { ...doc.projects, [repo.path]: { hasTrustDialogAccepted: true } } }),
    );
    try {
      expect(results(await prove(`${bin}:${systemPath}`))["hooks:claude-code"]).toBe("refused");
    } finally {
      writeFileSync(state, before);
    }
    expect(readFileSync(home.join(".codex", "hooks.json"), "utf8")).toContain(join(home.memnoxHome, "app", "memnox"));
  }, 120_000);

  test("`memnox doctor --prove` from the compiled binary: every seam refuses, it exits 0 at once; --wiring reads the same machine", async () => {
    const env = home.env({ PATH: `${bin}:${systemPath}` });
    const prove = await runBinary("memnox", ["doctor", "--prove", "--json"], { env, cwd: repo.path });
    said.push(prove.stdout, prove.stderr);
    expect(prove.code).toBe(0);
    const lines = (JSON.parse(prove.stdout) as { lines: ProofLine[] }).lines;
    expect(lines.filter((l) => l.result !== "refused" && l.result !== "inactive")).toEqual([]);
    expect(lines).toHaveLength(15);
    const wiring = await runBinary("memnox", ["doctor", "--wiring"], { env, cwd: repo.path });
    said.push(wiring.stdout, wiring.stderr);
    expect(wiring.stdout).toContain("interceptors");
    expect(wiring.stdout).toContain("Codex: installed, not active until you trust it in Codex");
  }, 120_000);

  test("an interceptor that is not first on PATH has declined; a hook that lets the push through is caught", async () => {
    const cursor = home.join(".cursor", "hooks.json");
    const before = readFileSync(cursor, "utf8");
    const app = join(home.memnoxHome, "app", "memnox");
    writeFileSync(
      cursor,
      before.replace(`${app} hook cursor beforeShellExecution`, `/bin/true ${app} hook cursor beforeShellExecution`),
    );
    try {
      const lines = await prove(systemPath);
      said.push(JSON.stringify(lines));
      const r = results(lines);
      expect(r.interceptor).toBe("declined");
      expect(lines.find((l) => l.seam === "interceptor")?.words).toMatch(
        /^git on this PATH is .*, not memnox's interceptor/,
      );
      expect(r["hooks:cursor"]).toBe("allowed");
      expect(r["hooks:claude-code"]).toBe("inactive");
    } finally {
      writeFileSync(cursor, before);
    }
  }, 120_000);

  test("after uninstall every seam has declined, and the real ledger never saw a proof", async () => {
    const r = await runBinary("memnox", ["uninstall"], { env: home.env({ PATH: systemPath }), cwd: repo.path });
    said.push(r.stdout, r.stderr);
    expect(r.code).toBe(0);
    const lines = await prove(`${bin}:${systemPath}`);
    expect(new Set(lines.map((l) => l.result))).toEqual(new Set(["declined"]));
    const timeline = await runBinary("memnox", ["timeline", "--json"], {
      env: home.env({ PATH: systemPath }),
      cwd: repo.path,
    });
    expect(timeline.stdout).not.toContain("git.push-force");
    expect(timeline.stdout).not.toContain("doctor --prove");
  }, 120_000);

  test("no credential value reaches any output", () => {
    expect(said.join("\n")).not.toContain("canary");
  });
});
