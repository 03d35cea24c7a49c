// The real Codex CLI 0.171 in whole sessions offline (a scripted Responses API on loopback), wired by the compiled
// binary's `memnox setup` in enforce, its hooks trusted the way Codex trusts them (/hooks's record in config.toml):
// a force push is refused with the reason reaching the model, the ledger row names the Codex session, a real bare
// origin is unchanged, exit codes are recorded, Codex's commands meet the interceptors in its session, and an entry
// someone changed is reported "modified, not active" because Codex skips it.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { codexConfig, listHooks, runCodex, scriptedResponses, trustAsCodexDoes } from "./support/codex.ts";
import { fakeHome, runBinary } from "./support/index.ts";
import { repoWithOrigin } from "./support/origin.ts";

const home = fakeHome();
const wired = repoWithOrigin();
const { repo, originHead } = wired;

interface Row {
  id: string;
  kind: string;
  surface: string;
  operation: string;
  effect?: string;
  agent?: string;
  agentSessionId?: string;
  reason?: string;
  outcome: { exitCode?: number } | null;
}

async function rows(): Promise<Row[]> {
  const t = await runBinary("memnox", ["timeline", "--json", "--since", "all"], { env: home.env(), cwd: repo.path });
  return (JSON.parse(t.stdout) as { events: Row[] }).events;
}

/** What the person's own PATH is for Codex: git and the rest, never the interceptors. */
const PERSON_PATH = process.env.PATH ?? "";

beforeAll(async () => {
  codexConfig(home.home, "http://127.0.0.1:9/v1");
  const setup = await runBinary("memnox", ["setup", "--yes", "--enforce"], {
    env: home.env({ PATH: PERSON_PATH }),
    cwd: repo.path,
  });
  expect(setup.code).toBe(0);
  expect(setup.stdout).toContain("Codex: installed, not active until you trust it in Codex");
});

afterAll(() => {
  home[Symbol.dispose]();
  wired[Symbol.dispose]();
});

describe("codex 0.171 under memnox setup, enforce", () => {
  test("untrusted, the hooks are skipped by Codex and doctor --wiring says so; trusted as /hooks does, they are active", async () => {
    const before = await runBinary("memnox", ["doctor", "--wiring", "--json"], { env: home.env(), cwd: repo.path });
    const line = (out: string) =>
      (JSON.parse(out) as { lines: { seam: string; status: string; words: string }[] }).lines.find(
        (l) => l.seam === "hooks:codex",
      );
    expect(line(before.stdout)?.status).toBe("warn");
    trustAsCodexDoes(home.home, await listHooks(home.home, repo.path));
    expect((await listHooks(home.home, repo.path)).every((h) => h.trustStatus === "trusted")).toBe(true);
    const after = await runBinary("memnox", ["doctor", "--wiring", "--json"], { env: home.env(), cwd: repo.path });
    expect(line(after.stdout)).toMatchObject({ status: "ok" });
  });

  test("a force push is refused with the reason reaching the model; origin unchanged; rows, session and exit codes", async () => {
    repo.git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten history");
    const before = originHead();
    await using model = scriptedResponses([
      { cmd: "git push --force origin main" },
      { cmd: 'git status --short; echo "PATH=$PATH"; echo "SESSION=$MEMNOX_SESSION AGENT=$MEMNOX_AGENT_NAME"' },
      { cmd: "sh -c 'exit 3'" },
      { text: "done" },
    ]);
    codexConfig(home.home, model.url);
    trustAsCodexDoes(home.home, await listHooks(home.home, repo.path));
    const run = await runCodex(home.home, repo.path, "push main", { PATH: PERSON_PATH });
    if (run.code !== 0) console.error(run.stderr.slice(-3000));
    expect(run.code).toBe(0);

    const outputs = model.outputs();
    const refused = outputs.get("call_1") ?? "";
    expect(refused).toContain("Command blocked by PreToolUse hook");
    // Setup wrote the team's own rules into the repository: its rule about main is the more specific one here.
    expect(refused).toContain("main is the history everyone on this team builds on");
    expect(originHead()).toBe(before);

    const all = await rows();
    const push = all.find((r) => r.kind === "decision" && r.operation === "git.push-force");
    expect(push).toMatchObject({ surface: "hook", agent: "codex", effect: "deny" });
    const session = push?.agentSessionId ?? "";
    expect(session).toMatch(/^[0-9a-f-]{36}$/);

    // Codex's commands meet the interceptors, in its session: PATH starts with them, and git's row joins the session.
    const env = outputs.get("call_2") ?? "";
    expect(env).toContain(`PATH=${join(home.memnoxHome, "bin")}:`);
    expect(env).toContain(`SESSION=${session} AGENT=codex`);
    const status = all.find((r) => r.surface === "interceptor" && r.operation.startsWith("git."));
    expect(status).toMatchObject({ agentSessionId: session, agent: "codex" });

    // The exit code of a failed command, recorded beside its decision (Codex hands the output only).
    const failed = all.find((r) => r.kind === "decision" && r.surface === "hook" && r.outcome?.exitCode === 3);
    expect(failed?.agentSessionId).toBe(session);
  });

  test("one field of a trusted entry changed: Codex skips it, and doctor --wiring says modified, not active", async () => {
    const file = join(home.home, ".codex", "hooks.json");
    writeFileSync(file, readFileSync(file, "utf8").replace('"timeout": 30', '"timeout": 31'));
    const listed = await listHooks(home.home, repo.path);
    expect(listed.find((h) => h.eventName === "preToolUse")?.trustStatus).toBe("modified");
    const doctor = await runBinary("memnox", ["doctor", "--wiring", "--json"], { env: home.env(), cwd: repo.path });
    const line = (JSON.parse(doctor.stdout) as { lines: { seam: string; words: string; fix?: string }[] }).lines.find(
      (l) => l.seam === "hooks:codex",
    );
    expect(line?.words).toContain("modified, not active");
    expect(line?.fix).toContain("memnox setup");

    // What the report says is what Codex does: the changed PreToolUse never runs, so no decision is recorded.
    await using model = scriptedResponses([{ cmd: "echo unchecked" }, { text: "done" }]);
    codexConfig(home.home, model.url);
    trustAsCodexDoes(
      home.home,
      listed.filter((h) => h.trustStatus !== "modified"),
    );
    const decided = (await rows()).filter((r) => r.kind === "decision" && r.surface === "hook").length;
    const run = await runCodex(home.home, repo.path, "say it", { PATH: PERSON_PATH });
    expect(run.code).toBe(0);
    expect(model.outputs().get("call_1")).toContain("unchecked");
    expect((await rows()).filter((r) => r.kind === "decision" && r.surface === "hook").length).toBe(decided);
  });
});
