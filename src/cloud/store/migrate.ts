// Plain SQL migrations applied in order on start, under an advisory lock so two servers starting at once apply each once.
import { MemnoxError } from "../../core/errors.ts";
import type { Db } from "./db.ts";
import init from "./migrations/0001_init.sql" with { type: "text" };
import consoleTables from "./migrations/0002_console.sql" with { type: "text" };
import decisionTables from "./migrations/0003_decisions.sql" with { type: "text" };
import guarantees from "./migrations/0004_guarantees.sql" with { type: "text" };
import quickstart from "./migrations/0005_quickstart.sql" with { type: "text" };
import operate from "./migrations/0006_operate.sql" with { type: "text" };
import teams from "./migrations/0007_teams.sql" with { type: "text" };

interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

const MIGRATIONS: readonly Migration[] = [
  { version: 1, name: "init", sql: init },
  { version: 2, name: "console", sql: consoleTables },
  { version: 3, name: "decisions", sql: decisionTables },
  { version: 4, name: "guarantees", sql: guarantees },
  { version: 5, name: "quickstart", sql: quickstart },
  { version: 6, name: "operate", sql: operate },
  { version: 7, name: "teams", sql: teams },
];

/** The schema version this code writes: the newest migration it carries. */
export const SCHEMA_VERSION = Math.max(...MIGRATIONS.map((m) => m.version));

// Any fixed number: every memnox server takes the same lock before it looks at the schema.
const MIGRATION_LOCK = 0x6d6e7831;

/** Applies what is missing and returns the schema version; a database newer than this code is refused, not misread. */
export async function migrate(db: Db): Promise<{ readonly version: number; readonly applied: readonly string[] }> {
  return db.begin(async (tx) => {
    await tx`SELECT pg_advisory_xact_lock(${MIGRATION_LOCK})`;
    await tx.unsafe(
      "CREATE TABLE IF NOT EXISTS schema_migrations (version integer PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())",
    );
    const rows: { version: number }[] = await tx`SELECT version FROM schema_migrations`;
    const have = new Set(rows.map((r) => Number(r.version)));
    const newest = Math.max(0, ...have);
    if (newest > SCHEMA_VERSION)
      throw new MemnoxError(
        "conflict",
        `the control plane's database has schema version ${newest}, newer than this memnox understands (${SCHEMA_VERSION})`,
        "run the newer memnox against it",
      );
    const applied: string[] = [];
    for (const m of MIGRATIONS) {
      if (have.has(m.version)) continue;
      await tx.unsafe(m.sql);
      await tx`INSERT INTO schema_migrations (version, name) VALUES (${m.version}, ${m.name})`;
      applied.push(`${m.version}_${m.name}`);
    }
    return { version: SCHEMA_VERSION, applied };
  });
}
