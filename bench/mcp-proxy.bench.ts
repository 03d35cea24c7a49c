// What the MCP proxy adds: tools/call latency through the real face (compiled, real gate and ledger) versus straight
// to the server, its start-up cost, and proof that the face loads none of the MCP SDK.
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

async function latency(proxy: string): Promise<void> {
  const direct = await callLatencies(EVERYTHING, ["stdio"]);
  const proxied = await callLatencies(proxy, ["--name", "everything", "--", EVERYTHING, "stdio"]);
  const p50 = quantile(proxied, 0.5) - quantile(direct, 0.5);
  const p99 = quantile(proxied, 0.99) - quantile(direct, 0.99);
  console.log(`tools/call over ${CALLS} calls (server-everything echo; compiled face, real gate, ledger rows written)`);
  console.log(`  direct   p50 ${ms(quantile(direct, 0.5))}  p99 ${ms(quantile(direct, 0.99))}`);
  console.log(`  proxied  p50 ${ms(quantile(proxied, 0.5))}  p99 ${ms(quantile(proxied, 0.99))}`);
  console.log(`  added    p50 ${ms(p50)}  p99 ${ms(p99)}  (target: p50 under 1 ms) ${p50 < 1 ? "ok" : "OVER"}`);
}

async function startup(bin: string, proxyLink: string): Promise<void> {
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
  // The whole face: arguments, the gate, a child that exits at once, and the proxy's own shutdown.
  const compiledProxy = await timeToExit([proxyLink, "--name", "x", "--", "true"], STARTS);
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

/** Modules of the MCP SDK a fresh bun holds after importing `module`: the proxy face must hold none. */
function sdkModulesLoaded(module: string): number {
  const script = `await import(${JSON.stringify(module)}); console.log(Object.keys(require.cache).filter((k) => k.includes("@modelcontextprotocol/sdk")).length)`;
  const r = Bun.spawnSync([process.execPath, "-e", script], { env, cwd: ROOT });
  return Number(r.stdout.toString().trim());
}

function sdkCheck(): void {
  const proxy = sdkModulesLoaded(join(ROOT, "src/seams/mcp-proxy/index.ts"));
  const session = sdkModulesLoaded(join(ROOT, "src/seams/session/server.ts"));
  console.log("MCP SDK modules loaded by importing a face");
  console.log(`  proxy face (src/seams/mcp-proxy/index.ts)    ${proxy} ${proxy === 0 ? "ok" : "LOADS THE SDK"}`);
  console.log(`  session server (src/seams/session/server.ts) ${session} (reference: the SDK is its job)`);
}

const links = mkdtempSync(join(tmpdir(), "memnox-bench-links-"));
try {
  const bin = await compiledBinary();
  const proxyLink = join(links, "memnox-mcp-proxy");
  symlinkSync(bin, proxyLink);
  await latency(proxyLink);
  await startup(bin, proxyLink);
  sdkCheck();
} finally {
  rmSync(home, { recursive: true, force: true });
  rmSync(links, { recursive: true, force: true });
}
