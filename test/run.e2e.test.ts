// `memnox run` with the compiled binary: the environment the agent gets, its exit code and signals, --transcript.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, fakeHome, gitRepo, runBinary } from "./support/index.ts";
import { whenChanged } from "./support/wait.ts";

const home = fakeHome();
const repo = gitRepo({ "README.md": "x\n" });
let bin = "";

beforeAll(async () => {
  bin = await compiledBinary();
  const binDir = join(home.memnoxHome, "bin");
  mkdirSync(binDir, { recursive: true });
  symlinkSync(bin, join(binDir, "git"));
});

afterAll(() => {
  for (const d of [home, repo]) d[Symbol.dispose]();
});

const env = () => home.env({ SHELL: "/bin/bash" });
const run = (args: string[]) => runBinary("memnox", ["run", "--no-milestone", ...args], { env: env(), cwd: repo.path });

describe("memnox run", () => {
  test("the agent gets the interceptors first on PATH, the governed shell, its session, name and scope", async () => {
    const show =
      'printf "%s\\n" "$PATH" "$SHELL" "$CLAUDE_CODE_SHELL" "$MEMNOX_REAL_SHELL" "$MEMNOX_SESSION" "$MEMNOX_AGENT_NAME" "$MEMNOX_ENV" "$MEMNOX_SCOPE"';
    const r = await run([
      "--task",
      "fix the login",
      "--paths",
      repo.path,
      "--envs",
      "staging",
      "--expect",
      "git.*",
      "--",
      "bash",
      "-c",
      show,
    ]);
    expect(r.code).toBe(0);
    const [path, shell, claudeShell, real, session, agent, environment, scope] = r.stdout.trim().split("\n");
    const binDir = join(home.memnoxHome, "bin");
    expect(path?.split(":")[0]).toBe(binDir);
    expect(shell).toBe(join(binDir, "memnox-bash"));
    expect(claudeShell).toBe(shell);
    expect(existsSync(shell ?? "")).toBe(true);
    expect(real).toBe("/bin/bash");
    expect(session).toMatch(/^ses_/);
    expect(agent).toBe("bash");
    expect(environment).toBe("staging");
    expect(JSON.parse(scope ?? "{}")).toEqual({
      task: "fix the login",
      paths: [repo.path],
      repos: [],
      services: [],
      envs: ["staging"],
      expect: ["git.*"],
    });
    expect(r.stderr).toContain(`session ${session} (bash) started`);
  });

  test("with no interceptor linked, it says a CLI started directly is not seen, and how to link them", async () => {
    const bare = fakeHome();
    const r = await runBinary("memnox", ["run", "--no-milestone", "--", "true"], {
      env: bare.env({ SHELL: "/bin/bash" }),
      cwd: repo.path,
    });
    bare[Symbol.dispose]();
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("no PATH interceptors");
    expect(r.stderr).toContain("memnox protect --interceptors");
    const linked = await run(["--", "true"]);
    expect(linked.stderr).not.toContain("no PATH interceptors");
  });

  test("hands back the agent's exit code", async () => {
    const r = await run(["--", "bash", "-c", "exit 7"]);
    expect(r.code).toBe(7);
  });

  test("a SIGTERM sent to memnox reaches the agent, and the agent's own exit code comes back", async () => {
    const marks = join(home.home, "marks");
    mkdirSync(marks, { recursive: true });
    const script = `trap 'echo got > ${marks}/term; exit 5' TERM; echo up > ${marks}/ready; while :; do sleep 0.05; done`;
    const child = Bun.spawn([bin, "run", "--no-milestone", "--", "bash", "-c", script], {
      env: env(),
      cwd: repo.path,
      stdin: "ignore",
      stdout: "ignore",
      stderr: "ignore",
    });
    await whenChanged(marks, () => existsSync(join(marks, "ready")));
    child.kill("SIGTERM");
    expect(await child.exited).toBe(5);
    expect(readFileSync(join(marks, "term"), "utf8")).toBe("got\n");
  });

  test("--transcript keeps what the agent printed, and trace shows its tail beside a call it made", async () => {
    const r = await run(["--transcript", "--", "bash", "-c", "echo kept-in-the-transcript; git --version"]);
    expect(r.code).toBe(0);
    expect(r.stdout).toContain("kept-in-the-transcript");
    const dir = join(home.memnoxHome, "transcripts");
    const logs = readdirSync(dir).filter((f) => f.endsWith(".log"));
    expect(logs.length).toBe(1);
    const session = logs[0]?.replace(/\.log$/, "") ?? "";
    expect(readFileSync(join(dir, logs[0] ?? ""), "utf8")).toContain("kept-in-the-transcript");
    const t = JSON.parse(
      (await runBinary("memnox", ["timeline", "--json"], { env: env(), cwd: repo.path })).stdout,
    ) as {
      events: { id: string; agentSessionId?: string; operation: string }[];
    };
    const call = t.events.find((e) => e.agentSessionId === session && e.operation.startsWith("git"));
    expect(call).toBeDefined();
    const traced = JSON.parse(
      (await runBinary("memnox", ["trace", call?.id ?? "", "--json"], { env: env(), cwd: repo.path })).stdout,
    ) as { transcript: { tail: string[] } | null };
    expect(traced.transcript?.tail.join("\n")).toContain("kept-in-the-transcript");
  });
});
