// The reference's commands behaving as written (issue 31), with the compiled binary: `--` passes `--help` through,
// `protect --interactive` and `--allow` that changes something, `check` reading a phrase, agent display names,
// the socket's documented evaluate, the rule-set hash in `doctor --wiring`, an export that does not claim a purge,
// the retention sweep, and exit codes that say a failure.
import { beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { connect } from "node:net";
import { join } from "node:path";
import { createRecorder } from "../src/ledger/index.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { startDaemon } from "./support/daemon.ts";
import { compiledBinary, fakeHome, gitRepo, runBinary } from "./support/index.ts";

let bin = "";

beforeAll(async () => {
  bin = await compiledBinary();
}, 60_000);

const memnox = (home: ReturnType<typeof fakeHome>, args: string[], opts: { cwd?: string; stdin?: string } = {}) =>
  runBinary("memnox", args, {
    env: home.env(),
    cwd: opts.cwd ?? home.home,
    ...(opts.stdin !== undefined ? { stdin: opts.stdin } : {}),
  });

describe("run", () => {
  test("words after -- are the agent's own: `memnox run -- <program> --help` is the program's help, not memnox's", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "README.md": "x\n" });
    const r = await memnox(
      home,
      ["run", "--no-milestone", "--", "/bin/sh", "-c", 'echo "agent got $1"', "sh", "--help"],
      {
        cwd: repo.path,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain("agent got --help");
    expect(r.stdout).not.toContain("memnox run [options]");
  }, 60_000);

  test("help says what --no-milestone and --no-guard do", async () => {
    using home = fakeHome();
    const r = await memnox(home, ["run", "--help"]);
    expect(r.stdout).toMatch(/--no-milestone\s+skip the working-tree milestone/);
    expect(r.stdout).toMatch(/--no-guard\s+with --untrusted/);
  });
});

describe("protect", () => {
  test("--interactive walks the baseline's domains and writes only what was kept", async () => {
    using home = fakeHome();
    // yes to secrets, no to the destructive denies, yes to the asks and the local loop.
    const r = await memnox(home, ["protect", "--interactive", "--json"], { stdin: "y\nn\ny\ny\n" });
    expect(r.code, r.stderr).toBe(0);
    const machine = readFileSync(join(home.memnoxHome, "machine.policies.toml"), "utf8");
    expect(machine).toContain('name = "ssh-keys-not-read"');
    expect(machine).toContain('name = "outward-commands-asked"');
    expect(machine).not.toContain('name = "git-push-force-denied"');
    const j = JSON.parse(r.stdout) as { domains: { kept: boolean }[] };
    expect(j.domains.map((d) => d.kept)).toEqual([true, false, true, true]);
  }, 60_000);

  test("--allow writes a rule that changes something: it relaxes the baseline's ask, and a deny still refuses", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "README.md": "x\n" });
    expect((await memnox(home, ["protect", "--yes"])).code).toBe(0);
    const asked = await memnox(home, ["policy", "test", "gh pr create --fill"], { cwd: repo.path });
    expect(asked.stdout).toContain("ASK");
    const allow = await memnox(home, ["protect", "--allow", "gh.pr-create"], { cwd: repo.path });
    expect(allow.code, allow.stderr).toBe(0);
    expect(readFileSync(join(home.memnoxHome, "machine.policies.toml"), "utf8")).toContain(
      'relaxes = ["outward-commands-asked"]',
    );
    const now = await memnox(home, ["policy", "test", "gh pr create --fill"], { cwd: repo.path });
    expect(now.code).toBe(0);
    expect(now.stdout).toContain("ALLOW");
    const denied = await memnox(home, ["protect", "--allow", "git.push-force"], { cwd: repo.path });
    expect(denied.code).toBe(1);
    expect(denied.stderr).toContain("git-push-force-denied");
  }, 60_000);
});

describe("check", () => {
  test("a phrase is read as every action it could mean, its reading shown; a freeze on what it names stops them", async () => {
    using home = fakeHome();
    expect((await memnox(home, ["protect", "--yes"])).code).toBe(0);
    expect((await memnox(home, ["freeze", "payments", "--for", "1h"])).code).toBe(0);
    const r = await memnox(home, ["check", "deploy the payments service", "--json"]);
    expect(r.code).toBe(1);
    const j = JSON.parse(r.stdout) as {
      phrase: { acts: string[]; names: string[] };
      actions: { action: string; effect: string; reason: string }[];
    };
    expect(j.phrase).toEqual({ acts: ["deploy"], names: ["payments"] });
    expect(j.actions.length).toBeGreaterThan(0);
    expect(j.actions.some((a) => a.effect === "deny" && a.reason.includes("payments is frozen"))).toBe(true);
    const human = await memnox(home, ["check", "deploy the payments service"]);
    expect(human.stdout).toContain("read as: deploy · payments");
    expect(human.stdout).toMatch(/\d+ of \d+ would stop, and nothing was run to find out/);
  }, 60_000);
});

describe("agents by the name a person gave them", () => {
  test("timeline --agent and why --agent answer to the display name", async () => {
    using home = fakeHome({ ".claude/settings.json": "{}\n" });
    using repo = gitRepo({ "README.md": "x\n" });
    expect((await memnox(home, ["protect", "--yes"])).code).toBe(0);
    expect((await memnox(home, ["scan", "--no-probe"])).code).toBe(0);
    const named = await memnox(home, ["agents", "name", "claude-code", "Robo"]);
    expect(named.code, named.stderr).toBe(0);
    const payload = {
      session_id: "ses_named",
      cwd: repo.path,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: join(home.home, ".ssh", "id_ed25519") },
    };
    await memnox(home, ["hook", "claude-code", "PreToolUse"], { cwd: repo.path, stdin: JSON.stringify(payload) });
    const t = JSON.parse((await memnox(home, ["timeline", "--agent", "robo", "--json"])).stdout) as {
      events: { agent: string }[];
    };
    expect(t.events.length).toBeGreaterThan(0);
    expect(t.events.every((e) => e.agent === "claude-code")).toBe(true);
    const w = JSON.parse((await memnox(home, ["why", "--agent", "Robo", "--json"])).stdout) as {
      rule: { name: string } | null;
    };
    expect(w.rule?.name).toBe("ssh-keys-not-read");
  }, 60_000);
});

describe("the record", () => {
  test("doctor --wiring --json names the rule set in force by the hash policy check gives", async () => {
    using home = fakeHome();
    expect((await memnox(home, ["protect", "--yes"])).code).toBe(0);
    const wiring = JSON.parse((await memnox(home, ["doctor", "--wiring", "--json"])).stdout) as {
      ruleSet: { hash: string };
    };
    const check = JSON.parse((await memnox(home, ["policy", "check", "--json"])).stdout) as { hash: string };
    expect(wiring.ruleSet.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(wiring.ruleSet.hash).toBe(check.hash);
  }, 60_000);

  test("a signed export filtered by agent says which rows it left out, and never that they were purged", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "README.md": "x\n" });
    expect((await memnox(home, ["protect", "--yes"])).code).toBe(0);
    const payload = (tool: string) =>
      JSON.stringify({
        session_id: "ses_x",
        cwd: repo.path,
        hook_event_name: "PreToolUse",
        tool_name: tool,
        tool_input: { file_path: repo.join("README.md") },
      });
    await memnox(home, ["hook", "codex", "PreToolUse"], { cwd: repo.path, stdin: payload("apply_patch") });
    await memnox(home, ["hook", "claude-code", "PreToolUse"], { cwd: repo.path, stdin: payload("Read") });
    const out = join(home.home, "audit.json");
    const r = await memnox(home, ["timeline", "--export", "bundle", "--agent", "claude-code", "--out", out]);
    expect(r.code, r.stderr).toBe(0);
    const header = JSON.parse(readFileSync(out, "utf8").split("\n\n")[0] ?? "{}") as { excluded: string[] };
    expect(header.excluded.join("\n")).toContain("actions of agents other than claude-code");
    expect(header.excluded.join("\n")).not.toContain("purged");
  }, 60_000);

  test("claims --transcript names a file that is not there: an error, exit 1", async () => {
    using home = fakeHome();
    using repo = gitRepo({ "README.md": "x\n" });
    const payload = JSON.stringify({
      session_id: "ses_claims",
      cwd: repo.path,
      hook_event_name: "PreToolUse",
      tool_name: "Read",
      tool_input: { file_path: repo.join("README.md") },
    });
    await memnox(home, ["hook", "claude-code", "PreToolUse"], { cwd: repo.path, stdin: payload });
    const r = await memnox(home, ["claims", "ses_claims", "--transcript", join(home.home, "missing.jsonl")]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("no transcript at");
  }, 60_000);
});

describe("the daemon", () => {
  test("its socket answers the reference's evaluate: an action and a target in, effect and reason out", async () => {
    using home = fakeHome();
    expect((await memnox(home, ["protect", "--yes"])).code).toBe(0);
    expect((await memnox(home, ["config", "set", "mode", "enforce"])).code).toBe(0);
    await using d = await startDaemon(home);
    const reply = await new Promise<Record<string, unknown>>((resolve, reject) => {
      const s = connect(d.sock);
      let buf = "";
      s.on("data", (b) => {
        buf += b.toString();
        const i = buf.indexOf("\n");
        if (i >= 0) {
          resolve(JSON.parse(buf.slice(0, i)) as Record<string, unknown>);
          s.end();
        }
      });
      s.on("error", reject);
      s.write(`${JSON.stringify({ id: 7, method: "evaluate", action: "git.push-force", target: "origin main" })}\n`);
    });
    expect(reply).toMatchObject({ id: 7, ok: true, effect: "deny" });
    expect(String(reply.reason)).toContain("force-push");
    expect(reply.alternative).toMatchObject({ action: "git.push-lease" });
    expect(bin).not.toBe("");
  }, 60_000);

  test("history past retention is swept when the daemon starts (and hourly after)", async () => {
    using home = fakeHome();
    writeFileSync(join(home.memnoxHome, "config.toml"), "retentionDays = 1\n");
    // Rows written three days ago, and one now: the sweep drops the old and anchors the chain on the new.
    const paths = memnoxPaths(home.env());
    {
      using rec = createRecorder(paths, () => {});
      const at = (ms: number) => new Date(ms).toISOString();
      for (const ms of [Date.now() - 3 * 86_400_000, Date.now() - 3 * 86_400_000 + 1000, Date.now()])
        rec.record({ kind: "state", occurredAt: at(ms), surface: "config", operation: "memnox.test", reason: "a row" });
    }
    const count = async () =>
      (
        JSON.parse((await memnox(home, ["timeline", "--since", "all", "--json"])).stdout) as {
          events: { operation: string }[];
        }
      ).events.filter((e) => e.operation === "memnox.test").length;
    expect(await count()).toBe(3);
    await using d = await startDaemon(home);
    let left = 3;
    for (let i = 0; i < 200 && left > 1; i++) {
      left = await count();
      if (left > 1) await Bun.sleep(50);
    }
    expect(left).toBe(1);
    expect((await memnox(home, ["verify"])).code).toBe(0);
    expect(d.stderr()).toContain("daemon ready");
  }, 60_000);

  test("daemon --install that could not enable the service exits 1", async () => {
    using home = fakeHome();
    const r = await memnox(home, ["daemon", "--install", "--json"]);
    const j = JSON.parse(r.stdout) as { enabled: boolean; verified: string };
    expect(r.code).toBe(j.enabled && j.verified !== "problems" ? 0 : 1);
  }, 60_000);
});
