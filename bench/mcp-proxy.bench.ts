// What the MCP proxy adds: tools/call latency through it versus straight to the server, and its start-up cost.
// Run: bun bench/mcp-proxy.bench.ts  (ratios against baselines measured in the same run; not a test).
import { mkdtempSync, rmSync, symlinkSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { compiledBinary } from "../test/support/binary.ts";
import { hermeticEnv } from "../test/support/home.ts";

const ROOT = join(import.meta.dir, "..");
const EVERYTHING = join(ROOT, "node_modules", ".bin", "mcp-server-everything");
const FACE = join(ROOT, "test", "support", "proxy-face.ts");
const CALLS = Number(process.env.BENCH_CALLS ?? 1000);
const WARMUP = 50;
const STARTS = Number(process.env.BENCH_STARTS ?? 20);

const home = mkdtempSync(join(tmpdir(), "memnox-bench-"));
const env = hermeticEnv({ HOME: home, MEMNOX_HOME: join(home, ".memnox") });

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))] ?? Number.NaN;
}

const ms = (n: number) => `${n.toFixed(3)} ms`;

async function callLatencies(command: string, args: string[]): Promise<number[]> {
  const client = new Client({ name: "bench", version: "1" });
  await client.connect(new StdioClientTransport({ command, args, env, stderr: "ignore" }));
  const times: number[] = [];
  for (let i = 0; i < WARMUP + CALLS; i++) {
    const t = performance.now();
    await client.callTool({ name: "echo", arguments: { message: `m${i}` } });
    if (i >= WARMUP) times.push(performance.now() - t);
  }
  await client.close();
  return times.sort((a, b) => a - b);
}

async function timeToExit(argv: string[], runs: number): Promise<number[]> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = performance.now();
    await Bun.spawn(argv, { env, stdin: "ignore", stdout: "ignore", stderr: "ignore" }).exited;
    times.push(performance.now() - t);
  }
  return times.sort((a, b) => a - b);
}

async function latency(): Promise<void> {
  const direct = await callLatencies(EVERYTHING, ["stdio"]);
  const proxied = await callLatencies(process.execPath, [FACE, "--name", "everything", "--", EVERYTHING, "stdio"]);
  const p50 = quantile(proxied, 0.5) - quantile(direct, 0.5);
  const p99 = quantile(proxied, 0.99) - quantile(direct, 0.99);
  console.log(`tools/call over ${CALLS} calls (server-everything echo; scripted allow-all gate, proxy from source)`);
  console.log(`  direct   p50 ${ms(quantile(direct, 0.5))}  p99 ${ms(quantile(direct, 0.99))}`);
  console.log(`  proxied  p50 ${ms(quantile(proxied, 0.5))}  p99 ${ms(quantile(proxied, 0.99))}`);
  console.log(`  added    p50 ${ms(p50)}  p99 ${ms(p99)}  (target: p50 under 1 ms) ${p50 < 1 ? "ok" : "OVER"}`);
}

async function startup(): Promise<void> {
  const bin = await compiledBinary();
  const links = mkdtempSync(join(tmpdir(), "memnox-bench-links-"));
  const proxyLink = join(links, "memnox-mcp-proxy");
  symlinkSync(bin, proxyLink);
  const bunTrivial = await timeToExit([process.execPath, "-e", "0"], STARTS);
  const faceImport = await timeToExit(
    [process.execPath, "-e", `await import(${JSON.stringify(join(ROOT, "src/seams/mcp-proxy/index.ts"))})`],
    STARTS,
  );
  const sdkImport = await timeToExit(
    [process.execPath, "-e", 'await import("@modelcontextprotocol/sdk/client/index.js")'],
    STARTS,
  );
  const compiledVersion = await timeToExit([bin, "--version"], STARTS);
  // Loads the proxy face and parses its arguments; exits where createGate is still unbuilt, before any child.
  const compiledProxy = await timeToExit([proxyLink, "--name", "x", "--", "true"], STARTS);
  rmSync(links, { recursive: true, force: true });
  const med = (xs: number[]) => quantile(xs, 0.5);
  console.log(`start-up, median of ${STARTS} runs`);
  console.log(`  bun -e 0 (baseline)                 ${ms(med(bunTrivial))}`);
  console.log(
    `  bun importing the proxy face        ${ms(med(faceImport))}  x${(med(faceImport) / med(bunTrivial)).toFixed(2)}`,
  );
  console.log(
    `  bun importing the SDK client (ref.) ${ms(med(sdkImport))}  x${(med(sdkImport) / med(bunTrivial)).toFixed(2)}`,
  );
  console.log(`  compiled memnox --version           ${ms(med(compiledVersion))}`);
  console.log(
    `  compiled memnox-mcp-proxy face      ${ms(med(compiledProxy))}  x${(med(compiledProxy) / med(compiledVersion)).toFixed(2)} of --version`,
  );
}

try {
  await latency();
  await startup();
} finally {
  rmSync(home, { recursive: true, force: true });
}
