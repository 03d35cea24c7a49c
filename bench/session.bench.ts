// The session server's start-up, as an agent meets it: spawn to an answered `initialize`, then the first tool call,
// for the compiled `memnox-session`, against `memnox --version` and a bare MCP server measured in the same run.
// Run: bun bench/session.bench.ts  (ratios against same-run baselines; not a test).
import { mkdirSync, mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { compiledBinary } from "../test/support/binary.ts";
import { hermeticEnv } from "../test/support/home.ts";

const ROOT = join(import.meta.dir, "..");
const EVERYTHING = join(ROOT, "node_modules", ".bin", "mcp-server-everything");
const STARTS = Number(process.env.BENCH_STARTS ?? 20);

const home = mkdtempSync(join(tmpdir(), "memnox-bench-"));
mkdirSync(join(home, ".memnox"), { recursive: true });
const env = hermeticEnv({ HOME: home, MEMNOX_HOME: join(home, ".memnox"), MEMNOX_SESSION: "ses_bench" });

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;
const ms = (n: number) => `${n.toFixed(1)} ms`;

async function connectTimes(
  command: string,
  args: string[],
  tool?: string,
): Promise<{ ready: number[]; call: number[] }> {
  const ready: number[] = [];
  const call: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t = performance.now();
    const client = new Client({ name: "bench", version: "1" });
    await client.connect(new StdioClientTransport({ command, args, env, cwd: home, stderr: "ignore" }));
    ready.push(performance.now() - t);
    if (tool) {
      const c = performance.now();
      await client.callTool({ name: tool, arguments: {} });
      call.push(performance.now() - c);
    }
    await client.close();
  }
  return { ready, call };
}

async function timeToExit(argv: string[]): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const t = performance.now();
    await Bun.spawn(argv, { env, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
    times.push(performance.now() - t);
  }
  return times;
}

const links = mkdtempSync(join(tmpdir(), "memnox-bench-links-"));
try {
  const bin = await compiledBinary();
  const sessionLink = join(links, "memnox-session");
  symlinkSync(bin, sessionLink);
  const version = median(await timeToExit([bin, "--version"]));
  const everything = await connectTimes(EVERYTHING, ["stdio"]);
  const session = await connectTimes(sessionLink, [], "status");
  console.log(`start-up, median of ${STARTS} runs`);
  console.log(`  compiled memnox --version (baseline)          ${ms(version)}`);
  console.log(
    `  server-everything, spawn to initialize (ref.)  ${ms(median(everything.ready))}  x${(median(everything.ready) / version).toFixed(2)}`,
  );
  console.log(
    `  memnox-session, spawn to initialize           ${ms(median(session.ready))}  x${(median(session.ready) / version).toFixed(2)}`,
  );
  console.log(`  memnox-session, first status call             ${ms(median(session.call))}`);
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(links, { recursive: true, force: true });
}
