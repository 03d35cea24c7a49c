// GET /v1/health: whether this server can serve, which is whether its database answers. A load balancer that reads
// `ok: true` here sends traffic; with the database down it reads 503 and `database: "unreachable"`, never a bare ok.
import { type Call, json } from "../http.ts";
import { ping } from "../store/db.ts";
import { SCHEMA_VERSION } from "../store/migrate.ts";

/** How long the database has to answer before this server calls itself unhealthy. */
const HEALTH_TIMEOUT_MS = 2_000;

export async function health(c: Call): Promise<Response> {
  const started = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<"late">((resolve) => {
    timer = setTimeout(() => resolve("late"), HEALTH_TIMEOUT_MS);
  });
  const answered = ping(c.db).then(
    () => "up" as const,
    () => "down" as const,
  );
  const state = await Promise.race([answered, late]);
  clearTimeout(timer);
  const ms = Math.round(performance.now() - started);
  if (state !== "up")
    return json(
      {
        ok: false,
        schemaVersion: SCHEMA_VERSION,
        database: state === "late" ? "slow" : "unreachable",
        error: { code: "database_unreachable", message: "the database does not answer; this server cannot serve" },
      },
      503,
      { "retry-after": "5" },
    );
  return json({ ok: true, schemaVersion: SCHEMA_VERSION, database: "up", databaseMs: ms });
}
