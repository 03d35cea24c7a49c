// memnox's reading of Codex's hook trust is Codex's own: for memnox's entries as setup writes them, and for entries a
// person changed, the key and hash memnox computes are the ones `codex app-server` reports for /hooks, and memnox calls
// a hook active exactly when Codex says `trusted`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { run } from "../src/seams/cli/index.ts";
import { parseDocument } from "../src/wire/edit/document.ts";
import { codexTrust } from "../src/wire/hooks/codex-trust.ts";
import { agentHookState, installAgentHook } from "../src/wire/hooks/install.ts";
import { codexConfig, listHooks, trustAsCodexDoes } from "./support/codex.ts";
import { fakeHome, gitRepo, testContext } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "x\n" });
const hooksFile = join(home.home, ".codex", "hooks.json");

/** memnox's own reading: the hooks file against config.toml's `[hooks.state]`. */
function ours() {
  const config = parseDocument("toml", readFileSync(join(home.home, ".codex", "config.toml"), "utf8"));
  return codexTrust(hooksFile, parseDocument("json", readFileSync(hooksFile, "utf8")), config, () => true);
}

beforeAll(() => {
  codexConfig(home.home, "http://127.0.0.1:9/v1");
  const { ctx } = testContext(home, { cwd: repo.path });
  installAgentHook(ctx, "codex");
});

afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

describe("Codex's hook trust, against codex app-server", () => {
  test("every entry memnox writes: the same keys and hashes Codex reports, all untrusted until a person trusts them", async () => {
    const listed = await listHooks(home.home, repo.path);
    expect(listed.length).toBe(5);
    expect(new Map(ours().map((h) => [h.key, h.currentHash]))).toEqual(
      new Map(listed.map((h) => [h.key, h.currentHash])),
    );
    expect(listed.every((h) => h.trustStatus === "untrusted")).toBe(true);
    const { ctx } = testContext(home, { cwd: repo.path });
    expect(agentHookState(ctx, "codex").trust?.active).toBe(false);
  });

  test("trusted as /hooks trusts them: Codex says trusted and memnox says active", async () => {
    trustAsCodexDoes(home.home, await listHooks(home.home, repo.path));
    const listed = await listHooks(home.home, repo.path);
    expect(listed.map((h) => h.trustStatus)).toEqual(Array(5).fill("trusted"));
    const { ctx } = testContext(home, { cwd: repo.path });
    expect(agentHookState(ctx, "codex").trust?.active).toBe(true);
  });

  test("one field changed (timeout 30 -> 31, a status message added): Codex says modified, and so does doctor --wiring", async () => {
    const text = readFileSync(hooksFile, "utf8");
    writeFileSync(
      hooksFile,
      text
        .replace('"timeout": 30', '"timeout": 31')
        .replace('"timeout": 3\n', '"timeout": 3,\n            "statusMessage": "memnox"\n'),
    );
    const listed = await listHooks(home.home, repo.path);
    const byKey = new Map(ours().map((h) => [h.key, h]));
    for (const h of listed) {
      expect(byKey.get(h.key)?.currentHash).toBe(h.currentHash);
      expect(byKey.get(h.key)?.status).toBe(h.trustStatus as never);
    }
    expect(
      listed
        .filter((h) => h.trustStatus === "modified")
        .map((h) => h.eventName)
        .sort(),
    ).toEqual(["preToolUse", "sessionEnd"]);
    const { ctx, io } = testContext(home, { cwd: repo.path, args: ["doctor", "--wiring", "--json"] });
    await run(ctx).catch(() => 1);
    const report = JSON.parse(io.stdout()) as {
      lines: { seam: string; status: string; words: string; fix?: string }[];
    };
    const line = report.lines.find((l) => l.seam === "hooks:codex");
    expect(line?.status).toBe("warn");
    expect(line?.words).toContain("modified, not active");
    expect(line?.fix).toContain("memnox setup");
  });

  test("memnox setup puts memnox's entries back as they were trusted, and Codex trusts them again", async () => {
    const { ctx } = testContext(home, { cwd: repo.path });
    installAgentHook(ctx, "codex");
    const listed = await listHooks(home.home, repo.path);
    expect(listed.map((h) => h.trustStatus)).toEqual(Array(5).fill("trusted"));
    expect(agentHookState(ctx, "codex").trust?.active).toBe(true);
  });
});
