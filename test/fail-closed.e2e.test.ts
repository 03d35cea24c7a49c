// Fail closed after setup, with the compiled binary: a damaged config.toml means the sealed mode (and doctor says
// so), a rule file that is there but wrong refuses naming it (a FIFO never hangs the hook), a hook answers deny in
// its agent's protocol from a deleted directory, without HOME, or when it cannot rule in time, and the interceptors
// and the governed shell keep to the home they were installed in whatever MEMNOX_HOME the caller passes.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import {
  copyFileSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import type { GateServices } from "../src/gate/types.ts";
import { handleHook } from "../src/seams/hook/handle.ts";
import { runProcess } from "./support/binary.ts";
import { fifo, type Governed, governedMachine, pushable, rows } from "./support/governed.ts";
import { fakeHome, hermeticEnv, runBinary, tempDir, testContext } from "./support/index.ts";

let g: Governed;
let config = "";

beforeAll(async () => {
  g = await governedMachine();
  config = readFileSync(join(g.home.memnoxHome, "config.toml"), "utf8");
}, 60_000);

afterAll(() => g[Symbol.dispose]());

function pre(command: string, cwd: string, mode = "default") {
  return JSON.stringify({
    session_id: "ses_closed",
    cwd,
    hook_event_name: "PreToolUse",
    permission_mode: mode,
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_${Math.random().toString(36).slice(2)}`,
  });
}

async function decision(command: string, cwd: string, env = g.env()) {
  const r = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], { env, cwd, stdin: pre(command, cwd) });
  const out = r.stdout ? JSON.parse(r.stdout).hookSpecificOutput : undefined;
  return {
    code: r.code,
    decision: out?.permissionDecision ?? "allow",
    reason: out?.permissionDecisionReason ?? "",
    raw: r,
  };
}

describe("config.toml damaged after setup means the sealed mode, never observe", () => {
  const file = () => join(g.home.memnoxHome, "config.toml");
  const damage: [string, () => void][] = [
    ["missing", () => unlinkSync(file())],
    ["empty", () => writeFileSync(file(), "")],
    [
      "a symlink to a file saying off",
      () => {
        const other = join(g.home.home, "elsewhere.toml");
        writeFileSync(other, 'mode = "off"\n');
        unlinkSync(file());
        symlinkSync(other, file());
      },
    ],
    [
      "a dangling symlink",
      () => {
        unlinkSync(file());
        symlinkSync("/nonexistent/config.toml", file());
      },
    ],
    [
      "a directory",
      () => {
        unlinkSync(file());
        mkdirSync(file());
      },
    ],
    ["edited by hand to observe", () => writeFileSync(file(), 'mode = "observe"\n')],
  ];

  test.each(damage)("%s: a force push is still refused, origin unchanged, and doctor says why", async (_, hurt) => {
    using p = pushable();
    p.diverge();
    const before = p.remoteHead();
    hurt();
    try {
      const h = await decision("git push --force origin main", p.repo.path);
      expect(h.decision).toBe("deny");
      const r = await runBinary("git", ["push", "-q", "--force", "origin", "main"], {
        env: g.env({}, true),
        cwd: p.repo.path,
      });
      expect(r.code).toBe(126);
      expect(p.remoteHead()).toBe(before);
      const d = await g.memnox(["doctor", "--json", "--no-probe"]);
      const ids = (JSON.parse(d.stdout) as { findings: { id: string; title: string }[] }).findings;
      expect(ids.find((f) => f.id === "config:sealed")?.title).toContain(
        "memnox holds the mode setup sealed (enforce)",
      );
    } finally {
      rmSync(file(), { recursive: true, force: true });
      writeFileSync(file(), config);
    }
  });
});

describe("a repository rule file that is there but wrong", () => {
  const kinds: [string, (path: string) => void][] = [
    ["a directory", (p) => mkdirSync(p)],
    ["a dangling symlink", (p) => symlinkSync("/nonexistent/rules.toml", p)],
    ["a FIFO", (p) => fifo(p)],
  ];

  test.each(kinds)("%s refuses in enforce naming the file, and answers at once", async (_, make) => {
    using p = pushable();
    const path = p.repo.join("memnox.policies.toml");
    make(path);
    const started = performance.now();
    const h = await decision("git status", p.repo.path);
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(h.code).toBe(0);
    expect(h.decision).toBe("deny");
    expect(h.reason).toContain(path);
    // A force push is refused whatever the repository's file is: the baseline is the machine's.
    expect((await decision("git push --force origin main", p.repo.path)).decision).toBe("deny");
  });

  test("one with no rules at all drops nothing: the machine's baseline still refuses a force push", async () => {
    using p = pushable();
    writeFileSync(p.repo.join("memnox.policies.toml"), "version = 1\n");
    p.diverge();
    const before = p.remoteHead();
    expect((await decision("git status", p.repo.path)).decision).toBe("allow");
    const r = await runBinary("git", ["push", "-q", "--force", "origin", "main"], {
      env: g.env({}, true),
      cwd: p.repo.path,
    });
    expect(r.code).toBe(126);
    expect(p.remoteHead()).toBe(before);
  });
});

describe("a hook never crashes into a let-through", () => {
  test("started in a deleted working directory, it answers deny in Claude Code's JSON with exit 0", async () => {
    using dir = tempDir("memnox-gone");
    const gone = join(dir.path, "gone");
    mkdirSync(gone);
    const script = `cd "${gone}" && rmdir "${gone}" && exec "${g.bin}" hook claude-code PreToolUse`;
    const child = Bun.spawn(["/bin/bash", "-c", script], {
      env: g.env(),
      stdin: new Blob([pre("git status", gone)]),
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(code).toBe(0);
    const answer = JSON.parse(out).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toContain("no longer exists");
  });

  test("with no HOME and no MEMNOX_HOME it answers deny in the agent's protocol (it cannot know the mode)", async () => {
    const env = hermeticEnv({});
    const r = await runBinary("memnox", ["hook", "claude-code", "PreToolUse"], {
      env,
      cwd: "/tmp",
      stdin: pre("git status", "/tmp"),
    });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    expect(r.stderr).toContain("HOME is not set");
  });

  test("with no HOME but MEMNOX_HOME it reads that home's mode: deny in enforce, a let-through in observe", async () => {
    const enforce = hermeticEnv({ MEMNOX_HOME: g.home.memnoxHome });
    const r = await runBinary("memnox", ["hook", "codex", "PreToolUse"], {
      env: enforce,
      cwd: "/tmp",
      stdin: pre("git status", "/tmp"),
    });
    expect(JSON.parse(r.stdout).hookSpecificOutput.permissionDecision).toBe("deny");
    using observed = fakeHome({ ".memnox/config.toml": 'mode = "observe"\n' });
    const o = await runBinary("memnox", ["hook", "codex", "PreToolUse"], {
      env: hermeticEnv({ MEMNOX_HOME: observed.memnoxHome }),
      cwd: "/tmp",
      stdin: pre("git status", "/tmp"),
    });
    expect(o.code).toBe(0);
    expect(o.stdout).not.toContain("deny");
  });

  test("a gate that cannot answer before the deadline is a refusal in enforce, in the agent's protocol", async () => {
    using home = fakeHome();
    const { ctx, io } = testContext(home, { args: ["claude-code", "PreToolUse"], stdin: pre("git status", home.home) });
    const never = { decide: () => new Promise(() => {}) } as unknown as GateServices;
    const started = performance.now();
    const code = await handleHook(ctx, {
      gate: () => never,
      posture: async () => ({ mode: "enforce", failOpen: false, stopped: false }),
      deadlineMs: () => 200,
    });
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(code).toBe(0);
    const answer = JSON.parse(io.stdout()).hookSpecificOutput;
    expect(answer.permissionDecision).toBe("deny");
    expect(answer.permissionDecisionReason).toContain("could not rule within 0.2 s");
  });
});

describe("interceptors and the governed shell keep to the home they were installed in", () => {
  let app = "";
  beforeAll(() => {
    // As setup lays it out: the stable copy at <home>/app/memnox, and the links in <home>/bin pointing at it.
    app = join(g.home.memnoxHome, "app", "memnox");
    mkdirSync(join(g.home.memnoxHome, "app"), { recursive: true });
    copyFileSync(g.bin, app);
    statSync(app);
    for (const name of ["git", "memnox-shell"]) {
      rmSync(join(g.home.memnoxHome, "bin", name), { force: true });
      symlinkSync(app, join(g.home.memnoxHome, "bin", name));
    }
  });

  test("MEMNOX_HOME=/tmp/empty git push -f is refused, origin unchanged, and the row is in the real home", async () => {
    using p = pushable();
    p.diverge();
    const before = p.remoteHead();
    using empty = tempDir("memnox-attacker");
    const env = { ...g.env({}, true), MEMNOX_HOME: empty.path, HOME: empty.path };
    const r = await runProcess([join(g.home.memnoxHome, "bin", "git"), "push", "-q", "--force", "origin", "main"], {
      env,
      cwd: p.repo.path,
    });
    expect(r.code).toBe(126);
    expect(p.remoteHead()).toBe(before);
    expect(
      (await rows(g)).some(
        (e) => e.surface === "interceptor" && e.operation === "git.push-force" && e.effect === "deny",
      ),
    ).toBe(true);
    expect(() => statSync(join(empty.path, "memnox.db"))).toThrow();
  });

  test("the governed shell too", async () => {
    using p = pushable();
    p.diverge();
    const before = p.remoteHead();
    using empty = tempDir("memnox-attacker");
    const env = { ...g.env({ MEMNOX_REAL_SHELL: "/bin/bash" }), MEMNOX_HOME: empty.path };
    const r = await runProcess([join(g.home.memnoxHome, "bin", "memnox-shell"), "-c", "git push -q -f origin main"], {
      env,
      cwd: p.repo.path,
    });
    expect(r.code).toBe(126);
    expect(p.remoteHead()).toBe(before);
    expect(() => statSync(join(empty.path, "memnox.db"))).toThrow();
  });
});
