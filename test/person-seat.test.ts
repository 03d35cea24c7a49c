// A person at their own terminal is never governed as the agent: with the interceptors first on their PATH and the
// machine in enforce, their own `git reset --hard` (on a real terminal, through `script`) runs and is recorded as the
// person's, while the same command from an agent's seat is refused and the work survives. A rule a person writes for
// themselves (`agents = ["person"]`) is the one thing their own command meets.
import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { runProcess } from "./support/binary.ts";
import { agentSeat, governedMachine, rows } from "./support/governed.ts";
import { gitRepo } from "./support/index.ts";

/** Runs `line` in bash on a fresh pseudo-terminal, as a person typing at their own terminal would. */
function atTerminal(line: string, env: Record<string, string>, cwd: string) {
  return runProcess(["script", "-qec", line, "/dev/null"], { env, cwd });
}

describe("a person's own command at their own terminal", () => {
  test("their git reset --hard in enforce proceeds and is recorded as theirs; an agent's is refused", async () => {
    using g = await governedMachine();
    using repo = gitRepo({ "a.txt": "one\n" });
    const env = g.env({}, true);
    writeFileSync(repo.join("a.txt"), "work in progress\n");
    using agent = agentSeat();
    const refused = await agent.run("git reset --hard", env, repo.path);
    expect(refused.code).toBe(126);
    expect(readFileSync(repo.join("a.txt"), "utf8")).toBe("work in progress\n");

    const mine = await atTerminal("git reset --hard; echo exit=$?", env, repo.path);
    expect(mine.stdout).toContain("exit=0");
    expect(readFileSync(repo.join("a.txt"), "utf8")).toBe("one\n");
    const recorded = (await rows(g, repo.path)) as { operation: string; effect?: string; agent?: string }[];
    const theirs = recorded.find((r) => r.operation === "git.reset-hard" && r.agent === "person");
    expect(theirs).toMatchObject({ effect: "allow" });
    expect(recorded.find((r) => r.operation === "git.reset-hard" && r.agent !== "person")).toMatchObject({
      effect: "deny",
    });
  });

  test("a hook their own git runs is theirs too; a rule naming person is what their command meets", async () => {
    using g = await governedMachine();
    using repo = gitRepo({ "a.txt": "one\n" });
    const env = g.env({}, true);
    // Their pre-commit hook deletes a build folder through the rm interceptor: still the person's call.
    writeFileSync(repo.join(".git", "hooks", "pre-commit"), "#!/bin/sh\nrm -rf /tmp/memnox-person-nothing-here\n", {
      mode: 0o755,
    });
    writeFileSync(repo.join("b.txt"), "b\n");
    const commit = await atTerminal("git add b.txt && git commit -qm b; echo exit=$?", env, repo.path);
    expect(commit.stdout).toContain("exit=0");

    // A rule they wrote for themselves: their own reset --hard now stops, and an agent's rules still do not reach them.
    writeFileSync(
      join(repo.path, "memnox.policies.toml"),
      [
        "version = 1",
        "[[policies]]",
        'name = "my-own-resets"',
        "[policies.match]",
        'actions = ["git.reset-hard"]',
        'agents = ["person"]',
        "[policies.decision]",
        'effect = "deny"',
        'reason = "I stash first"',
      ].join("\n"),
    );
    writeFileSync(repo.join("a.txt"), "mine\n");
    const stopped = await atTerminal("git reset --hard; echo exit=$?", env, repo.path);
    expect(stopped.stdout).toContain("exit=126");
    expect(stopped.stdout).toContain("I stash first");
    expect(readFileSync(repo.join("a.txt"), "utf8")).toBe("mine\n");
  });
});
