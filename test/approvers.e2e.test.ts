// A rule's `approvers`, `minApprovals` and `rateLimit`, with the compiled binary, real git and a real bare origin: a
// held push stays held for anyone the rule does not name (whatever USER says), counts each named account once, and
// a rate limit is counted from the ledger, so each new process (a restart) sees what the last ones spent.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "./support/binary.ts";
import { compiledBinary, fakeHome, gitRepo, type RunResult, tempDir } from "./support/index.ts";

const home = fakeHome();
const remote = tempDir("memnox-remote");
const repo = gitRepo({ "README.md": "one\n" });
const ME = Bun.spawnSync(["id", "-un"]).stdout.toString().trim();
// The account's primary group, as /etc/group names it.
const MY_GROUP = Bun.spawnSync(["id", "-gn"]).stdout.toString().trim();
let bin = "";

const env = (extra: Record<string, string> = {}) =>
  home.env({ PATH: `${join(home.memnoxHome, "bin")}:${process.env.PATH ?? ""}`, ...extra });

const memnox = (args: string[], extra: Record<string, string> = {}): Promise<RunResult> =>
  runProcess([bin, ...args], { env: env(extra), cwd: repo.path });

function rule(decision: string): void {
  writeFileSync(
    repo.join("memnox.policies.toml"),
    `version = 1\n\n[[policies]]\nname = "pushes-need-people"\n[policies.match]\nactions = ["git.push"]\n[policies.decision]\n${decision}\nreason = "a push is seen by others"\n`,
  );
}

const remoteHead = () => Bun.spawnSync(["git", "-C", remote.path, "rev-parse", "main"]).stdout.toString().trim();

interface Held {
  readonly id: string;
  readonly done: Promise<number>;
  readonly stderr: Promise<string>;
}

/** A push through the interceptor, held; resolves once its hold is listed. */
async function heldPush(): Promise<Held> {
  repo.git("commit", "-q", "--allow-empty", "-m", `c ${Math.random()}`);
  const child = Bun.spawn([join(home.memnoxHome, "bin", "git"), "push", "-q", "origin", "main"], {
    env: env(),
    cwd: repo.path,
    stdin: "ignore",
    stdout: "ignore",
    stderr: "pipe",
  });
  let id = "";
  for (let i = 0; i < 200 && !id; i++) {
    const a = JSON.parse((await memnox(["approvals", "--json"])).stdout) as { approvals: { id: string }[] };
    id = a.approvals[0]?.id ?? "";
    if (!id) await Bun.sleep(50);
  }
  expect(id).toMatch(/^a_/);
  return { id, done: child.exited, stderr: new Response(child.stderr).text() };
}

const end = (id: string) => rmSync(join(home.memnoxHome, "pending", `${id}.json`));

const waiting = async (id: string) =>
  (
    JSON.parse((await memnox(["approvals", "--json"])).stdout) as { approvals: { id: string; approvals: string }[] }
  ).approvals.find((h) => h.id === id);

beforeAll(async () => {
  bin = await compiledBinary();
  mkdirSync(join(home.memnoxHome, "bin"), { recursive: true });
  symlinkSync(bin, join(home.memnoxHome, "bin", "git"));
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", remote.path]);
  repo.git("remote", "add", "origin", remote.path);
  repo.git("push", "-q", "origin", "main");
}, 240_000);

afterAll(() => {
  for (const d of [home, remote, repo]) d[Symbol.dispose]();
});

describe("approvers and minApprovals", () => {
  test("USER=mallory then USER=eng-lead against eng-lead and security, two needed: still waiting, origin untouched", async () => {
    rule('effect = "ask"\napprovers = ["eng-lead", "security"]\nminApprovals = 2');
    const before = remoteHead();
    const held = await heldPush();
    for (const user of ["mallory", "eng-lead"]) {
      const r = await memnox(["approve", held.id], { USER: user, LOGNAME: user });
      expect(r.code).toBe(1);
      expect(r.stdout).toContain(`${ME} may not answer ${held.id}: its rule names eng-lead, security`);
    }
    expect((await waiting(held.id))?.approvals).toBe("0/2");
    const denied = await memnox(["deny", held.id], { USER: "security" });
    expect(denied.code).toBe(1);
    expect(await waiting(held.id)).toBeDefined();
    expect(remoteHead()).toBe(before);
    // Nobody named can answer from here, so the hold is let go at its expiry; the test ends it by removing it.
    end(held.id);
    expect(await held.done, await held.stderr).toBe(126);
    expect(remoteHead()).toBe(before);
  }, 60_000);

  test("the account that is named counts once: a second yes from it is not a second person", async () => {
    rule(`effect = "ask"\napprovers = ["${ME}", "security"]\nminApprovals = 2`);
    const before = remoteHead();
    const held = await heldPush();
    const first = await memnox(["approve", held.id]);
    expect(first.stdout).toContain(`${ME} approved ${held.id}; 1 of 2 approvals so far`);
    const again = await memnox(["approve", held.id], { USER: "security" });
    expect(again.stdout).toContain("one person counts once (1/2)");
    expect((await waiting(held.id))?.approvals).toBe("1/2");
    // A single denial ends it, from an account that already said yes too: the held push is refused at once.
    const no = await memnox(["deny", held.id]);
    expect(no.stdout).toContain(`${held.id} denied by ${ME}`);
    expect(await held.done).toBe(126);
    expect(await held.stderr).toContain("a person denied it");
    expect(remoteHead()).toBe(before);
  }, 60_000);

  test("a named Unix group the account is in may answer, and then the push goes through", async () => {
    rule(`effect = "ask"\napprovers = ["${MY_GROUP}"]`);
    const held = await heldPush();
    const ok = await memnox(["approve", held.id]);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain("goes through once");
    expect(await held.done).toBe(0);
    expect(remoteHead()).toBe(repo.git("rev-parse", "main").trim());
  }, 60_000);

  test("a quorum is never put to the agent's own prompt: Claude Code is refused with the hold instead", async () => {
    rule('effect = "ask"\napprovers = ["eng-lead"]');
    const payload = JSON.stringify({
      session_id: "ses-quorum",
      cwd: repo.path,
      hook_event_name: "PreToolUse",
      permission_mode: "default",
      tool_name: "Bash",
      tool_input: { command: "git push origin main" },
      tool_use_id: "toolu_q",
    });
    const child = Bun.spawn([bin, "hook", "claude-code", "PreToolUse"], {
      env: home.env(),
      cwd: repo.path,
      stdin: new Blob([payload]),
      stdout: "pipe",
    });
    const out = JSON.parse(await new Response(child.stdout).text());
    expect(out.hookSpecificOutput.permissionDecision).toBe("deny");
    expect(out.hookSpecificOutput.permissionDecisionReason).toContain("one of eng-lead must say yes");
  }, 30_000);
});

describe("rateLimit", () => {
  test("counted per agent from the ledger: the third push in the window is refused, in a new process each time", async () => {
    rule('effect = "allow"\nrateLimit = { max = 2, windowSeconds = 3600 }');
    const push = async (agent: string) => {
      repo.git("commit", "-q", "--allow-empty", "-m", `r ${Math.random()}`);
      const child = Bun.spawn([join(home.memnoxHome, "bin", "git"), "push", "-q", "origin", "main"], {
        env: env({ MEMNOX_AGENT_NAME: agent }),
        cwd: repo.path,
        stdout: "ignore",
        stderr: "pipe",
      });
      const [stderr, code] = await Promise.all([new Response(child.stderr).text(), child.exited]);
      return { code, stderr };
    };
    expect((await push("builder")).code).toBe(0);
    expect((await push("builder")).code).toBe(0);
    const before = remoteHead();
    const third = await push("builder");
    expect(third.code).toBe(126);
    expect(third.stderr).toContain("rule pushes-need-people lets 2 of these run per 1h for builder");
    expect(remoteHead()).toBe(before);
    // Another agent has slots of its own.
    expect((await push("reviewer")).code).toBe(0);
  }, 60_000);
});
