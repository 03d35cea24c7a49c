// `memnox doctor`: findings with severity, evidence and the one change that closes each, four counts at the end;
// a rule that closes a finding removes it; `--wiring` and `--prove` print what src/wire/wiring.ts reports.
import { afterAll, describe, expect, test } from "bun:test";
import { writeFileSync } from "node:fs";
import type { Finding } from "../src/scan/finding.ts";
import { doctorWith } from "../src/seams/cli/commands/doctor.ts";
import { run } from "../src/seams/cli/index.ts";
import { testContext } from "./support/index.ts";
import { rufloRepo, scanHome } from "./support/scan-machine.ts";

const home = scanHome();
const repo = rufloRepo();
afterAll(() => {
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

async function cli(args: string[]) {
  const { ctx, io } = testContext(home, { args, cwd: repo.path, env: { DOCKER_HOST: "tcp://127.0.0.1:1" } });
  const code = await run(ctx);
  return { code, out: io.stdout(), json: () => JSON.parse(io.stdout()) };
}

describe("memnox doctor", () => {
  test("each finding names severity, resource, evidence and the one fix; four counts close the list", async () => {
    const r = await cli(["doctor", "--no-probe"]);
    expect(r.code).toBe(0);
    expect(r.out).toMatch(/^CRITICAL ~\/\.ssh\/id_ed25519 is readable by \d+ agent\(s\)$/m);
    expect(r.out).toContain("fix: deny reads of ~/.ssh/id_ed25519");
    expect(r.out).toContain("fix: rules from its verb table: memnox protect --for gh");
    expect(r.out).toMatch(/claude-code: crm data|customer data can leave, in one session/);
    expect(r.out.trimEnd().split("\n").at(-1)).toMatch(
      /^\d+ critical, \d+ high, \d+ medium, \d+ low\. Nothing here compares this machine to another\.$/,
    );
  });

  test("--json: the findings and their counts; a credential fix carries the rule protect would write", async () => {
    const out = (await cli(["doctor", "--json", "--no-probe"])).json() as {
      findings: Finding[];
      counts: Record<string, number>;
    };
    const ssh = out.findings.find((f) => f.resource === home.join(".ssh", "id_ed25519"));
    expect(ssh?.severity).toBe("critical");
    expect(ssh?.agents).toContain("claude-code");
    expect(ssh?.fix.rule).toMatchObject({
      match: { actions: ["filesystem.read"], targets: ["~/.ssh/id_ed25519"] },
      decision: { effect: "deny" },
    });
    const env = out.findings.find((f) => f.resource === repo.join(".env"));
    expect(env?.severity).toBe("medium");
    expect(env?.fix.rule?.decision.alternative?.resource).toBe(repo.join(".env.example"));
    const local = out.findings.find((f) => f.resource === repo.join("services", "api", ".env.local"));
    expect(local?.fix.rule?.decision.alternative).toBeUndefined();
    const rsa = out.findings.find((f) => f.resource === home.join(".ssh", "id_rsa_deploy"));
    expect(rsa?.severity).toBe("high");
    const hermes = out.findings.find((f) => f.id.startsWith("server:hermes:crm@"));
    expect(hermes?.fix.words).toContain("run the agent under memnox run");
    expect(hermes?.fix.command).toBeUndefined();
    const claude = out.findings.find((f) => f.id.startsWith("server:claude-code:crm@"));
    expect(claude?.fix.command).toBe("memnox mcp wrap");
    const total = Object.values(out.counts).reduce((a, b) => a + b, 0);
    expect(total).toBe(out.findings.length);
    expect(out.findings.some((f) => f.id === "state:mode-observe" && f.severity === "low")).toBe(true);
    expect(out.findings.some((f) => f.id === "agents:undecided")).toBe(true);
  });

  test("the baseline's secret denies close the credential findings it covers", async () => {
    expect((await cli(["protect", "--yes"])).code).toBe(0);
    const out = (await cli(["doctor", "--json", "--no-probe"])).json() as { findings: Finding[] };
    const resources = out.findings.map((f) => f.resource);
    expect(resources).not.toContain(home.join(".ssh", "id_ed25519"));
    expect(resources).not.toContain(home.join(".aws", "credentials"));
    expect(resources).not.toContain(repo.join(".env"));
    expect(resources).not.toContain("git");
  });

  test("a config that will not parse and a rule file that will not load are findings of their own", async () => {
    writeFileSync(repo.join(".mcp.json"), '{ "mcpServers": { "x": ');
    writeFileSync(repo.join("memnox.policies.toml"), "[[policies]\n");
    const out = (await cli(["doctor", "--json", "--no-probe"])).json() as { findings: Finding[] };
    expect(out.findings.find((f) => f.id === `config:${repo.join(".mcp.json")}`)?.severity).toBe("medium");
    expect(out.findings.find((f) => f.resource === repo.join("memnox.policies.toml"))?.severity).toBe("high");
  });
});

describe("--wiring and --prove print what the wiring module reports", () => {
  const checks = async () => ({
    wiringReport: async () => [
      { seam: "config", status: "ok" as const, words: "mode is observe" },
      {
        seam: "path",
        status: "fail" as const,
        words: "interceptors are not ahead on PATH",
        fix: "memnox run -- <agent>",
      },
    ],
    proveSeams: async () => [
      { seam: "interceptor", result: "refused" as const, words: "git push --force refused" },
      { seam: "hook:codex", result: "declined" as const, words: "no hook installed" },
    ],
  });

  test("--wiring: each line, a failing one with its fix, exit 1 while one fails", async () => {
    const { ctx, io } = testContext(home, { cwd: repo.path });
    const code = await doctorWith(checks)(ctx).run?.({ args: { wiring: true, _: [] }, rawArgs: [], cmd: {} } as never);
    expect(code).toBe(1);
    expect(io.stdout()).toContain("ok   config        mode is observe");
    expect(io.stdout()).toContain("→ memnox run -- <agent>");
  });

  test("--prove: a declined seam is absent, not a failure", async () => {
    const { ctx, io } = testContext(home, { cwd: repo.path });
    const code = await doctorWith(checks)(ctx).run?.({ args: { prove: true, _: [] }, rawArgs: [], cmd: {} } as never);
    expect(code).toBe(0);
    expect(io.stdout()).toContain("refused  interceptor   git push --force refused");
    expect(io.stdout()).toContain("declined hook:codex");
  });

  test("a seam name longer than the column still leaves a space before its words", async () => {
    const wide = doctorWith(async () => ({
      wiringReport: async () => [{ seam: "hooks:gemini-cli", status: "ok" as const, words: "Gemini CLI: hooked" }],
      proveSeams: async () => [{ seam: "proxy:docs-search", result: "refused" as const, words: "the wrapped entry" }],
    }));
    const { ctx, io } = testContext(home, { cwd: repo.path });
    await wide(ctx).run?.({ args: { wiring: true, _: [] }, rawArgs: [], cmd: {} } as never);
    await wide(ctx).run?.({ args: { prove: true, _: [] }, rawArgs: [], cmd: {} } as never);
    expect(io.stdout()).toContain("ok   hooks:gemini-cli  Gemini CLI: hooked");
    expect(io.stdout()).toContain("refused  proxy:docs-search  the wrapped entry");
  });

  test("through the registry it prints src/wire/wiring.ts's real report", async () => {
    const r = await cli(["doctor", "--wiring", "--json"]);
    const seams = (r.json() as { lines: { seam: string }[] }).lines.map((l) => l.seam);
    expect(seams.slice(0, 2)).toEqual(["config", "rules"]);
    expect(seams).toContain("daemon");
    expect(seams.at(-1)).toBe("ledger");
  });
});
