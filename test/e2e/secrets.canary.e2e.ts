// A credential in a call never leaves the process that read it: each form a credential takes goes through every seam
// (agent hooks, PATH interceptors, the governed shell, the MCP proxy, egress, `memnox run`) with the compiled binary,
// refused or held, and then the database file (and its WAL), pending/, the logs, every file under MEMNOX_HOME, every
// reader's and export's output and every seam's own output are searched for the canary.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { chmodSync, mkdirSync, readdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { shellWord } from "../../src/core/shell-quote.ts";
import { runProcess } from "../support/binary.ts";
import { agentSeat } from "../support/governed.ts";
import { compiledBinary, fakeHome, gitRepo, type RunResult, tempDir } from "../support/index.ts";
import { MCP_OPENING, SCRIPTED } from "../support/mcp.ts";

// Case-insensitive, since some forms must be upper case (an AWS key id); nothing else in the test spells it.
const CANARY = "cnry7f3a9q";
const C = CANARY;
const U = CANARY.toUpperCase();

/** Each form a credential takes, as the argv an agent would run; every one carries the canary where the secret is. */
const FORMS: string[][] = [
  ["git", "push", `https://u:${C}x1@github.com/acme/r.git`, "main"],
  ["git", "clone", `https://ghp_${C}abcdefghijklmnopqrstuv12@github.com/acme/r.git`],
  ["mysql", `--password=${C}x2`, "-h", "db"],
  ["mysql", "--password", `${C}x3`, "-h", "db"],
  ["mysql", "-u", "root", `-p${C}x4`, "app"],
  ["terraform", "apply", "-var", `db_password=${C}x5`],
  ["docker", "run", "-e", `DB_PASSWORD=${C}x6`, "postgres"],
  ["docker", "login", "-u", "me", "-p", `${C}x7`, "registry.example.com"],
  ["gh", "secret", "set", "DEPLOY_KEY", "--body", `${C}x8`],
  ["heroku", "config:set", `STRIPE_URL=${C}x9`, "-a", "shop"],
  ["fly", "secrets", "set", `DATABASE_URL=${C}y1`],
  ["aws", "configure", "set", "aws_secret_access_key", `${C}y2`],
  ["aws", "configure", "set", "aws_access_key_id", `AKIA${U}Y3ABCD`],
  ["psql", `password=${C}y4 host=db dbname=app`],
  ["curl", "-H", `Authorization: Bearer ${C}y5`, "https://api.example.com/v1"],
  ["curl", "-H", `x-api-key: sk-ant-api03-${C}y6abcdefgh`, "https://api.anthropic.com/v1/messages"],
  ["curl", "-d", `key=sk-proj-${C}y7abcdefghij`, "https://api.openai.com/v1/x"],
  ["curl", `https://hooks.slack.com/services/T0${U}/B0${U}/${C}y8abcdefgh`, "-d", "x"],
  ["curl", "-H", `Cookie: session=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOi${C}.y9abcdefgh`, "https://x.example.com"],
  ["curl", `https://api.example.com/x?access_token=${C}z1&team=7`],
  ["kubectl", "create", "secret", "generic", "s", `--from-literal=pw=${C}z2`],
];
const CLIS = [...new Set(FORMS.map((f) => f[0] ?? ""))];

/** The argv as a shell line, each word single-quoted where it needs to be. */
const lineOf = (argv: readonly string[]) => argv.map(shellWord).join(" ");
const LINES = [
  ...FORMS.map(lineOf),
  `printf '%s' ${C}z3 | gh secret set OTHER`,
  `export API_TOKEN=${C}z4 && npm publish`,
  `printf '%s' '-----BEGIN OPENSSH PRIVATE KEY-----\nb3Bl${C}z5\n-----END OPENSSH PRIVATE KEY-----' > key`,
];

const home = fakeHome();
const denyRepo = gitRepo({ "README.md": "x\n" });
const askRepo = gitRepo({ "README.md": "x\n" });
const real = tempDir("memnox-real");
const out = tempDir("memnox-out");
const seen: string[] = [];
let bin = "";

function rules(effect: string): string {
  return `version = 1\n\n[[policies]]\nname = "canary-${effect}"\n[policies.match]\nactions = ["*"]\n[policies.decision]\neffect = "${effect}"\nreason = "the canary test says ${effect} to everything"\n`;
}

const pathVar = () => `${join(home.memnoxHome, "bin")}:${real.path}:${process.env.PATH ?? ""}`;
const env = (extra: Record<string, string> = {}) =>
  home.env({ PATH: pathVar(), SHELL: "/bin/bash", MEMNOX_REAL_SHELL: "/bin/bash", ...extra });

async function spawn(
  argv: string[],
  cwd: string,
  stdin?: string,
  extra: Record<string, string> = {},
): Promise<RunResult> {
  const r = await runProcess(argv, { env: env(extra), cwd, ...(stdin !== undefined ? { stdin } : {}) });
  seen.push(r.stdout, r.stderr);
  return r;
}

const memnox = (args: string[], cwd = denyRepo.path) => spawn([bin, ...args], cwd);
const link = (name: string) => join(home.memnoxHome, "bin", name);

function claudePayload(event: string, command: string, cwd: string, id: number): string {
  return JSON.stringify({
    session_id: "ses-canary-claude",
    transcript_path: null,
    cwd,
    hook_event_name: event,
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `toolu_${id}`,
    ...(event === "PostToolUse" ? { tool_response: { stdout: "", stderr: "", interrupted: false } } : {}),
  });
}

function codexPayload(command: string, cwd: string, id: number): string {
  return JSON.stringify({
    session_id: "019a6a2e-7a35-7b52-9e1f-3c5d2b8e4f11",
    transcript_path: null,
    cwd,
    hook_event_name: "PreToolUse",
    model: "gpt-5.5-codex",
    permission_mode: "default",
    turn_id: "turn-1",
    tool_name: "Bash",
    tool_input: { command },
    tool_use_id: `call_${id}`,
  });
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    if (n === "keys" || n === "app") return [];
    const s = statSync(p);
    if (s.isDirectory()) return filesUnder(p);
    return s.isFile() ? [p] : [];
  });
}

beforeAll(async () => {
  bin = await compiledBinary();
  mkdirSync(join(home.memnoxHome, "bin"), { recursive: true });
  for (const name of [...CLIS, "npm", "memnox-shell", "memnox-mcp-proxy"]) symlinkSync(bin, link(name));
  // Stand-ins for the real programs: if one ever ran, it would leave its argv where the search looks.
  for (const name of [...CLIS, "npm"]) {
    if (name === "git" || name === "curl") continue;
    const p = join(real.path, name);
    writeFileSync(p, `#!/bin/sh\necho "$@" >> '${join(home.memnoxHome, "ran.log")}'\n`);
    chmodSync(p, 0o755);
  }
  writeFileSync(join(home.memnoxHome, "config.toml"), 'mode = "enforce"\n');
  writeFileSync(denyRepo.join("memnox.policies.toml"), rules("deny"));
  writeFileSync(askRepo.join("memnox.policies.toml"), rules("ask"));
}, 240_000);

afterAll(() => {
  for (const d of [home, denyRepo, askRepo, real, out]) d[Symbol.dispose]();
});

describe("a credential in a call reaches no file and no output", () => {
  test("agent hooks: Claude Code refused and asked (the ask kept until its outcome), Codex held", async () => {
    let id = 0;
    // No interceptors on the hooks' PATH: memnox's own git plumbing (milestones) meeting them is another issue's.
    const hook = (agent: string, event: string, cwd: string, payload: string) =>
      spawn([bin, "hook", agent, event], cwd, payload, { PATH: process.env.PATH ?? "" });
    for (const line of LINES) {
      const denied = await hook(
        "claude-code",
        "PreToolUse",
        denyRepo.path,
        claudePayload("PreToolUse", line, denyRepo.path, ++id),
      );
      expect(denied.stdout, line).toContain('"permissionDecision":"deny"');
      const asked = await hook(
        "claude-code",
        "PreToolUse",
        askRepo.path,
        claudePayload("PreToolUse", line, askRepo.path, ++id),
      );
      expect(`${asked.stdout}${asked.stderr}`, line).toContain('"permissionDecision":"ask"');
      await hook("claude-code", "PostToolUse", askRepo.path, claudePayload("PostToolUse", line, askRepo.path, id));
      const held = await hook("codex", "PreToolUse", askRepo.path, codexPayload(line, askRepo.path, ++id));
      expect(held.stdout).toContain("deny");
    }
    expect(readdirSync(join(home.memnoxHome, "pending")).length).toBeGreaterThan(5);
  }, 120_000);

  test("PATH interceptors refuse each form before the real program runs", async () => {
    for (const argv of FORMS) {
      const [name, ...args] = argv;
      const r = await spawn([link(name ?? ""), ...args], denyRepo.path);
      expect(r.code).toBe(126);
    }
  }, 120_000);

  test("an interceptor's held call is listed while it waits, then denied from a second process", async () => {
    const child = Bun.spawn([link("git"), "push", `https://u:${C}h1@127.0.0.1:9/r.git`, "main"], {
      env: env(),
      cwd: askRepo.path,
      stdin: "ignore",
      stdout: "pipe",
      stderr: "pipe",
    });
    let holdId = "";
    for (let i = 0; i < 200 && !holdId; i++) {
      const a = await memnox(["approvals", "--json"], askRepo.path);
      const waiting = (JSON.parse(a.stdout) as { approvals: { id: string; target: string | null }[] }).approvals;
      holdId = waiting.find((h) => h.target?.includes("127.0.0.1:9"))?.id ?? "";
      if (!holdId) await Bun.sleep(50);
    }
    expect(holdId).toMatch(/^a_/);
    for (const args of [["approvals"], ["approvals", "--all", "--json"], ["paused"], ["paused", "--json"], ["status"]])
      await memnox(args, askRepo.path);
    await memnox(["deny", holdId], askRepo.path);
    expect(await child.exited).toBe(126);
    seen.push(await new Response(child.stderr).text());
  }, 60_000);

  test("the governed shell refuses each line", async () => {
    for (const line of LINES) {
      const r = await spawn([link("memnox-shell"), "-c", line], denyRepo.path);
      expect(r.code).toBe(126);
    }
  }, 120_000);

  test("the MCP proxy refuses a tool call whose arguments carry every form", async () => {
    const args = { text: LINES.join("\n"), token: `${C}m1`, url: `https://u:${C}m2@example.com/x?api_key=${C}m3` };
    const lines = [
      ...MCP_OPENING,
      { jsonrpc: "2.0", id: 2, method: "tools/call", params: { name: "echo", arguments: args } },
    ];
    const stdin = `${lines.map((l) => JSON.stringify(l)).join("\n")}\n`;
    const r = await spawn([link("memnox-mcp-proxy"), "--name", "scripted", "--", ...SCRIPTED], denyRepo.path, stdin, {
      MEMNOX_SESSION: "ses_canary_mcp",
    });
    expect(r.stdout).toContain("memnox refused mcp.scripted.echo");
  }, 60_000);

  test("memnox run: its interceptors, its shell and its egress proxy refuse, and the request never leaves", async () => {
    const script = [
      `/usr/bin/curl -s -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer ${C}e1' 'http://u:${C}e2@example.invalid/x?token=${C}e3'`,
      `echo`,
      lineOf(FORMS[0] ?? []),
      `$SHELL -c ${lineOf([lineOf(FORMS[14] ?? [])])}`,
      "true",
    ].join("; ");
    // Started as an agent (a command memnox run is handed otherwise is judged, and refused, before it starts).
    using seat = agentSeat();
    const r = await spawn([bin, "run", "--no-milestone", "--", seat.bin, "-c", script], denyRepo.path);
    expect(r.stdout.trim().split("\n")[0]).toBe("403");
  }, 60_000);

  test("no file under MEMNOX_HOME, no reader, no export and no seam output holds it", async () => {
    const timeline = JSON.parse((await memnox(["timeline", "--since", "all", "--json"])).stdout) as {
      events: { id: string; kind: string }[];
    };
    const ids = timeline.events.map((e) => e.id);
    expect(ids.length).toBeGreaterThan(LINES.length * 3);
    const readers = [
      ["timeline", "--since", "all"],
      ["timeline", "--since", "all", "--session", "ses-canary-claude"],
      ["why"],
      ["why", "--json"],
      ["replay", "--json"],
      ["report", "--json"],
      ["report"],
      ["verify", "--json"],
      ["approvals", "--all", "--json"],
      ["paused", "--json"],
      ["timeline", "--export", "json"],
      ["timeline", "--export", "jsonl"],
      ["timeline", "--export", "bundle", "--out", join(out.path, "bundle.json")],
      ["timeline", "--export", "jsonl", "--out", join(out.path, "rows.jsonl")],
      ...ids.flatMap((id) => [
        ["trace", id, "--json"],
        ["why", id],
      ]),
      ...LINES.flatMap((l) => [
        ["check", l, "--json"],
        ["check", l],
      ]),
    ];
    for (const args of readers) await memnox(args);
    const files = [...filesUnder(home.memnoxHome), ...filesUnder(out.path)];
    expect(files).toContain(join(home.memnoxHome, "memnox.db-wal"));
    expect(files.some((f) => f.includes(`${join(home.memnoxHome, "pending")}/`))).toBe(true);
    expect(files.some((f) => f.includes(`${join(home.memnoxHome, "notice")}/`))).toBe(true);
    const leaks: string[] = [];
    for (const f of files) if (readFileSync(f).toString("latin1").toLowerCase().includes(CANARY)) leaks.push(f);
    for (const [i, o] of seen.entries())
      if (o.toLowerCase().includes(CANARY)) leaks.push(`output #${i}: ${o.slice(0, 400)}`);
    expect(leaks).toEqual([]);
  }, 240_000);
});
