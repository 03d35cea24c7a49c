// Which database the control plane uses: --db, else DATABASE_URL, else a private cluster of its own under its data
// directory (and it says so). Migrations run on every open, so a fresh database is ready and an old one is upgraded.
import { join } from "node:path";
import { maskSecrets } from "../core/secrets.ts";
import type { Context } from "../ports/context.ts";
import { type Cluster, privateCluster } from "./cluster.ts";
import { type Db, openDb } from "./store/db.ts";
import { migrate } from "./store/migrate.ts";

interface StoreOptions {
  readonly db?: string | undefined;
  readonly data?: string | undefined;
  /** Connections in this process's pool. */
  readonly max?: number;
  readonly say: (line: string) => void;
}

interface Store {
  readonly db: Db;
  readonly schemaVersion: number;
  /** How to name the database in a log line (no password). */
  readonly describe: string;
  close(): Promise<void>;
}

function defaultDataDir(ctx: Pick<Context, "paths">): string {
  return join(ctx.paths.root, "cloud");
}

export async function openStore(ctx: Pick<Context, "env" | "proc" | "paths">, opts: StoreOptions): Promise<Store> {
  const url = opts.db ?? ctx.env.DATABASE_URL;
  let cluster: Cluster | undefined;
  let target: string;
  let describe: string;
  if (url) {
    target = url;
    describe = maskSecrets(url);
  } else {
    const dir = opts.data ?? defaultDataDir(ctx);
    opts.say(`no --db or DATABASE_URL: using a private PostgreSQL cluster under ${dir}`);
    cluster = await privateCluster({ dir, env: ctx.env, proc: ctx.proc, say: opts.say });
    target = cluster.url;
    describe = `private cluster in ${cluster.dataDir}`;
  }
  let db: Db | undefined;
  try {
    db = await openDb(target, opts.max !== undefined ? { max: opts.max } : {});
    const m = await migrate(db);
    if (m.applied.length > 0) opts.say(`database schema: applied ${m.applied.join(", ")}`);
    const open = db;
    return {
      db: open,
      schemaVersion: m.version,
      describe,
      close: async () => {
        await open.close();
        await cluster?.stop();
      },
    };
  } catch (e) {
    await db?.close().catch(() => {});
    await cluster?.stop().catch(() => {});
    throw e;
  }
}
