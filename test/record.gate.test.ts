// What the record lets a person say to the gate, through Claude Code's real hook payloads: a grant for a scope and a
// while (it lets a rule's ask through, never a deny, and lifts itself), path leases (a second agent's write to a
// leased file asks, naming the holder and since when), and collisions read back from the ledger.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { openLedger } from "../src/ledger/store.ts";
import { fakeHome, gitRepo } from "./support/index.ts";
import { type Claude, claudeHook, cli, enforce, payloads } from "./support/record.ts";

const RULES = [
  "version = 1",
  "",
  "[[policies]]",
  'name = "prod-config-asked"',
  "[policies.match]",
  'actions = ["filesystem.read"]',
  'targets = ["config/prod.yml"]',
  "[policies.decision]",
  'effect = "ask"',
  'reason = "production settings are looked at by a person first"',
  "",
  "[[policies]]",
  'name = "env-never-read"',
  "[policies.match]",
  'actions = ["filesystem.read"]',
  'targets = [".env"]',
  "[policies.decision]",
  'effect = "deny"',
  'reason = "secrets stay in the file"',
  "",
].join("\n");

const T = Date.parse("2026-11-30T10:00:00.000Z");

function lastRow(home: { memnoxHome: string }, operation: string) {
  using l = openLedger({ db: join(home.memnoxHome, "memnox.db") });
  return l.select(
    "SELECT * FROM events WHERE kind = 'decision' AND operation = ? ORDER BY seq DESC LIMIT 1",
    operation,
  )[0];
}

describe("memnox allow: a grant for a scope and a while", () => {
  const home = fakeHome();
  const repo = gitRepo({ "memnox.policies.toml": RULES, "config/prod.yml": "x\n", ".env": "K=v\n" });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });
  enforce(home);
  const c: Claude = { session: "ses-grant", cwd: repo.path };
  const read = (file: string, id: string) => payloads.pre(c, "Read", { file_path: repo.join(file) }, id);

  test("a grant lets the rule's ask through, never its deny, says so in status and the opening block, and lifts itself", async () => {
    expect((await claudeHook(home, "PreToolUse", read("config/prod.yml", "t0"), T, repo.path)).decision).toBe("ask");

    const given = await cli(
      home,
      ["allow", "filesystem.read", "--for", "30m", "--reason", "reproducing the retry bug", "--json"],
      T,
      repo.path,
    );
    expect(given.code).toBe(0);
    const grant = given.json().grant;
    expect(grant).toMatchObject({ kind: "grant", actions: ["filesystem.read"], reason: "reproducing the retry bug" });
    expect(grant.expiresAt).toBe(new Date(T + 30 * 60_000).toISOString());

    const during = await claudeHook(home, "PreToolUse", read("config/prod.yml", "t1"), T + 60_000, repo.path);
    expect(during.decision).toBe("allow");
    const row = lastRow(home, "filesystem.read");
    expect(row?.effect).toBe("allow");
    expect(row?.detail).toMatchObject({ source: "grant", fact: "grant:filesystem.read" });
    expect(row?.reason).toContain("is granted");
    expect((await claudeHook(home, "PreToolUse", read(".env", "t2"), T + 60_000, repo.path)).decision).toBe("deny");

    const status = (await cli(home, ["status", "--json"], T + 120_000, repo.path)).json();
    expect(status.grants).toEqual([
      expect.objectContaining({ scope: "filesystem.read", left: "28m", reason: "reproducing the retry bug" }),
    ]);
    const opening = await claudeHook(home, "SessionStart", payloads.start(c), T + 120_000, repo.path);
    expect(opening.out).toContain("Granted for a while");
    expect(opening.out).toContain("filesystem.read (28m left: reproducing the retry bug)");

    const after = await claudeHook(home, "PreToolUse", read("config/prod.yml", "t3"), T + 31 * 60_000, repo.path);
    expect(after.decision).toBe("ask");
    expect((await cli(home, ["allow", "--list", "--json"], T + 31 * 60_000, repo.path)).json().grants).toEqual([]);
  });

  test("--lift ends a grant early, on the record; a grant needs a reason and a scope", async () => {
    const at = T + 3_600_000;
    await cli(home, ["allow", "filesystem.read", "--env", "staging", "--reason", "why not"], at, repo.path);
    expect((await cli(home, ["allow", "--list", "--json"], at, repo.path)).json().grants[0].subject).toBe(
      "filesystem.read in staging",
    );
    // No environment declared: a grant for staging does not cover it.
    expect((await claudeHook(home, "PreToolUse", read("config/prod.yml", "t4"), at, repo.path)).decision).toBe("ask");
    const lifted = await cli(home, ["allow", "filesystem.read", "--env", "staging", "--lift", "--json"], at, repo.path);
    expect(lifted.json().lifted).toHaveLength(1);
    expect((await cli(home, ["allow", "--list", "--json"], at, repo.path)).json().grants).toEqual([]);
    await expect(cli(home, ["allow", "filesystem.read"], at, repo.path)).rejects.toThrow("a grant needs --reason");
    await expect(cli(home, ["allow", "*", "--reason", "x"], at, repo.path)).rejects.toThrow("names every action");
    using l = openLedger({ db: join(home.memnoxHome, "memnox.db") });
    const ops = l.select("SELECT * FROM events WHERE kind = 'state' ORDER BY seq").map((r) => r.operation);
    expect(ops).toEqual(["memnox.allow", "memnox.allow", "memnox.allow-lift"]);
  });
});

describe("path leases and collisions", () => {
  const home = fakeHome();
  const repo = gitRepo({ "src/billing/invoice.ts": "export {};\n", "src/billing/plan.ts": "export {};\n" });
  afterAll(() => {
    home[Symbol.dispose]();
    repo[Symbol.dispose]();
  });
  const a: Claude = { session: "ses-lease-a", cwd: repo.path };
  const b: Claude = { session: "ses-lease-b", cwd: repo.path };
  const write = (who: Claude, file: string, id: string) =>
    payloads.pre(who, "Write", { file_path: repo.join(file), content: "export const x = 1;\n" }, id);

  test("the first write takes a lease; a second agent's write to it asks, naming the holder and since when", async () => {
    enforce(home);
    expect(
      (await claudeHook(home, "PreToolUse", write(a, "src/billing/invoice.ts", "w1"), T, repo.path)).decision,
    ).toBe("allow");
    const leases = (await cli(home, ["lock", "--list", "--json"], T + 1000, repo.path)).json();
    expect(leases.local).toBe(true);
    expect(leases.leases).toEqual([
      {
        path: repo.join("src/billing/invoice.ts"),
        session: a.session,
        holder: "claude-code",
        since: new Date(T).toISOString(),
        until: new Date(T + 30 * 60_000).toISOString(),
      },
    ]);
    // The holder's own next write renews nothing it does not need to, and is not asked.
    expect(
      (await claudeHook(home, "PreToolUse", write(a, "src/billing/invoice.ts", "w2"), T + 60_000, repo.path)).decision,
    ).toBe("allow");
    const second = await claudeHook(
      home,
      "PreToolUse",
      write(b, "src/billing/invoice.ts", "w3"),
      T + 120_000,
      repo.path,
    );
    expect(second.decision).toBe("ask");
    const why = JSON.parse(second.out).hookSpecificOutput.permissionDecisionReason as string;
    expect(why).toContain(
      `${repo.join("src/billing/invoice.ts")} is leased by claude-code (${a.session}) since ${new Date(T).toISOString()}`,
    );
    expect(lastRow(home, "filesystem.write")?.detail).toMatchObject({
      source: "lease",
      fact: `lease:${a.session} ${repo.join("src/billing/invoice.ts")}`,
    });
    // Another file is free.
    expect(
      (await claudeHook(home, "PreToolUse", write(b, "src/billing/plan.ts", "w4"), T + 120_000, repo.path)).decision,
    ).toBe("allow");
  });

  test("a person's lock on a directory holds every file in it; the end of a session lets go of its leases", async () => {
    const at = T + 600_000;
    const locked = await cli(home, ["lock", "src", "--for", "10m", "--json"], at, repo.path);
    expect(locked.json().lease.path).toBe(repo.join("src"));
    const held = await claudeHook(home, "PreToolUse", write(b, "src/new.ts", "w5"), at + 1000, repo.path);
    expect(held.decision).toBe("ask");
    expect(held.out).toContain(`${repo.join("src")} is leased by`);
    expect((await cli(home, ["lock", "--release", "src", "--json"], at + 2000, repo.path)).json().released.path).toBe(
      repo.join("src"),
    );
    await claudeHook(home, "SessionEnd", payloads.end(a), at + 3000, repo.path);
    const free = await claudeHook(home, "PreToolUse", write(b, "src/billing/invoice.ts", "w6"), at + 4000, repo.path);
    expect(free.decision).toBe("allow");
    expect((await cli(home, ["lock", "--forget", "--json"], at + 5000, repo.path)).json().forgotten).toBe(2);
    expect(existsSync(join(home.memnoxHome, "leases"))).toBe(true);
  });

  test("collisions: two agents in one file and two agents building one thing, reported and not refereed", async () => {
    // In observe a lease's ask does not bite: the two writes land on each other, which is what collisions reports.
    writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "observe"\n');
    const at = T + 86_400_000;
    const cursor: Claude = { session: "ses-collide-cursor", cwd: repo.path };
    const claude: Claude = { session: "ses-collide-claude", cwd: repo.path };
    await claudeHook(home, "PreToolUse", write(cursor, "src/pay/invoice.ts", "c1"), at, repo.path);
    await claudeHook(home, "PreToolUse", write(claude, "src/pay/invoice.ts", "c2"), at + 77_000, repo.path);
    await claudeHook(home, "PreToolUse", write(claude, "src/pay/plan.ts", "c3"), at + 90_000, repo.path);
    const r = await cli(home, ["collisions", "--days", "1", "--json"], at + 100_000, repo.path);
    const c = r.json();
    const file = c.files.find((f: { path: string }) => f.path === repo.join("src/pay/invoice.ts"));
    expect(file.writers.map((w: { session: string; at: string; doing: string }) => [w.session, w.at, w.doing])).toEqual(
      [
        [cursor.session, new Date(at).toISOString(), "writing"],
        [claude.session, new Date(at + 77_000).toISOString(), "writing"],
      ],
    );
    const building = c.building.find((x: { places: string[] }) => x.places.includes(repo.join("src/pay")));
    expect(building.places).toEqual([
      repo.join("src/pay"),
      repo.join("src/pay/invoice.ts"),
      repo.join("src/pay/plan.ts"),
    ]);
    const human = (await cli(home, ["collisions", "--days", "1"], at + 100_000, repo.path)).out;
    expect(human).toContain("TWO AGENTS IN ONE FILE");
    expect(human).toContain("TWO AGENTS BUILDING ONE THING");
    expect(human).toContain("Reported, not refereed");
  });
});
