// The value stays in the process that read it: every canary in the fake machine's credentials and configs is
// looked for in everything the discovery commands print, keep, record or log, in-process and from the binary.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { run } from "../src/seams/cli/index.ts";
import { startProbation } from "../src/state/probation.ts";
import { compiledBinary, runBinary, testContext } from "./support/index.ts";
import { CANARY, dockerHost, fakeSocket, rufloRepo, scanHome } from "./support/scan-machine.ts";

const home = scanHome();
const repo = rufloRepo();
const env = { DOCKER_HOST: `unix://${dockerHost(home)}` };
let socket: AsyncDisposable | undefined;
const seen: string[] = [];

async function cli(args: string[]): Promise<number> {
  const { ctx, io } = testContext(home, { args, cwd: repo.path, env });
  let code: number;
  try {
    code = await run(ctx);
  } catch (e) {
    seen.push((e as Error).message);
    code = 1;
  }
  seen.push(io.stdout(), io.stderr());
  return code;
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((n) => {
    const p = join(dir, n);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

beforeAll(async () => {
  await compiledBinary();
  socket = await fakeSocket(dockerHost(home));
  startProbation(home.join(".memnox", "probation.json"), "agent", "cursor", Date.parse("2026-11-29T12:00:00Z"));
});
afterAll(async () => {
  await socket?.[Symbol.asyncDispose]();
  home[Symbol.dispose]();
  repo[Symbol.dispose]();
});

describe("no credential value leaves the process that read it", () => {
  test("the fixtures really do hold canaries where the scan looks", () => {
    for (const f of [".aws/credentials", ".npmrc", ".claude.json", ".codex/config.toml", ".hermes/config.yaml"])
      expect(readFileSync(home.join(f), "utf8")).toContain(CANARY);
    expect(readFileSync(repo.join(".env"), "utf8")).toContain(CANARY);
  });

  test("in every report, JSON and human, of every discovery command", async () => {
    const runs = [
      ["scan", "--no-probe"],
      ["scan", "--json", "--no-probe"],
      ["scan", "--share", "--no-probe"],
      ["scan", "--share", "--json", "--no-probe"],
      ["scan", "--save", "--no-probe"],
      ["scan", "--since", "1h", "--json", "--no-probe"],
      ["scan", "--mcp", "crm", "--no-probe"],
      ["scan", "--mcp", "slack", "--json", "--no-probe"],
      ["scan", "--usage", "7d", "--json", "--no-probe"],
      ["doctor", "--no-probe"],
      ["doctor", "--json", "--no-probe"],
      ["status"],
      ["status", "--json"],
      ["agents", "discover", "--no-probe"],
      ["agents", "list", "--json"],
      ["agents", "name", "claude-code", "laptop claude"],
      ["agents", "status", "laptop claude", "--json"],
      ["agents", "trust", "cursor"],
      ["explain", "claude-code"],
      ["explain", "crm", "--json"],
      ["explain", "slack.send_invoice"],
      ["explain", home.join(".aws", "credentials"), "--json"],
      ["explain", `can hermes read ${home.join(".npmrc")}`],
      ["explain", "gh", "--json"],
      ["explain", "aws"],
      ["explain", "no-such-thing-here"],
      ["protect", "--from-usage", "30d"],
    ];
    for (const args of runs) await cli(args);
    expect(seen.join("\n").length).toBeGreaterThan(10_000);
    expect(seen.join("\n")).not.toContain(CANARY);
  });

  test("in every file memnox kept: the last scan, snapshots, caches, names, probation and the ledger", () => {
    const files = filesUnder(home.memnoxHome);
    expect(files.some((f) => f.endsWith("memnox.db"))).toBe(true);
    expect(files.some((f) => f.includes("snapshots"))).toBe(true);
    for (const f of files) expect(readFileSync(f).toString("latin1"), f).not.toContain(CANARY);
  });

  test("from the compiled binary, stdout and stderr alike", async () => {
    for (const args of [
      ["scan", "--json", "--no-probe"],
      ["doctor", "--no-probe"],
      ["explain", "codex"],
    ]) {
      const r = await runBinary("memnox", args, { env: home.env(env), cwd: repo.path });
      expect(r.code).toBe(0);
      expect(r.stdout + r.stderr).not.toContain(CANARY);
    }
  }, 30_000);
});
