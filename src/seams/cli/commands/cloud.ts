// `memnox cloud serve` and `memnox cloud init`: the control plane, one more face of this binary, loaded only here.
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { personName } from "../../../state/identity.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

const DB = {
  type: "string",
  valueHint: "postgres://…",
  description: "the database (else DATABASE_URL, else a private cluster)",
} as const;
const DATA = {
  type: "string",
  valueHint: "dir",
  description: "where the private PostgreSQL cluster lives when no database is named (default ~/.memnox/cloud)",
} as const;

function whole(raw: string | undefined, flag: string, fallback: number, min = 0): number {
  if (raw === undefined) return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < min)
    throw new MemnoxError("usage", `--${flag} takes a whole number (${min} or more)`);
  return Number(raw);
}

/** One issuer and one audience for the deployment; both or neither. The client secret is never a flag (ps shows flags). */
function signInOf(env: Context["env"], issuer: string | undefined, clientId: string | undefined, selfService: boolean) {
  const iss = issuer ?? env.MEMNOX_OIDC_ISSUER;
  const id = clientId ?? env.MEMNOX_OIDC_CLIENT_ID;
  if (!iss && !id) return undefined;
  if (!iss || !id)
    throw new MemnoxError(
      "usage",
      "sign-in needs both --oidc-issuer and --oidc-client-id",
      "or neither, for no console sign-in",
    );
  const secret = env.MEMNOX_OIDC_CLIENT_SECRET;
  return { issuer: iss, clientId: id, selfService, ...(secret ? { clientSecret: secret } : {}) };
}

/** The deployment's model credential, from the environment only (ps shows flags): extraction's one provider. */
function modelOf(env: Context["env"]) {
  const apiKey = env.ANTHROPIC_API_KEY;
  if (!apiKey) return undefined;
  return {
    apiKey,
    baseUrl: (env.MEMNOX_MODEL_URL ?? "https://api.anthropic.com").replace(/\/+$/, ""),
    model: env.MEMNOX_EXTRACTION_MODEL ?? "claude-sonnet-4-5",
    // What Settings → Model may offer, where the deployment's endpoint serves fewer models than the adapter knows.
    ...(env.MEMNOX_MODELS
      ? {
          offered: env.MEMNOX_MODELS.split(",")
            .map((m) => m.trim())
            .filter(Boolean),
        }
      : {}),
  };
}

const SERVE_ARGS = {
  db: DB,
  data: DATA,
  host: { type: "string", description: "address to listen on (default 127.0.0.1)" },
  port: { type: "string", description: "port to listen on (default 8787; 0 for any free one)" },
  "public-url": { type: "string", description: "how machines reach this server, for the approval link" },
  "device-interval": { type: "string", description: "seconds between a logging-in machine's polls (default 5)" },
  "device-ttl": { type: "string", description: "seconds a login code is good for (default 900)" },
  pool: { type: "string", description: "database connections in this process (default 10)" },
  "oidc-issuer": {
    type: "string",
    description:
      "the console's OpenID provider (else MEMNOX_OIDC_ISSUER; the secret only in MEMNOX_OIDC_CLIENT_SECRET)",
  },
  "oidc-client-id": { type: "string", description: "the console's client id at that provider: the audience" },
  "self-service": {
    type: "boolean",
    description: "an unknown verified identity gets an organization of its own (default: refused)",
  },
  "rate-scale": {
    type: "string",
    description: "multiply every rate limit by this (a load test's fleet from one address; default 1)",
  },
} as const;

const INIT_ARGS = {
  org: { type: "string", description: "the organization's name (its workspace is named after it)" },
  admin: { type: "string", description: "the first admin's email" },
  db: DB,
  data: DATA,
  json: { type: "boolean", description: "structured output" },
} as const;

export const cloud: CommandFactory = (ctx) =>
  command({
    meta: { name: "cloud", description: "run the control plane: a workspace server many machines answer to" },
    subCommands: {
      serve: command({
        meta: { name: "serve", description: "serve the /v1/ API (PostgreSQL: --db, DATABASE_URL, or its own cluster)" },
        args: SERVE_ARGS,
        async run({ args }) {
          const { serveCloud } = await import("../../../cloud/serve.ts");
          return serveCloud(ctx, {
            db: args.db,
            data: args.data,
            host: args.host ?? "127.0.0.1",
            port: whole(args.port, "port", 8787),
            publicUrl: args["public-url"],
            deviceIntervalS: whole(args["device-interval"], "device-interval", 5, 1),
            deviceTtlS: whole(args["device-ttl"], "device-ttl", 900, 30),
            pool: args.pool === undefined ? undefined : whole(args.pool, "pool", 10, 1),
            signIn: signInOf(ctx.env, args["oidc-issuer"], args["oidc-client-id"], args["self-service"] === true),
            webhookSecret: ctx.env.MEMNOX_WEBHOOK_SECRET,
            model: modelOf(ctx.env),
            rateScale: args["rate-scale"] === undefined ? undefined : whole(args["rate-scale"], "rate-scale", 1, 1),
          });
        },
      }),
      init: command({
        meta: {
          name: "init",
          description: "make an organization and its workspace, and print the admin's one-time token",
        },
        args: INIT_ARGS,
        async run({ args }) {
          if (!args.org || !args.admin)
            throw new MemnoxError(
              "usage",
              "memnox cloud init needs --org and --admin",
              "memnox cloud init --org acme --admin you@acme.dev",
            );
          const { initCloud } = await import("../../../cloud/init.ts");
          const made = await initCloud(ctx, {
            org: args.org,
            admin: args.admin,
            db: args.db,
            data: args.data,
            by: `cli:${personName(ctx.env)}`,
          });
          emit(ctx, args.json, made, () => [
            `organization ${made.org.name} (${made.org.id}), workspace ${made.workspace.name} (${made.workspace.id})`,
            `admin ${made.admin.email}`,
            `admin token (shown once; only its hash is kept): ${made.token}`,
            "a machine joins with `memnox login --url <this server>`, approved with this token",
          ]);
          return 0;
        },
      }),
    },
  });
