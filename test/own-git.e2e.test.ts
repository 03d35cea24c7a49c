// memnox never wedges itself: with its own interceptors first on PATH and the baseline in enforce, the milestone it
// keeps before a delete or a session's first write runs the real git, asks nobody, and is nobody's action.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary } from "./support/index.ts";

const home = fakeHome();
const repo = gitRepo({ "src/a.ts": "alpha\n", "src/b.ts": "beta\n", "src/c.ts": "gamma\n", "README.md": "hi\n" });
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

const bin = () => join(home.memnoxHome, "bin");
const shielded = (extra: Record<string, string> = {}) =>
  home.env({ SHELL: "/bin/bash", PATH: `${bin()}:${process.env.PATH ?? ""}`, ...extra });
const memnox = (args: string[], env = shielded()) => runBinary("memnox", args, { env, cwd: repo.path });
const mode = (m: string) => writeFileSync(join(home.memnoxHome, "config.toml"), `mode = "${m}"\n`);

interface Row {
  readonly operation: string;
  readonly agent?: string;
  readonly surface: string;
  readonly reason?: string;
}
const rows = async () =>
  (JSON.parse((await memnox(["timeline", "--json", "--since", "3650d"])).stdout) as { events: Row[] }).events;
const milestones = async () =>
  (
    JSON.parse((await memnox(["rewind", "--list", "--json"])).stdout) as {
      milestones: { id: string; reason: string; session: string | null }[];
    }
  ).milestones;

beforeAll(async () => {
  await compiledBinary();
  const plain = home.env();
  expect((await runBinary("memnox", ["protect", "--yes"], { env: plain, cwd: repo.path })).code).toBe(0);
  expect((await runBinary("memnox", ["protect", "--interceptors"], { env: plain, cwd: repo.path })).code).toBe(0);
  expect(existsSync(join(bin(), "git"))).toBe(true);
  expect(existsSync(join(bin(), "rm"))).toBe(true);
});

describe("memnox's own git, behind its own interceptors", () => {
  test("the git it runs is the one found at install, never ~/.memnox/bin/git", () => {
    const recorded = JSON.parse(readFileSync(join(home.memnoxHome, "real-binaries.json"), "utf8")) as {
      git?: string;
    };
    expect(recorded.git).toBe(Bun.which("git", { PATH: process.env.PATH ?? "" }) ?? "");
    expect(recorded.git?.startsWith(bin())).toBe(false);
  });

  test("in enforce, `memnox run -- bash -c 'rm src/a.ts'` finishes with no approval and leaves a milestone", async () => {
    mode("enforce");
    const r = await Promise.race([
      memnox(["run", "--", "bash", "-c", "rm src/a.ts"]),
      Bun.sleep(30_000).then(() => ({ code: -1, stdout: "", stderr: "timed out: something waited for a person" })),
    ]);
    expect(r.stderr).not.toContain("held for a person");
    expect(r.code).toBe(0);
    expect(existsSync(repo.join("src/a.ts"))).toBe(false);
    const waiting = JSON.parse((await memnox(["approvals", "--json"])).stdout) as { holds?: unknown[] };
    expect(waiting.holds ?? []).toEqual([]);
    const kept = (await milestones()).find((m) => m.reason.includes("destroys work"));
    expect(kept).toBeDefined();
    expect((await memnox(["rewind", "--to", kept?.id ?? ""])).code).toBe(0);
    expect(readFileSync(repo.join("src/a.ts"), "utf8")).toBe("alpha\n");
    expect((await rows()).filter((e) => e.operation.startsWith("git."))).toEqual([]);
  });

  test("a hooked session's first write keeps its milestone at once, in enforce, with the interceptors on PATH", async () => {
    mode("enforce");
    const payload = JSON.stringify({
      session_id: "claude-own-git",
      cwd: repo.path,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Write",
      tool_input: { file_path: repo.join("src/new.ts"), content: "x" },
      tool_use_id: "toolu_own_git",
    });
    const started = performance.now();
    const r = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
      env: shielded(),
      stdin: payload,
      cwd: repo.path,
    });
    const took = performance.now() - started;
    expect(r.code).toBe(0);
    expect(took).toBeLessThan(20_000);
    expect((await milestones()).some((m) => m.session === "claude-own-git")).toBe(true);
  });

  test("in observe, the record holds the agent's own actions: no internal git rows, no agent called unknown", async () => {
    mode("observe");
    const r = await memnox(["run", "--", "bash", "-c", "rm src/b.ts && mv src/c.ts src/d.ts"]);
    expect(r.code).toBe(0);
    const all = await rows();
    expect(all.filter((e) => e.operation.startsWith("git."))).toEqual([]);
    expect(all.filter((e) => e.agent === "unknown")).toEqual([]);
    expect(all.some((e) => e.operation === "filesystem.delete" && e.agent === "bash")).toBe(true);
  });

  test("a milestone that cannot be kept is a recorded finding, and the call goes on", async () => {
    mode("enforce");
    const broken = join(home.home, "broken-git");
    writeFileSync(broken, "#!/bin/sh\necho 'fatal: this git is broken' >&2\nexit 128\n", { mode: 0o755 });
    const realBinaries = join(home.memnoxHome, "real-binaries.json");
    const before = readFileSync(realBinaries, "utf8");
    writeFileSync(realBinaries, JSON.stringify({ git: broken }));
    try {
      const payload = JSON.stringify({
        session_id: "claude-no-milestone",
        cwd: repo.path,
        hook_event_name: "PreToolUse",
        permission_mode: "default",
        tool_name: "Write",
        tool_input: { file_path: repo.join("src/other.ts"), content: "x" },
        tool_use_id: "toolu_no_milestone",
      });
      const r = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
        env: shielded(),
        stdin: payload,
        cwd: repo.path,
      });
      expect(r.code).toBe(0);
      expect(r.stdout).not.toContain('"deny"');
    } finally {
      writeFileSync(realBinaries, before);
    }
    const finding = (await rows()).find((e) => e.operation === "memnox.milestone");
    expect(finding).toMatchObject({ surface: "hook", agent: "claude-code" });
    expect(finding?.reason).toContain("no milestone could be kept");
  });
});
