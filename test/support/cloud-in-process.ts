// The control plane in this test's own process: a private PostgreSQL, migrated, and the real HTTP face on a loopback
// port, with limits scaled up (a test's many requests come from one address). Organizations come with an admin signed
// in to the console.
import type { ModelConfig } from "../../src/cloud/http.ts";
import { type RunningServer, startServer } from "../../src/cloud/server.ts";
import { type Db, openDb } from "../../src/cloud/store/db.ts";
import { migrate } from "../../src/cloud/store/migrate.ts";
import { createOrg, type NewOrg } from "../../src/cloud/store/people.ts";
import { type Browser, sessionFor } from "./console.ts";
import { startPostgres } from "./postgres.ts";

export interface InProcessCloud {
  readonly db: Db;
  readonly url: string;
  /** A new organization named `<prefix><n>`, its admin `admin@<prefix><n>.dev` with a console session. */
  newOrg(prefix: string): Promise<NewOrg & { readonly browser: Browser }>;
  stop(): Promise<void>;
}

export async function startInProcessCloud(
  webhookSecret: string,
  more: { readonly model?: ModelConfig } = {},
): Promise<InProcessCloud> {
  const pg = await startPostgres();
  const db = await openDb(pg.url);
  await migrate(db);
  const server: RunningServer = startServer({
    db,
    config: { deviceIntervalS: 1, deviceTtlS: 600, version: "test", webhookSecret, ...more },
    hostname: "127.0.0.1",
    port: 0,
    now: () => Date.now(),
    log: () => {},
    rateScale: 100,
  });
  let orgs = 0;
  return {
    db,
    url: server.url,
    async newOrg(prefix) {
      orgs += 1;
      const o = await createOrg(db, `${prefix}${orgs}`, `admin@${prefix}${orgs}.dev`, "test");
      return { ...o, browser: await sessionFor(db, server.url, o.admin.id) };
    },
    async stop() {
      await server.stop();
      await db.close();
      await pg.stop();
    },
  };
}
