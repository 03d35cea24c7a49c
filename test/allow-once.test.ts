// `memnox allow-once <code>` through the compiled binary: a refused force push prints a code; the agent typing it is
// refused and changes nothing; the person typing it lets that exact push through once (the origin moves), and the
// next one is refused again; a code never typed expires, and a code for one call lets no other through.
import { describe, expect, test } from "bun:test";
import { readdirSync } from "node:fs";
import { approveAllowOnce, CODE_TTL_MS, claimAllowOnce, issueAllowOnce } from "../src/state/allow-once.ts";
import { agentSeat, governedMachine, pushable } from "./support/governed.ts";
import { tempDir } from "./support/index.ts";

function codeIn(text: string): string {
  const m = /memnox allow-once ([0-9A-Z]{4}-[0-9A-Z]{4})/.exec(text);
  if (!m?.[1]) throw new Error(`no allow-once code in: ${text}`);
  return m[1];
}

describe("memnox allow-once", () => {
  test("the code a refusal prints lets that exact call through once, typed by a person, never by the agent", async () => {
    using g = await governedMachine();
    using p = pushable();
    using agent = agentSeat();
    const env = g.env({}, true);
    p.diverge();
    const before = p.remoteHead();
    const refused = await agent.run("git push --force origin main", env, p.repo.path);
    expect(refused.code).toBe(126);
    const code = codeIn(refused.stderr);

    // The agent types the code itself: refused from its seat, and the code is still unused.
    const byAgent = await agent.run(`${g.bin} allow-once ${code}`, g.env(), p.repo.path);
    expect(byAgent.code).not.toBe(0);
    expect(byAgent.stderr + byAgent.stdout).toContain("agent's seat");
    expect((await agent.run("git push --force origin main", env, p.repo.path)).code).toBe(126);
    expect(p.remoteHead()).toBe(before);

    // The person types it: the same push runs once.
    const byPerson = await g.memnox(["allow-once", code.toLowerCase().replace("-", "")], { cwd: p.repo.path });
    expect(byPerson.code).toBe(0);
    expect(byPerson.stdout).toContain("allowed once: git.push-force");
    const pushed = await agent.run("git push --force origin main", env, p.repo.path);
    expect(pushed.code).toBe(0);
    expect(p.remoteHead()).toBe(p.repo.git("rev-parse", "HEAD").trim());
    // Once: the next rewrite is refused again, with a fresh code of its own.
    p.diverge();
    const again = await agent.run("git push --force origin main", env, p.repo.path);
    expect(again.code).toBe(126);
    expect(codeIn(again.stderr)).not.toBe(code);
    // A used code is gone.
    expect((await g.memnox(["allow-once", code], { cwd: p.repo.path })).code).not.toBe(0);
  });

  test("a code expires if nobody types it in time, and an approved one lets only its own call through", () => {
    using dir = tempDir("memnox-allow-once");
    const at = Date.parse("2026-11-30T12:00:00Z");
    const call = { action: "git.push-force", target: "origin main", reason: "r" };
    const stale = issueAllowOnce(dir.path, { ...call, fingerprint: "f1", nowMs: at });
    expect(approveAllowOnce(dir.path, stale, "ana", at + CODE_TTL_MS + 1)).toMatchObject({ ok: false });
    const code = issueAllowOnce(dir.path, { ...call, fingerprint: "f1", session: "s1", nowMs: at });
    expect(approveAllowOnce(dir.path, code, "ana", at + 1000)).toMatchObject({ ok: true });
    expect(claimAllowOnce(dir.path, "f2", "s1", at + 2000)).toBeUndefined();
    expect(claimAllowOnce(dir.path, "f1", "s2", at + 2000)).toBeUndefined();
    expect(claimAllowOnce(dir.path, "f1", "s1", at + 2000)).toMatchObject({ approvedBy: "ana" });
    expect(claimAllowOnce(dir.path, "f1", "s1", at + 3000)).toBeUndefined();
    // Only digests of codes are on disk.
    expect(readdirSync(dir.path).join(" ")).not.toContain(code.replace("-", ""));
  });
});
