// memnox governs memnox, with the compiled binary: from an agent's seat in enforce every command that loosens
// governance is refused and changes nothing, read-only ones run, a person's own terminal is unchanged, and a hook
// face run by hand from inside an agent's tool call records nothing. The agent's seat is told by process ancestry.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createHold, readHold } from "../src/state/pending.ts";
import { type AgentRun, agentSeat, type Governed, governedMachine, pushable, rows } from "./support/governed.ts";

let g: Governed;
const agent = agentSeat();
let holdId = "";

beforeAll(async () => {
  g = await governedMachine();
  holdId = createHold(join(g.home.memnoxHome, "pending"), {
    surface: "hook",
    agent: "claude-code",
    session: "ses_held",
    action: "git.push",
    target: "origin main",
    reason: "a person looks at pushes first",
    nowMs: Date.now(),
    ttlMs: 3_600_000,
  }).id;
}, 60_000);

afterAll(() => {
  g[Symbol.dispose]();
  agent[Symbol.dispose]();
});

/** A command run by the stand-in agent, with every variable an agent or memnox would set scrubbed first. */
function fromAgent(cmd: string): Promise<AgentRun> {
  const e = g.env();
  return agent.run(`env -i PATH="$PATH" HOME="$HOME" MEMNOX_HOME="$MEMNOX_HOME" ${g.bin} ${cmd}`, e);
}

const memnoxFiles = () =>
  [
    "config.toml",
    "sealed.json",
    "machine.policies.toml",
    "stop.json",
    "policies.json",
    "overlays.json",
    "budgets.json",
    "skills.json",
  ].map((f) => {
    const p = join(g.home.memnoxHome, f);
    return existsSync(p) ? readFileSync(p, "utf8") : "(absent)";
  });

describe("from an agent's seat in enforce", () => {
  const loosening = [
    "stop --for 24h",
    "config set mode off",
    "config set mode observe",
    "config set failOpen true",
    "config set retentionDays 1",
    "config set approvedAgents claude-code",
    "approve HOLD",
    "approve HOLD --session",
    "deny HOLD",
    "resume --by mallory",
    "uninstall",
    "uninstall --purge",
    "protect --revert",
    "protect --allow git.push-force",
    "protect --observe",
    "protect --revert-native",
    "protect --revert-claude-hook",
    "purge",
    "policy use /tmp/none.toml",
    "policy use --remove /tmp/none.toml",
    "daemon --uninstall",
    "mcp unwrap",
    "mcp session off",
    "mcp trust github",
    "agents trust claude-code",
    "freeze --lift deploy",
    "update --yes",
    "update --rewire",
    'allow "git.*" --for 2h --reason because',
    "next --hand-over --yes",
    "budget set deploys --actions git.push --limit 100",
    "budget remove deploys",
    "lock --release /tmp/x",
    "lock --forget",
    "skills --accept",
    "protect --revert-os-guard",
    "run --no-guard -- true",
    "logout",
    "login --url https://example.invalid --no-open",
  ];

  test.each(loosening)("memnox %s is refused, says why to the person, and changes nothing", async (cmd) => {
    const before = memnoxFiles();
    const r = await fromAgent(cmd.replace("HOLD", holdId));
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain("was started from an agent's seat");
    expect(r.stderr).toMatch(/an agent runs it: claude \(pid \d+, claude\) is among its parents/);
    expect(r.stderr).toContain("run it yourself, in your own terminal");
    expect(r.stderr + r.stdout).not.toMatch(/memnox approve /);
    expect(memnoxFiles()).toEqual(before);
    expect(readHold(join(g.home.memnoxHome, "pending"), holdId)?.status ?? "waiting").toBe("waiting");
  });

  test("each refusal is on the record as a cli deny", async () => {
    const refused = (await rows(g)).filter((e) => e.surface === "cli" && e.effect === "deny");
    expect(refused.map((e) => e.operation)).toEqual(expect.arrayContaining(["memnox.stop", "memnox.approve"]));
    expect(refused.find((e) => e.operation === "memnox.stop")?.reason).toContain("claude");
  });

  test.each([
    "status",
    "why",
    "timeline",
    "approvals",
    "paused",
    "explain git",
    "policy test git.status",
    "check 'git status'",
    "config list",
    "config set mode enforce",
  ])("memnox %s runs", async (cmd) => {
    const r = await fromAgent(cmd);
    expect(r.stderr).not.toContain("agent's seat");
    expect(r.code).toBe(0);
  });

  test("an agent listing its holds never reads how to approve one", async () => {
    const r = await fromAgent("paused");
    expect(r.stdout).toContain(holdId);
    expect(r.stdout).not.toContain("memnox approve");
  });

  test("a stop left running on its own (double fork, no terminal, no variables) is still refused", async () => {
    const r = await agent.run(
      `(env -i PATH="$PATH" HOME="$HOME" MEMNOX_HOME="$MEMNOX_HOME" setsid ${g.bin} stop --for 24h >/dev/null 2>&1 &); sleep 1`,
      g.env(),
    );
    expect(r.code).toBe(0);
    for (let i = 0; i < 40 && !(await rows(g)).some((e) => e.reason?.includes("left running")); i++)
      await Bun.sleep(50);
    expect(existsSync(join(g.home.memnoxHome, "stop.json"))).toBe(false);
  });

  test("after the refused stop and mode change, a force push is still refused and origin is unchanged", async () => {
    using p = pushable();
    p.diverge();
    const before = p.remoteHead();
    await fromAgent("stop --for 24h");
    await fromAgent("config set mode off");
    const r = await agent.run(`git push -q --force origin main`, g.env({}, true), p.repo.path);
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("a force-push can destroy work");
    expect(p.remoteHead()).toBe(before);
  });
});

describe("at a person's own terminal", () => {
  test("stop and start work as before, and are on the record", async () => {
    const stop = await g.memnox(["stop", "--for", "1m", "--reason", "checking"]);
    expect(stop.code).toBe(0);
    expect(existsSync(join(g.home.memnoxHome, "stop.json"))).toBe(true);
    expect((await g.memnox(["start"])).code).toBe(0);
    expect(existsSync(join(g.home.memnoxHome, "stop.json"))).toBe(false);
  });
});

describe("a hook face run by hand", () => {
  const payload = JSON.stringify({
    session_id: "ses_forged",
    cwd: "/tmp",
    hook_event_name: "PostToolUse",
    tool_name: "Bash",
    tool_input: { command: "git push --force origin main" },
    tool_use_id: "toolu_forged",
    tool_response: { stdout: "", stderr: "", interrupted: false },
  });
  const start = JSON.stringify({
    session_id: "ses_forged",
    cwd: "/tmp",
    hook_event_name: "SessionStart",
    source: "startup",
  });

  test("from inside an agent's tool call (Claude Code's AI_AGENT=…_agent) records nothing", async () => {
    const before = (await rows(g)).length;
    const r = await g.memnox(["hook", "claude-code", "SessionStart"], {
      stdin: start,
      env: { AI_AGENT: "claude-code_2-1-197_agent" },
    });
    expect(r.code).toBe(0);
    expect(r.stderr).toContain("nothing was recorded");
    expect((await rows(g)).length).toBe(before);
  });

  test("typed through memnox's governed shell, it is refused before it runs", async () => {
    const shell = join(g.home.memnoxHome, "bin", "memnox-shell");
    const r = await agent.run(
      `${shell} -c "${g.bin} hook claude-code SessionStart < /dev/null"`,
      g.env({ MEMNOX_REAL_SHELL: "/bin/bash" }),
    );
    expect(r.code).toBe(126);
    expect(r.stderr).toContain("`memnox hook` runs a hook face by hand");
  });

  test("hidden in a script the governed shell runs (variables scrubbed), it records nothing", async () => {
    const before = (await rows(g)).length;
    const forge = join(agent.path, "forge.sh");
    writeFileSync(
      forge,
      `env -i PATH="$PATH" HOME="$HOME" MEMNOX_HOME="$MEMNOX_HOME" ${g.bin} hook claude-code PostToolUse <<'EOF'\n${payload}\nEOF\n`,
    );
    const shell = join(g.home.memnoxHome, "bin", "memnox-shell");
    const r = await agent.run(`${shell} ${forge}`, g.env({ MEMNOX_REAL_SHELL: "/bin/bash" }));
    expect(r.stderr).toContain("it runs inside a memnox shell");
    expect(r.stderr).toContain("nothing was recorded");
    const after = await rows(g);
    expect(after.length).toBe(before);
    expect(JSON.stringify(after)).not.toContain("toolu_forged");
  });

  test("run by the agent itself (its harness), a hook still records", async () => {
    const before = (await rows(g)).length;
    const r = await g.memnox(["hook", "claude-code", "SessionStart"], {
      stdin: start,
      env: { AI_AGENT: "claude-code_2-1-197_harness" },
    });
    expect(r.stderr).not.toContain("nothing was recorded");
    expect((await rows(g)).length).toBe(before + 1);
  });
});
