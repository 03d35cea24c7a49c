// Memory recall, write and rebuild at 1K, 10K and 100K pages, against memex's published figures and a same-run baseline.
// Sizes: MEMNOX_BENCH_SIZES=1000,10000 to skip the 100K case (it takes a few minutes to generate).
import { closeSync, mkdirSync, mkdtempSync, openSync, readFileSync, rmSync, writeFileSync, writeSync } from "node:fs";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { hashBody, type PageMeta, renderPage } from "../src/memory/format/page.ts";
import { refreshPage } from "../src/memory/pages/navigation.ts";
import { rebuildIndex } from "../src/memory/pages/rebuild.ts";
import { openStore, type Store } from "../src/memory/pages/store.ts";
import { writePage } from "../src/memory/pages/write.ts";
import { recall } from "../src/memory/recall/recall.ts";
import { compiledBinary } from "../test/support/binary.ts";

const MEMEX = { recallP99: { 10000: 10.1, 100000: 74.3 } as Record<number, number>, writeMs: "16-27" };
const SIZES = (process.env.MEMNOX_BENCH_SIZES ?? "1000,10000,100000").split(",").map(Number);
const NOW = Date.parse("2026-11-30T12:00:00Z");

/** Deterministic PRNG so every run searches the same corpus. */
function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = ["ka", "lo", "mi", "nu", "pe", "ra", "si", "to", "ve", "zu", "bre", "dro", "fla", "gri", "sto"];
const rand = rng(7);
const VOCAB = Array.from({ length: 6000 }, (_, i) => {
  let w = "";
  for (let n = i; w.length < 6 || n > 0; n = Math.floor(n / SYLLABLES.length)) w += SYLLABLES[n % SYLLABLES.length];
  return w;
});
/** Zipf-like: small indexes are common words, large ones rare. */
const word = () => VOCAB[Math.floor(VOCAB.length * rand() ** 3)] ?? "ka";
const words = (n: number) => Array.from({ length: n }, word).join(" ");

function meta(i: number, title: string, body: string): PageMeta {
  const at = "2026-11-30T12:00:00Z";
  return {
    type: "entity",
    title,
    description: words(8),
    resource: null,
    tags: [word(), word()].filter((t, k, a) => a.indexOf(t) === k),
    timestamp: at,
    valid_from: null,
    valid_until: null,
    stale_after: null,
    updated_at: at,
    parent: null,
    supersedes: [],
    implements: [],
    depends_on: [],
    links: [],
    id: `00000000-0000-4000-8000-${String(i).padStart(12, "0")}`,
    created: at,
    importance: 0.5,
    access_count: 0,
    last_access: null,
    content_hash: hashBody(body),
    status: "active",
    occurred_at: null,
    source: null,
    harness: null,
    confidence: null,
    scope: "global",
    project_id: null,
    project_label: null,
    session_id: null,
    transcript_ref: null,
  };
}

function generate(dir: string, n: number): void {
  const types = ["entities", "preferences", "procedures"];
  for (const t of types) mkdirSync(join(dir, "docs/global", t), { recursive: true });
  for (let i = 0; i < n; i++) {
    const title = `${words(3)} ${i}`;
    const body = `${words(60 + Math.floor(rand() * 60))}.`;
    const m = meta(i, title, body);
    const dirName = types[i % 3] ?? "entities";
    const type = dirName === "entities" ? "entity" : dirName === "preferences" ? "preference" : "procedure";
    writeFileSync(join(dir, "docs/global", dirName, `p-${i}.md`), renderPage({ ...m, type }, body));
  }
}

function percentile(samples: number[], p: number): number {
  const s = [...samples].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.ceil((p / 100) * s.length) - 1)] ?? 0;
}

function time(fn: () => void): number {
  const t = performance.now();
  fn();
  return performance.now() - t;
}

/** Query terms come from the same text, minus its 100 most common words: recall drops stop words the same way. */
const term = (): string => {
  const w = word();
  return VOCAB.indexOf(w) < 100 ? term() : w;
};
const queries = () => Array.from({ length: 200 }, (_, i) => Array.from({ length: 1 + (i % 3) }, term).join(" "));

function rawFts(store: Store, q: string): void {
  // Baseline: the bare FTS5 query SQLite answers, with no filters, weights, snippets, links or telemetry.
  store
    .index()
    .db.query("SELECT rowid FROM pages_fts WHERE pages_fts MATCH ? ORDER BY rank LIMIT 10")
    .all(`"${q.split(" ")[0]}"`);
}

async function cli(bin: string, args: string[], env: Record<string, string>): Promise<number> {
  const t = performance.now();
  const p = Bun.spawn([bin, ...args], { env, stdout: "ignore", stderr: "ignore" });
  await p.exited;
  return performance.now() - t;
}

const fmt = (n: number) => n.toFixed(2).padStart(8);

async function main(): Promise<void> {
  const bin = await compiledBinary();
  console.log(
    `memory bench (Bun ${Bun.version}); memex publishes recall p99 10.1 ms @10K, 74.3 ms @100K, ${MEMEX.writeMs} ms per write`,
  );
  for (const n of SIZES) {
    const dir = mkdtempSync(join(tmpdir(), "memnox-bench-"));
    try {
      const genMs = time(() => generate(dir, n));
      const store = openStore({ dir, now: () => NOW });
      let rebuild = 0;
      const rebuildMs = time(() => {
        rebuild = rebuildIndex(store, { force: true }).nodes_indexed;
      });
      const qs = queries();
      for (const q of qs.slice(0, 20)) recall(store, { query: q, recordAccess: false });
      const inProc = qs.map((q) => time(() => recall(store, { query: q })));
      const base = qs.map((q) => time(() => rawFts(store, q)));
      const written: string[] = [];
      const writes = Array.from({ length: 100 }, (_, i) =>
        time(() => {
          const input = { type: "entity", title: `bench write ${i} ${word()}`, body: words(80) } as const;
          written.push(writePage(store, { ...input, scope: "global", author: "person" }).file_path);
        }),
      );
      // The share of a write spent splicing its row into its directory's index.md, rewritten in place from the row on.
      const splices = written.map((path) =>
        time(() =>
          refreshPage(store, path, {
            slug: basename(path, ".md"),
            type: "entity",
            title: "bench",
            description: "",
            path,
          }),
        ),
      );
      // Baseline: the same index read and written back whole, in place, what a splice at the first row must move.
      const indexFile = join(dir, "docs/global/entities/index.md");
      const whole = written.slice(0, 30).map(() =>
        time(() => {
          const bytes = readFileSync(indexFile);
          const fd = openSync(indexFile, "r+");
          writeSync(fd, bytes, 0, bytes.length, 0);
          closeSync(fd);
        }),
      );
      store.close();
      const env = {
        HOME: dir,
        MEMNOX_HOME: join(dir, ".memnox"),
        MEMNOX_MEMORY_DIR: dir,
        PATH: process.env.PATH ?? "",
      };
      const startup: number[] = [];
      const viaCli: number[] = [];
      const writeCli: number[] = [];
      for (let i = 0; i < 30; i++) {
        startup.push(await cli(bin, ["--version"], env));
        viaCli.push(await cli(bin, ["memory", "recall", qs[i] ?? "ka", "--json"], env));
        const title = `cli write ${i} ${word()}`;
        writeCli.push(
          await cli(
            bin,
            ["memory", "write", "--type", "entity", "--title", title, "--body", words(80), "--scope", "global"],
            env,
          ),
        );
      }
      const p99 = percentile(inProc, 99);
      const memex = MEMEX.recallP99[n];
      console.log(`\n== ${n.toLocaleString("en")} pages (generated in ${(genMs / 1000).toFixed(1)} s)`);
      console.log(
        `full rebuild          ${fmt(rebuildMs)} ms  (${rebuild} pages, ${(rebuildMs / rebuild).toFixed(3)} ms/page)`,
      );
      console.log(
        `recall in process     p50 ${fmt(percentile(inProc, 50))} ms  p99 ${fmt(p99)} ms${memex ? `  memex p99 ${memex} ms: ${(memex / p99).toFixed(1)}x better` : ""}`,
      );
      console.log(
        `  baseline raw FTS5   p50 ${fmt(percentile(base, 50))} ms  p99 ${fmt(percentile(base, 99))} ms  (recall/baseline p50 ${(percentile(inProc, 50) / percentile(base, 50)).toFixed(1)}x)`,
      );
      console.log(
        `recall via CLI        p50 ${fmt(percentile(viaCli, 50))} ms  p99 ${fmt(percentile(viaCli, 99))} ms  (goal at 10K: 60 ms with the start)`,
      );
      console.log(
        `  baseline --version  p50 ${fmt(percentile(startup, 50))} ms  (CLI recall minus startup p50 ${fmt(percentile(viaCli, 50) - percentile(startup, 50))} ms)`,
      );
      console.log(
        `write                 p50 ${fmt(percentile(writes, 50))} ms  p99 ${fmt(percentile(writes, 99))} ms  (memex ${MEMEX.writeMs} ms)`,
      );
      console.log(
        `  of which index.md   p50 ${fmt(percentile(splices, 50))} ms  (one directory of ${Math.round(n / 3).toLocaleString("en")} rows)`,
      );
      console.log(
        `  baseline whole file p50 ${fmt(percentile(whole, 50))} ms  (index.md read and rewritten whole; splice/baseline ${(percentile(splices, 50) / percentile(whole, 50)).toFixed(2)})`,
      );
      console.log(
        `write via CLI         p50 ${fmt(percentile(writeCli, 50))} ms  (minus startup p50 ${fmt(percentile(writeCli, 50) - percentile(startup, 50))} ms)`,
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
}

await main();
