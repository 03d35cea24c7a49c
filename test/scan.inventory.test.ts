// `memnox scan` on a whole fake machine: the inventory (version 2) documented by its shape, every agent by the
// file that proved it, reach through shells and servers, harnesses, chains, and the gap counted against real rules.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import type { Inventory } from "../src/scan/types.ts";
import { run } from "../src/seams/cli/index.ts";
import { testContext } from "./support/index.ts";
import { dockerHost, fakeSocket, rufloRepo, scanHome } from "./support/scan-machine.ts";

const home = scanHome();
const repo = rufloRepo();
let socket: AsyncDisposable | undefined;
const env = { DOCKER_HOST: `unix://${dockerHost(home)}` };

async function cli(args: string[], cwd = repo.path) {
  const { ctx, io } = testContext(home, { args, cwd, env });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

let inv: Inventory;
beforeAll(async () => {
  socket = await fakeSocket(dockerHost(home));
  inv = JSON.parse((await cli(["scan", "--json", "--no-probe"])).out);
});
afterAll(async () => {
  await socket?.[Symbol.asyncDispose]();
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

const agent = (id: string) => inv.agents.find((a) => a.id === id);
const cred = (suffix: string) => inv.credentials.find((c) => c.path.endsWith(suffix));

describe("the inventory, version 2", () => {
  test("has exactly the documented top-level fields", () => {
    expect(Object.keys(inv).sort()).toEqual(
      [
        "version",
        "scannedAt",
        "home",
        "cwd",
        "repository",
        "probed",
        "agents",
        "harnesses",
        "mcpServers",
        "credentials",
        "clis",
        "chains",
        "capabilities",
        "coverage",
        "problems",
        "read",
      ].sort(),
    );
    expect(inv.version).toBe(2);
    expect(inv.probed).toBe(false);
    expect(Object.keys(inv.harnesses[0] ?? {}).sort()).toEqual(
      ["agentId", "kind", "runtimes", "roles", "hooks", "federated", "evidence"].sort(),
    );
    expect(Object.keys(inv.chains[0] ?? {}).sort()).toEqual(
      ["agentId", "subject", "consequence", "steps", "individuallyHarmless"].sort(),
    );
  });

  test("every agent by the config file that proved it, never a process", () => {
    expect(inv.agents.map((a) => a.id).sort()).toEqual(
      [
        "claude-code",
        "claude-desktop",
        "cline",
        "codex",
        "cursor",
        "gemini-cli",
        "hermes",
        "openclaw",
        "ruflo",
        "vscode",
        "windsurf",
        "zed",
      ].sort(),
    );
    expect(agent("claude-code")?.evidence[0]?.path).toBe(home.join(".claude.json"));
    expect(agent("codex")?.evidence.map((e) => e.path)).toContain(home.join(".codex", "config.toml"));
    expect(agent("ruflo")?.evidence.map((e) => e.path)).toContain(repo.join(".claude-flow"));
  });

  test("a shell reaches everything; an agent's own settings can take it away, and then it reaches only its servers", () => {
    expect(agent("claude-code")?.shell).toMatchObject({ has: true });
    expect(agent("gemini-cli")?.shell).toMatchObject({ has: false, grantedBy: home.join(".gemini", "settings.json") });
    expect(agent("openclaw")?.shell).toMatchObject({ has: false, grantedBy: home.join(".openclaw", "openclaw.json") });
    expect(agent("gemini-cli")?.reaches).toEqual([]);
    expect(agent("claude-code")?.reaches).toContain(home.join(".ssh", "id_ed25519"));
    expect(agent("claude-code")?.clis).toContain("gh");
  });

  test("reach is transitive: a server handed a directory reaches the credential under it", () => {
    const desktop = agent("claude-desktop");
    expect(desktop?.shell.has).toBe(false);
    expect(desktop?.reaches).toEqual([home.join(".aws", "credentials")]);
    const via = cred(".aws/credentials")?.via.find((v) => v.agentId === "claude-desktop");
    expect(via).toEqual({
      agentId: "claude-desktop",
      through: "mcp:files",
      grantedBy: home.join(".config", "Claude", "claude_desktop_config.json"),
    });
  });

  test("credentials as path, kind and a truncated fingerprint, with structural facts only", () => {
    expect(cred(".ssh/id_ed25519")).toMatchObject({
      kind: "secret",
      label: "SSH private key",
      facts: { passphrase: false },
    });
    expect(cred(".ssh/id_rsa_deploy")?.facts).toEqual({ passphrase: true });
    expect(cred(".ssh/id_ed25519.pub")).toBeUndefined();
    expect(cred(".ssh/known_hosts")).toBeUndefined();
    expect(cred(".aws/credentials")).toMatchObject({ kind: "cloud", cli: "aws", facts: { sections: 2 } });
    expect(cred(".config/gh/hosts.yml")).toMatchObject({ kind: "repo", cli: "gh", facts: { hosts: 1 } });
    expect(cred(".docker/config.json")).toMatchObject({ kind: "cloud", facts: { registries: 2 } });
    expect(cred(".kube/config")).toMatchObject({ kind: "cloud", facts: { users: 1, contexts: 1 } });
    expect(cred(".pgpass")).toMatchObject({ kind: "db", cli: "psql" });
    expect(cred("docker.sock")).toMatchObject({ kind: "socket", label: "Docker socket" });
    for (const c of inv.credentials) {
      if (c.kind !== "socket") expect(c.fingerprint).toMatch(/^sha256:[0-9a-f]{12}$/);
      for (const v of Object.values(c.facts)) expect(["number", "boolean"]).toContain(typeof v);
    }
  });

  test(".env files in the repository count, examples and vendored copies do not", () => {
    const envs = inv.credentials.filter((c) => c.label === ".env file").map((c) => c.path);
    expect(envs.sort()).toEqual([repo.join(".env"), repo.join("services", "api", ".env.local")].sort());
  });

  test("authenticated CLIs, each with its verb table's counts", () => {
    const clis = inv.clis.map((c) => c.cli);
    for (const c of ["aws", "gh", "docker", "kubectl", "gcloud", "az", "npm", "psql", "stripe", "heroku", "git"])
      expect(clis).toContain(c);
    const gh = inv.clis.find((c) => c.cli === "gh");
    expect(gh?.credential).toBe(home.join(".config", "gh", "hosts.yml"));
    expect(gh?.outside).toBeGreaterThan(10);
  });

  test("--json lists every file it opened, credentials included", () => {
    for (const f of [".aws/credentials", ".ssh/id_ed25519", ".claude.json", ".codex/config.toml", ".npmrc"])
      expect(inv.read).toContain(home.join(f));
    expect(inv.read).toContain(repo.join(".env"));
    expect(inv.read).toContain(home.join(".memnox", "mcp", "crm.json"));
  });
});

test("a settings file that will not parse is named, and takes nothing away", async () => {
  using h = scanHome(["claude-code"]);
  writeFileSync(h.join(".claude", "settings.json"), '{ "permissions": { "deny": ["Bash"] ');
  const { ctx, io } = testContext(h, { args: ["scan", "--json", "--no-probe"] });
  await run(ctx);
  const out: Inventory = JSON.parse(io.stdout());
  expect(out.problems).toEqual([
    expect.objectContaining({ path: h.join(".claude", "settings.json"), owner: "Claude Code", line: 1 }),
  ]);
  expect(out.agents.find((a) => a.id === "claude-code")?.shell.has).toBe(true);
  writeFileSync(h.join(".claude", "settings.json"), '{ "permissions": { "deny": ["Bash"] } }');
  const again = testContext(h, { args: ["scan", "--json", "--no-probe"] });
  await run(again.ctx);
  const denied: Inventory = JSON.parse(again.io.stdout());
  expect(denied.agents.find((a) => a.id === "claude-code")?.shell).toMatchObject({ has: false });
});

describe("MCP servers", () => {
  const server = (name: string) => inv.mcpServers.find((s) => s.name === name);

  test("tools from the proxy's cache under --no-probe, classified, with env names and masked arguments", () => {
    const crm = inv.mcpServers.find((s) => s.name === "crm" && s.client === "claude-code");
    expect(crm).toMatchObject({ toolsFrom: "proxy", envKeys: ["CRM_API_TOKEN"], remote: true, wrapped: false });
    expect(crm?.tools?.find((t) => t.name === "delete_customer")).toMatchObject({
      class: "destructive",
      outside: true,
    });
    expect(server("slack")?.args).toEqual(["-y", "slack-mcp", "--token", "***"]);
    expect(server("wrapped-notes")).toMatchObject({ wrapped: true, command: "notes-mcp" });
    expect(server("memnox-session")).toBeUndefined();
  });

  test("what the host's own filter removes is not counted, and how many were removed is kept", () => {
    expect(server("tracker")?.tools?.map((t) => t.name)).toEqual(["create_issue", "list_issues"]);
    expect(server("tracker")?.hiddenByHost).toBe(2);
    expect(server("weather")?.hiddenByHost).toBe(1);
    expect(server("tickets")?.tools?.map((t) => t.name)).toEqual(["export_tickets", "list_tickets"]);
    const hermesCrm = inv.mcpServers.find((s) => s.name === "crm" && s.client === "hermes");
    expect(hermesCrm?.tools?.some((t) => t.name === "delete_customer")).toBe(false);
    expect(hermesCrm?.hiddenByHost).toBe(1);
  });

  test("a server the client itself will not start grants nothing", () => {
    expect(server("legacy")?.disabled).toBe(true);
    expect(agent("gemini-cli")?.servers.some((id) => id.includes(":legacy@"))).toBe(false);
  });

  test("a hosted server is never contacted: a scan makes no network call", () => {
    expect(server("stripe")).toMatchObject({
      transport: "http",
      tools: null,
      toolsNote: "hosted: a scan makes no network call",
    });
  });
});

describe("harnesses and combined capability", () => {
  const h = (kind: string) => inv.harnesses.find((x) => x.kind === kind);

  test("Hermes, OpenClaw and Ruflo: roles, runtimes, hooks and federation from what they scaffolded", () => {
    expect(h("hermes")).toMatchObject({ roles: ["researcher", "reviewer", "writer"], hooks: 1, federated: false });
    expect(h("openclaw")).toMatchObject({
      roles: ["fixer", "triage"],
      runtimes: ["claude-code", "codex"],
      federated: true,
    });
    expect(h("ruflo")).toMatchObject({
      roles: ["architect", "coder", "planner", "reviewer", "tester"],
      runtimes: ["claude-code"],
      hooks: 2,
      federated: true,
    });
  });

  test("a chain is read from tool names, grouped by subject, with no destructive step", () => {
    const chains = inv.chains.filter((c) => c.agentId === "claude-code");
    expect(chains.map((c) => c.subject)).toEqual(["customer"]);
    expect(chains[0]?.steps.map((s) => `${s.link}:${s.server}.${s.tool}`)).toEqual([
      "acquire:crm.list_customers",
      "package:crm.create_customer_export",
      "emit:slack.send_customer_file",
    ]);
    expect(chains[0]?.consequence).toBe("customer data can leave, in one session");
  });
});

describe("the screen", () => {
  test("agents, harnesses, what they reach, servers, chains and the config that will not parse; the gap last", async () => {
    writeFileSync(repo.join(".cursor-broken.json"), "");
    const r = await cli(["scan", "--no-probe"]);
    expect(r.code).toBe(0);
    const lines = r.out.trimEnd().split("\n");
    expect(lines[0]).toMatch(/^AI AGENTS\s+claude-code, claude-desktop, cursor/);
    expect(r.out).toContain("HARNESSES");
    expect(r.out).toMatch(/ruflo: 5 roles · runs claude-code · 2 hook files · federated across machines/);
    expect(r.out).toMatch(/! ~\/\.ssh\/id_ed25519\s+secret\s+\d+ agents/);
    expect(r.out).toContain("more tools hidden by the host's own filter, so they are not counted here");
    expect(r.out).toContain("crm.list_customers → crm.create_customer_export → slack.send_customer_file");
    expect(r.out).toContain("One of these works with agents on other machines; this scan sees only here.");
    expect(lines.at(-2)).toMatch(/^\d+ capabilities can change something outside this laptop\.$/);
    expect(lines.at(-1)).toBe("0 of them are governed by a policy.");
  });
});

test("help names the probe switch by the form a person types", async () => {
  expect((await cli(["help", "scan"])).out).toMatch(/^ {2}--no-probe {18}start no MCP server/m);
});

describe("coverage is counted by matching the rules in force against what was listed", () => {
  test("the baseline covers some; the count is exactly the capabilities a rule matched", async () => {
    expect((await cli(["protect", "--yes"])).code).toBe(0);
    const after: Inventory = JSON.parse((await cli(["scan", "--json", "--no-probe"])).out);
    const outside = after.capabilities.filter((c) => c.outside);
    expect(after.coverage.outside).toBe(outside.length);
    expect(after.coverage.governed).toBe(outside.filter((c) => c.governed).length);
    expect(after.coverage.governed).toBeGreaterThan(0);
    expect(after.capabilities.find((c) => c.action === "git.push-force")).toMatchObject({
      governed: true,
      effect: "deny",
      rule: "git-push-force-denied",
    });
    expect(after.coverage.floor).toBe(false);
  });

  test("a rule file that will not parse makes the count a floor, and is named", async () => {
    writeFileSync(home.join(".memnox", "machine.policies.toml"), "[[policies]\nname = ");
    const r = await cli(["scan", "--no-probe"]);
    const last = r.out.trimEnd().split("\n").at(-1) ?? "";
    expect(last).toMatch(
      /^At least \d+ of them are governed by a policy: ~\/\.memnox\/machine\.policies\.toml has 1 problem, so this count is a floor\.$/,
    );
  });
});
