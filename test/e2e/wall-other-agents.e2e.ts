// The agent wall around Codex's and Gemini CLI's shells, each by its own mechanism (Codex's BASH_ENV start-up file,
// Gemini's BeforeTool hook), in real sessions against scripted models in enforce: a read computed at run time never
// reaches the model, a start-up file written through a link stays as it was, and ordinary commands run.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { codexConfig, listHooks, runCodex, scriptedResponses, trustAsCodexDoes } from "../support/codex.ts";
import { type RunningDaemon, startDaemon } from "../support/daemon.ts";
import { geminiSettings, runGemini, scriptedGemini } from "../support/gemini.ts";
import { gitRepo } from "../support/git.ts";
import { runBinary } from "../support/index.ts";
import { kernelAbi, wallDir, wallHome } from "../support/wall.ts";
import { CANARY, KEY_TEXT } from "../support/walled-claude.ts";

const abi = await kernelAbi();
const home = wallHome({ ".ssh/id_ed25519": KEY_TEXT, ".bashrc": "# the person's own\n" });
const managed = wallDir("memnox-managed");
const env = (extra: Record<string, string> = {}) => home.env({ MEMNOX_CLAUDE_MANAGED_DIR: managed.path, ...extra });
const repo = gitRepo({ "README.md": "x\n" });
let daemon: RunningDaemon | undefined;

const READ = `python3 -c 'import os;print(open(os.path.join(os.environ["HOME"],".ssh","id_"+"ed25519")).read())'`;
const link = (name: string) => `ln ~/.bashrc ./${name} && echo '# through a link' >> ./${name}`;

beforeAll(async () => {
  if (abi < 2) return;
  codexConfig(home.home, "http://127.0.0.1:9/v1");
  geminiSettings(home.home);
  for (const step of [
    ["setup", "--yes", "--enforce"],
    ["protect", "--wall"],
  ]) {
    const r = await runBinary("memnox", step, { env: env(), cwd: repo.path });
    if (r.code !== 0) throw new Error(`memnox ${step.join(" ")}: ${r.stdout}${r.stderr}`);
  }
  daemon = await startDaemon(home, { env: { MEMNOX_CLAUDE_MANAGED_DIR: managed.path } });
}, 120_000);

afterAll(async () => {
  await daemon?.stop();
  repo[Symbol.dispose]();
  managed[Symbol.dispose]();
  home[Symbol.dispose]();
});

describe.skipIf(abi < 2)("Codex 0.171: every command through its start-up file into the wall", () => {
  test("a computed read and a link to a start-up file fail; git status runs", async () => {
    await using model = scriptedResponses([
      { cmd: READ },
      { cmd: link("rc-codex") },
      { cmd: "git status --short && echo ok-codex" },
    ]);
    codexConfig(home.home, model.url);
    trustAsCodexDoes(home.home, await listHooks(home.home, repo.path));
    const run = await runCodex(home.home, repo.path, "look around", { MEMNOX_CLAUDE_MANAGED_DIR: managed.path });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(JSON.stringify(model.requests)).not.toContain(CANARY);
    expect(readFileSync(join(home.home, ".bashrc"), "utf8")).toBe("# the person's own\n");
    // The kernel's own words: the hook let both through, the wall refused them.
    const outputs = [...model.outputs().values()].join("\n");
    expect(outputs).toContain("Permission denied");
    expect(outputs).toContain("Invalid cross-device link");
    expect(outputs).toContain("ok-codex");
  }, 180_000);
});

describe.skipIf(abi < 2)("Gemini CLI 0.61: every command its hook allows into the wall", () => {
  test("a computed read and a link to a start-up file fail; git status runs", async () => {
    await using model = scriptedGemini([
      { shell: READ },
      { shell: link("rc-gemini") },
      { shell: "git status --short && echo ok-gemini" },
    ]);
    const run = await runGemini(home.home, repo.path, model.url, "look around", {
      MEMNOX_CLAUDE_MANAGED_DIR: managed.path,
    });
    expect(run.code, run.stderr.slice(-2000)).toBe(0);
    expect(JSON.stringify(model.requests)).not.toContain(CANARY);
    expect(readFileSync(join(home.home, ".bashrc"), "utf8")).toBe("# the person's own\n");
    const outputs = JSON.stringify(model.results());
    expect(outputs).toContain("Permission denied");
    expect(outputs).toContain("Invalid cross-device link");
    expect(outputs).toContain("ok-gemini");
  }, 180_000);
});
