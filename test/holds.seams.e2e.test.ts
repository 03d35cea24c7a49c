// Holds across sessions and seams, with the compiled binary, real git, a real bare origin and real curl: one hold per
// call per session, `approve --session` grants that session, a call a person let through at one seam is not held
// again by the next seam it meets (the egress proxy, git's pre-push), and the pre-push hook at a person's terminal
// asks there.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonClient } from "../src/gate/remote/client.ts";
import { type RunningDaemon, startDaemon } from "./support/daemon.ts";
import { compiledBinary, fakeHome, runBinary } from "./support/index.ts";
import { repoWithOrigin } from "./support/origin.ts";
import { whenChanged } from "./support/wait.ts";

const home = fakeHome();
const wired = repoWithOrigin();
const { repo, originHead } = wired;
const pending = join(home.memnoxHome, "pending");
let bin = "";
let git = "";

const rule = (name: string, action: string, effect: string, reason: string, target?: string) => `
[[policies]]
name = "${name}"
[policies.match]
actions = ["${action}"]
${target ? `targets = ["${target}"]` : ""}
[policies.decision]
effect = "${effect}"
reason = "${reason}"
`;

function machineRules(...rules: string[]): void {
  writeFileSync(join(home.memnoxHome, "machine.policies.toml"), `version = 1\n${rules.join("")}`);
}

const localHead = () => repo.git("rev-parse", "main").trim();

interface HoldFile {
  id: string;
  status: string;
  session?: string;
  action: string;
  target?: string;
}

function holds(): HoldFile[] {
  if (!existsSync(pending)) return [];
  return readdirSync(pending)
    .filter((f) => f.endsWith(".json"))
    .map((f) => JSON.parse(readFileSync(join(pending, f), "utf8")) as HoldFile);
}

const waitingFor = (pred: (h: HoldFile) => boolean) =>
  whenChanged(pending, () => holds().find((h) => h.status === "waiting" && pred(h)));

/** A push through the git interceptor, in `session`, with nobody at a terminal. */
function pushAs(session: string) {
  return Bun.spawn([join(home.memnoxHome, "bin", "git"), "push", "-q", "origin", "main"], {
    env: home.env({ MEMNOX_SESSION: session, PATH: `${join(home.memnoxHome, "bin")}:${process.env.PATH}` }),
    cwd: repo.path,
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
}

beforeAll(async () => {
  bin = await compiledBinary();
  git = Bun.spawnSync(["sh", "-c", "command -v git"]).stdout.toString().trim();
  mkdirSync(join(home.memnoxHome, "bin"), { recursive: true });
  symlinkSync(bin, join(home.memnoxHome, "bin", "git"));
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
});

afterAll(() => {
  home[Symbol.dispose]();
  wired[Symbol.dispose]();
});

describe("one hold per call per session", () => {
  test("two sessions pushing the same thing wait on holds of their own; approve --session grants that one", async () => {
    machineRules(rule("pushes-ask", "git.push", "ask", "a push is seen by others"));
    repo.git("commit", "-q", "--allow-empty", "-m", "two sessions");
    const a = pushAs("ses_alpha");
    const holdA = await waitingFor((h) => h.session === "ses_alpha");
    const b = pushAs("ses_bravo");
    const holdB = await waitingFor((h) => h.session === "ses_bravo");
    expect(holdB.id).not.toBe(holdA.id);
    expect([holdA.action, holdB.action]).toEqual(["git.push", "git.push"]);

    const yes = await runBinary("memnox", ["approve", "--session", holdA.id], { env: home.env() });
    expect(yes.code).toBe(0);
    expect(await a.exited).toBe(0);
    expect(originHead()).toBe(localHead());
    // B's hold is its own: still waiting, not spent by A's answer.
    expect(holds().find((h) => h.id === holdB.id)?.status).toBe("waiting");

    // The rest of A's session: the same push goes straight through, with no new hold.
    repo.git("commit", "-q", "--allow-empty", "-m", "again in alpha");
    const before = holds().length;
    const again = pushAs("ses_alpha");
    expect(await again.exited).toBe(0);
    expect(holds().length).toBe(before);
    expect(originHead()).toBe(localHead());

    await runBinary("memnox", ["deny", holdB.id], { env: home.env() });
    expect(await b.exited).toBe(126);
  });
});

describe("a call let through at one seam is not held again by the next", () => {
  let daemon: RunningDaemon;
  let upstream: ReturnType<typeof Bun.serve>;
  const url = () => `http://127.0.0.1:${upstream.port}/data`;

  beforeAll(async () => {
    upstream = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("fetched") });
    daemon = await startDaemon(home);
  });

  afterAll(async () => {
    await daemon.stop();
    upstream.stop(true);
  });

  const clients: ReturnType<typeof daemonClient>[] = [];
  afterAll(() => {
    for (const c of clients) c.close();
  });

  /** The session's own listener, kept open while the connection that asked for it is. */
  async function listener(session: string): Promise<string> {
    const client = daemonClient(join(home.memnoxHome, "memnox.sock"));
    clients.push(client);
    const r = await client.call({ method: "ping", egressFor: session }, { timeoutMs: 3000 });
    return `http://127.0.0.1:${r?.egress?.port}`;
  }

  const curl = (proxy: string) =>
    Bun.spawn(["curl", "-s", "-S", "-x", proxy, "-w", "\n%{http_code}", url()], {
      env: { PATH: process.env.PATH ?? "" },
      stdout: "pipe",
      stderr: "inherit",
    });

  async function hook(agent: string, session: string, command: string) {
    const payload = {
      session_id: session,
      cwd: repo.path,
      hook_event_name: "PreToolUse",
      tool_name: "Bash",
      tool_input: { command },
      tool_use_id: `call_${Math.random().toString(36).slice(2)}`,
    };
    const r = await runBinary("memnox", ["hook", agent, "PreToolUse"], {
      env: home.env(),
      cwd: repo.path,
      stdin: JSON.stringify(payload),
    });
    return JSON.parse(r.stdout) as { hookSpecificOutput?: { permissionDecision?: string } };
  }

  test("a curl Claude Code's own prompt asked about reaches the egress proxy of that session without a hold", async () => {
    machineRules(
      rule("loopback-asks", "http.loopback", "ask", "a person says whether this host is reached", "127.0.0.1"),
    );
    const asked = await hook("claude-code", "ses_hooked", `curl -s ${url()}`);
    expect(asked.hookSpecificOutput?.permissionDecision).toBe("ask");
    const before = holds().length;
    const through = curl(await listener("ses_hooked"));
    expect(await new Response(through.stdout).text()).toBe("fetched\n200");
    expect(holds().length).toBe(before);

    // Another session was asked nothing: its request to the same host is held for a person.
    const other = curl(await listener("ses_elsewhere"));
    const held = await waitingFor((h) => h.session === "ses_elsewhere" && h.target === "127.0.0.1");
    await runBinary("memnox", ["deny", held.id], { env: home.env() });
    expect(await new Response(other.stdout).text()).toContain("403");
  });

  test("a Codex call approved with memnox approve: its retry and its request through the proxy go through once asked", async () => {
    machineRules(
      rule("loopback-asks", "http.loopback", "ask", "a person says whether this host is reached", "127.0.0.1"),
    );
    const first = await hook("codex", "ses_codex", `curl -s ${url()}`);
    expect(first.hookSpecificOutput?.permissionDecision).toBe("deny");
    const held = await waitingFor((h) => h.session === "ses_codex");
    await runBinary("memnox", ["approve", held.id], { env: home.env() });
    const retry = await hook("codex", "ses_codex", `curl -s ${url()}`);
    expect(retry).toEqual({});
    const before = holds().length;
    const through = curl(await listener("ses_codex"));
    expect(await new Response(through.stdout).text()).toBe("fetched\n200");
    expect(holds().length).toBe(before);
  });
});

describe("git's pre-push hook at a person's terminal", () => {
  beforeAll(async () => {
    const r = await runBinary("memnox", ["protect", "--hooks"], { env: home.env(), cwd: repo.path });
    expect(r.code).toBe(0);
    machineRules(rule("pushes-ask", "git.push", "ask", "a push is seen by others"));
  });

  /** `command` in a pseudo-terminal (util-linux `script`), answering each question with the next of `answers`. */
  async function atTerminal(command: string, answers: readonly string[], path: string) {
    const feed = answers.map((a) => `sleep 4; printf '${a}\\n'`).join("; ");
    const p = Bun.spawn(["sh", "-c", `(${feed}; sleep 2) | script -qec ${JSON.stringify(command)} /dev/null`], {
      env: home.env({ PATH: path }),
      cwd: repo.path,
      stdout: "pipe",
      stderr: "pipe",
    });
    const [out, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return { out, code };
  }

  test("git by its own path: the hook asks at the terminal, and a no leaves origin as it was with no hold", async () => {
    repo.git("commit", "-q", "--allow-empty", "-m", "asked at the terminal");
    const before = originHead();
    const holdsBefore = holds().length;
    const no = await atTerminal(`${git} push origin main`, ["d"], process.env.PATH ?? "");
    expect(no.out).toContain("wants to run: git push origin main");
    expect(no.out).toContain("a push is seen by others");
    expect(originHead()).toBe(before);
    expect(holds().length).toBe(holdsBefore);

    const yes = await atTerminal(`${git} push origin main`, ["a"], process.env.PATH ?? "");
    expect(yes.out).toContain("[a] allow once");
    expect(originHead()).toBe(localHead());
  });

  test("under the git interceptor, a person is asked once for one push, not again by the hook", async () => {
    repo.git("commit", "-q", "--allow-empty", "-m", "asked once");
    const r = await atTerminal(
      "git push origin main",
      ["a", "a"],
      `${join(home.memnoxHome, "bin")}:${process.env.PATH}`,
    );
    expect(r.out.match(/wants to run: git push/g)?.length).toBe(1);
    expect(originHead()).toBe(localHead());
  });
});
