// `memnox cloud serve`: the control plane on this machine until SIGTERM or SIGINT, which stop it cleanly (and the
// private cluster with it, when this process started one).
import type { Context } from "../ports/context.ts";
import { openStore } from "./database.ts";
import type { ModelConfig, ServerConfig, SignInConfig } from "./http.ts";
import { startServer } from "./server.ts";
import { orgCount } from "./store/people.ts";

interface ServeArgs {
  readonly db?: string | undefined;
  readonly data?: string | undefined;
  readonly host: string;
  readonly port: number;
  readonly publicUrl?: string | undefined;
  readonly deviceIntervalS: number;
  readonly deviceTtlS: number;
  readonly pool?: number | undefined;
  readonly signIn?: SignInConfig | undefined;
  readonly webhookSecret?: string | undefined;
  readonly model?: ModelConfig | undefined;
  /** Every rate limit multiplied by this: a load test's whole fleet from one address (default 1). */
  readonly rateScale?: number | undefined;
  /** Resolves to stop as a signal would (tests). */
  readonly until?: Promise<void>;
}

function stopSignal(until: Promise<void> | undefined): Promise<string> {
  return new Promise((resolve) => {
    for (const s of ["SIGTERM", "SIGINT", "SIGHUP"] as const) process.once(s, () => resolve(s));
    until?.then(() => resolve("request"));
  });
}

export async function serveCloud(ctx: Context, a: ServeArgs): Promise<number> {
  const say = (line: string) => ctx.io.err(`memnox cloud: ${line}\n`);
  const store = await openStore(ctx, { db: a.db, data: a.data, say, ...(a.pool ? { max: a.pool } : {}) });
  let server: ReturnType<typeof startServer> | undefined;
  try {
    const config: ServerConfig = {
      ...(a.publicUrl ? { publicUrl: a.publicUrl } : {}),
      deviceIntervalS: a.deviceIntervalS,
      deviceTtlS: a.deviceTtlS,
      version: ctx.version,
      ...(a.signIn ? { signIn: a.signIn } : {}),
      ...(a.webhookSecret ? { webhookSecret: a.webhookSecret } : {}),
      ...(a.model ? { model: a.model } : {}),
    };
    server = startServer({
      db: store.db,
      config,
      hostname: a.host,
      port: a.port,
      now: () => ctx.clock.now(),
      log: say,
      ...(a.rateScale ? { rateScale: a.rateScale } : {}),
      ...(a.pool ? { pool: a.pool } : {}),
    });
    const orgs = await orgCount(store.db);
    say(`serving ${server.url} (pid ${process.pid}, schema ${store.schemaVersion}, database: ${store.describe})`);
    say(
      a.signIn
        ? `console sign-in through ${a.signIn.issuer} (audience ${a.signIn.clientId}; unknown identities ${a.signIn.selfService ? "get an organization of their own" : "are refused"})`
        : "console sign-in is not configured (--oidc-issuer, --oidc-client-id): the console says so",
    );
    say(
      a.model
        ? `extraction through ${a.model.model} at ${a.model.baseUrl}`
        : "extraction has no model credential (ANTHROPIC_API_KEY): it answers 503, and everything else works",
    );
    if (!a.webhookSecret) say("no MEMNOX_WEBHOOK_SECRET: the inbound route refuses every delivery");
    if (a.rateScale && a.rateScale > 1) say(`every rate limit is ${a.rateScale} times its default (--rate-scale)`);
    if (Number(orgs[0]?.n ?? 0) === 0)
      say("no organization yet: `memnox cloud init --org <name> --admin <email>` against the same database makes one");
    const why = await stopSignal(a.until);
    say(`stopping (${why})`);
    return 0;
  } finally {
    await server?.stop();
    await store.close();
  }
}
