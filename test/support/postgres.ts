// A real PostgreSQL cluster per test file, with the machine's own initdb/pg_ctl: started in a temporary directory,
// reached through a private socket, stopped at the end (and, should the test process die, stopped on its way out).
import { spawnSync } from "node:child_process";
import { chmodSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bunProc } from "../../src/adapters/proc.ts";
import { postgresBin, privateCluster } from "../../src/cloud/cluster.ts";

export interface TestPostgres extends AsyncDisposable {
  readonly url: string;
  readonly dataDir: string;
  /** Every row of every table in the public schema, as text: what the database holds now. */
  dump(): Promise<string>;
  /** Each needle with the cluster's files (tables, indexes, WAL) holding its bytes, after a checkpoint. */
  filesHolding(needles: readonly string[]): Promise<Record<string, string[]>>;
  stop(): Promise<void>;
}

const running = new Set<string>();
let hooked = false;

/** Stops whatever this process started if it exits without doing so itself: never leave a cluster behind. */
function stopOnExit(): void {
  if (hooked) return;
  hooked = true;
  process.on("exit", () => {
    const bin = postgresBin(process.env);
    for (const dataDir of running) {
      const asPostgres =
        process.getuid?.() === 0 ? ["setpriv", "--reuid=postgres", "--regid=postgres", "--clear-groups"] : [];
      const argv = [...asPostgres, join(bin, "pg_ctl"), "-D", dataDir, "-m", "immediate", "-w", "stop"];
      spawnSync(argv[0] ?? "", argv.slice(1), { stdio: "ignore" });
    }
  });
}

function walkFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    const s = statSync(p, { throwIfNoEntry: false });
    if (!s) return [];
    return s.isDirectory() ? walkFiles(p) : s.isFile() ? [p] : [];
  });
}

export async function startPostgres(): Promise<TestPostgres> {
  const dir = mkdtempSync(join(tmpdir(), "memnox-pg-"));
  chmodSync(dir, 0o711);
  stopOnExit();
  const cluster = await privateCluster({ dir, env: process.env, proc: bunProc(), fast: true });
  running.add(cluster.dataDir);
  const stop = async () => {
    if (!running.has(cluster.dataDir)) return;
    await cluster.stop();
    running.delete(cluster.dataDir);
    rmSync(dir, { recursive: true, force: true });
  };
  return {
    url: cluster.url,
    dataDir: cluster.dataDir,
    async dump() {
      const sql = new Bun.SQL(cluster.url, { max: 1 });
      try {
        const tables: { t: string }[] = await sql`
          SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' ORDER BY 1`;
        const parts: string[] = [];
        for (const { t } of tables) {
          const rows: { r: string }[] = await sql.unsafe(`SELECT x::text AS r FROM "${t}" x`);
          parts.push(`== ${t}`, ...rows.map((r) => r.r));
        }
        return parts.join("\n");
      } finally {
        await sql.close();
      }
    },
    async filesHolding(needles) {
      const sql = new Bun.SQL(cluster.url, { max: 1 });
      try {
        await sql`CHECKPOINT`;
      } finally {
        await sql.close();
      }
      const found: Record<string, string[]> = Object.fromEntries(needles.map((n) => [n, []]));
      for (const f of walkFiles(cluster.dataDir)) {
        let bytes: Buffer;
        try {
          bytes = readFileSync(f);
        } catch {
          continue;
        }
        for (const n of needles) if (bytes.includes(Buffer.from(n))) found[n]?.push(f);
      }
      return found;
    },
    stop,
    [Symbol.asyncDispose]: stop,
  };
}
