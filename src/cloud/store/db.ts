// The control plane's one handle on PostgreSQL: Bun's built-in SQL client, a pool per server process.
import type { SQL } from "bun";
import { MemnoxError } from "../../core/errors.ts";
import { maskSecrets } from "../../core/secrets.ts";

export type Db = SQL;

/** The connections a server's pool holds unless told (`--pool`). */
export const DEFAULT_POOL = 10;

interface OpenDbOptions {
  /** Connections in this process's pool. */
  readonly max?: number;
}

/** Opens a pool on `url` and checks it answers, so a wrong URL fails at start with a readable message. */
export async function openDb(url: string, opts: OpenDbOptions = {}): Promise<Db> {
  if (!/^postgres(?:ql)?:\/\//.test(url))
    throw new MemnoxError("usage", "the database must be a postgres:// URL", "--db postgres://user@host/db");
  const db = new Bun.SQL(url, { max: opts.max ?? DEFAULT_POOL, idleTimeout: 30, connectionTimeout: 10 });
  try {
    await db`SELECT 1`;
  } catch (e) {
    await db.close().catch(() => {});
    throw new MemnoxError("io", `could not reach the database at ${maskSecrets(url)}: ${(e as Error).message}`);
  }
  return db;
}

/** One round trip: whether the database answers at all (the health check races it against a timer). */
export async function ping(db: Db): Promise<void> {
  await db`SELECT 1 AS one`;
}
