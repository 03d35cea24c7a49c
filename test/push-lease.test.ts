// `git push --force-with-lease` is the safe rewrite peers allow: git itself refuses it when the remote holds work
// this repository has not seen. In enforce, with force pushes denied, a lease push through the interceptor (and past
// git's own pre-push hook, where protect --hooks put one) lands while the remote is where it was last seen; a bare
// force push stays refused; and a lease that is stale is refused by git, so the other person's commit survives.
import { describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { agentSeat, governedMachine, pushable } from "./support/governed.ts";

const ONLY_FORCE_DENIED = [
  "version = 1",
  "[[policies]]",
  'name = "force-denied"',
  "[policies.match]",
  'actions = ["git.push-force"]',
  "[policies.decision]",
  'effect = "deny"',
  'reason = "a force-push can destroy work that exists nowhere else"',
].join("\n");

describe("push --force-with-lease", () => {
  test("a real lease lands, a bare force push is refused, a stale lease is refused by git", async () => {
    using g = await governedMachine();
    using p = pushable();
    // Only the force-push rule, so a plain push proceeds and the lease is judged against it alone.
    const rules = join(g.home.home, "only-force.toml");
    writeFileSync(rules, ONLY_FORCE_DENIED);
    writeFileSync(g.home.join(".memnox", "machine.policies.toml"), ONLY_FORCE_DENIED);
    const env = g.env({ MEMNOX_POLICIES: rules }, true);
    expect((await g.memnox(["protect", "--hooks"], { cwd: p.repo.path })).code).toBe(0);
    using agent = agentSeat();

    p.diverge();
    const forced = await agent.run("git push --force origin main", env, p.repo.path);
    expect(forced.code).toBe(126);
    const before = p.remoteHead();
    const leased = await agent.run("git push --force-with-lease origin main", env, p.repo.path);
    expect(leased.code).toBe(0);
    expect(p.remoteHead()).not.toBe(before);
    expect(p.remoteHead()).toBe(p.repo.git("rev-parse", "HEAD").trim());

    // Somebody else pushes; this repository never fetches it: its lease is stale and git refuses.
    const other = Bun.spawnSync(["git", "clone", "-q", p.remote.path, join(g.home.home, "other")]);
    expect(other.exitCode).toBe(0);
    const otherRepo = join(g.home.home, "other");
    Bun.spawnSync(["git", "-C", otherRepo, "commit", "-q", "--allow-empty", "-m", "theirs"], { env: g.env() });
    Bun.spawnSync(["git", "-C", otherRepo, "push", "-q", "origin", "main"], { env: g.env() });
    const theirs = p.remoteHead();
    p.diverge();
    const stale = await agent.run("git push --force-with-lease origin main", env, p.repo.path);
    expect(stale.code).not.toBe(0);
    expect(p.remoteHead()).toBe(theirs);
  });
});
