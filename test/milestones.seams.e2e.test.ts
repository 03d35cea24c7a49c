// Automatic milestones where the agent acts: before a hooked session's first write, before a command that destroys work.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "src/a.txt": "alpha\n", "src/b.txt": "beta\n", "README.md": "hi\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

let env: Record<string, string> = {};
beforeAll(async () => {
  const bin = await compiledBinary();
  mkdirSync(join(home.memnoxHome, "bin"), { recursive: true });
  symlinkSync(bin, join(home.memnoxHome, "bin", "rm"));
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "observe"\n');
  env = home.env({ PATH: `${join(home.memnoxHome, "bin")}:${process.env.PATH ?? ""}`, MEMNOX_SESSION: "ses_m1" });
});

const milestones = async () =>
  (
    JSON.parse((await runBinary("memnox", ["rewind", "--list", "--json"], { env, cwd: repo.path })).stdout) as {
      milestones: { id: string; reason: string; session: string | null }[];
    }
  ).milestones;

describe("a hooked session", () => {
  test("keeps one milestone before its first write, and none before the second", async () => {
    const payload = (file: string) =>
      JSON.stringify({
        session_id: "claude-s1",
        cwd: repo.path,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Write",
        tool_input: { file_path: repo.join(file), content: "x" },
        tool_use_id: `toolu_${file}`,
      });
    const hookEnv = { ...env, MEMNOX_SESSION: "" };
    const first = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
      env: hookEnv,
      stdin: payload("new1.txt"),
      cwd: repo.path,
    });
    expect(first.code).toBe(0);
    await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
      env: hookEnv,
      stdin: payload("new2.txt"),
      cwd: repo.path,
    });
    const kept = (await milestones()).filter((m) => m.session === "claude-s1");
    expect(kept).toHaveLength(1);
    expect(kept[0]?.reason).toContain("first write");
  });
});

describe("a shell seam", () => {
  test("keeps a milestone before rm -rf, and rewind puts the files back on the record", async () => {
    const r = await runBinary("rm", ["-rf", "src"], { env, cwd: repo.path });
    expect(r.code).toBe(0);
    expect(existsSync(repo.join("src"))).toBe(false);
    const m = (await milestones()).find((x) => x.session === "ses_m1");
    expect(m?.reason).toContain("destroys work");
    const back = await runBinary("memnox", ["rewind", "--to", m?.id ?? ""], { env, cwd: repo.path });
    expect(back.code).toBe(0);
    expect(readFileSync(repo.join("src", "a.txt"), "utf8")).toBe("alpha\n");
    const t = JSON.parse((await runBinary("memnox", ["timeline", "--json"], { env, cwd: repo.path })).stdout) as {
      events: { operation: string }[];
    };
    expect(t.events.some((e) => e.operation === "memnox.rewind")).toBe(true);
  });
});
