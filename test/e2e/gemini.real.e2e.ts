// In `make e2e` (a Gemini session takes ten seconds and more to start and run), which CI runs beside `make test`.
// The real Gemini CLI 0.61 in a whole session offline (a scripted Gemini API on loopback), wired by the compiled
// binary's `memnox setup` in enforce: a force push is refused with the reason reaching the model, a real bare origin
// is unchanged, the rows name the Gemini session, a failed command's exit code (which Gemini reports only inside
// the text it hands the model) is recorded, its commands meet the interceptors in its session, and what memnox said
// at the session's start neither reaches the model escaped nor sets off reminders of its own words.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { join } from "node:path";
import { geminiSettings, runGemini, scriptedGemini } from "../support/gemini.ts";
import { fakeHome, runBinary } from "../support/index.ts";
import { repoWithOrigin } from "../support/origin.ts";

const home = fakeHome();
const wired = repoWithOrigin();
const { repo, originHead } = wired;
const PERSON_PATH = process.env.PATH ?? "";

interface Row {
  kind: string;
  surface: string;
  operation: string;
  effect?: string;
  agent?: string;
  agentSessionId?: string;
  outcome: { exitCode?: number } | null;
}

beforeAll(async () => {
  geminiSettings(home.home);
  const setup = await runBinary("memnox", ["setup", "--yes", "--enforce"], {
    env: home.env({ PATH: PERSON_PATH }),
    cwd: repo.path,
  });
  expect(setup.code).toBe(0);
  expect(setup.stdout).toContain("Gemini CLI: hooked");
});

afterAll(() => {
  home[Symbol.dispose]();
  wired[Symbol.dispose]();
});

describe("gemini-cli 0.61 under memnox setup, enforce", () => {
  let model: Awaited<ReturnType<typeof scriptedGemini>>;
  let session = "";
  let rows: Row[] = [];
  let before = "";

  beforeAll(async () => {
    repo.git("commit", "-q", "--amend", "--allow-empty", "-m", "rewritten history");
    before = originHead();
    model = scriptedGemini([
      { shell: "git push --force origin main" },
      { shell: 'git status --short; echo "PATH=$PATH"; echo "SESSION=$MEMNOX_SESSION AGENT=$MEMNOX_AGENT_NAME"' },
      { shell: "sh -c 'exit 3'" },
      { text: "done" },
    ]);
    const run = await runGemini(home.home, repo.path, model.url, "tidy up the readme", { PATH: PERSON_PATH });
    if (run.code !== 0) console.error(run.stderr.slice(-3000));
    expect(run.code).toBe(0);
    session = run.result.session_id ?? "";
    const t = await runBinary("memnox", ["timeline", "--json", "--since", "all"], { env: home.env(), cwd: repo.path });
    rows = (JSON.parse(t.stdout) as { events: Row[] }).events;
  });

  afterAll(async () => {
    await model[Symbol.asyncDispose]();
  });

  test("the force push is refused with the reason reaching the model, and origin is unchanged", () => {
    const [push] = model.results();
    expect(String(push?.error)).toContain("Tool execution blocked:");
    // The repository's team rule (setup writes it) or the machine's force-push rule: either names the harm.
    expect(String(push?.error)).toMatch(/main is the history everyone|a force-push can destroy work/);
    expect(originHead()).toBe(before);
    const row = rows.find((r) => r.kind === "decision" && r.operation === "git.push-force");
    expect(row).toMatchObject({ surface: "hook", agent: "gemini-cli", effect: "deny", agentSessionId: session });
  });

  test("its commands meet the interceptors, in its session", () => {
    const out = String(model.results()[1]?.output ?? "");
    expect(out).toContain(`PATH=${join(home.memnoxHome, "bin")}:`);
    expect(out).toContain(`SESSION=${session} AGENT=gemini-cli`);
    const git = rows.find((r) => r.surface === "interceptor" && r.operation.startsWith("git."));
    expect(git).toMatchObject({ agentSessionId: session, agent: "gemini-cli" });
  });

  test("a failed command's exit code is recorded beside its decision", () => {
    const failed = rows.find((r) => r.kind === "decision" && r.surface === "hook" && r.outcome?.exitCode === 3);
    expect(failed?.agentSessionId).toBe(session);
    const ok = rows.find((r) => r.kind === "decision" && r.surface === "hook" && r.operation.startsWith("git.status"));
    expect(ok?.outcome?.exitCode).toBe(0);
  });

  test("memnox's session-start words reach the model unescaped, and prompt reminders fire on none of them", () => {
    const first = model.firstTurn().join("\n");
    expect(first).toContain("<hook_context>Memnox:");
    expect(first).not.toContain("&lt;");
    expect(first).not.toContain("&gt;");
    // Only the session start's context: the prompt's own words named nothing a rule covers.
    expect(first.match(/<hook_context>/g)?.length).toBe(1);
  });
});
