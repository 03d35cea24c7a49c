// A real OpenID provider (oidc-provider from npm) on loopback for the console's tests, run as its own process:
// `bun oidc-provider.ts <port> <redirect_uri>...`. Its login screen (the package's own development interactions)
// takes any login: the login is the email, `unverified-…` logins come with email_verified false, and `<email>#<n>`
// signs in as another subject claiming the same email. Signing keys are made here at start; prints `ready <issuer>`.
import { generateKeyPairSync } from "node:crypto";
import Provider from "oidc-provider";

const [portArg, ...redirects] = process.argv.slice(2);
const port = Number(portArg ?? 0);
const issuer = `http://127.0.0.1:${port}`;
const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
const jwk = { ...privateKey.export({ format: "jwk" }), kid: "test-key", use: "sig", alg: "RS256" };

const provider = new Provider(issuer, {
  clients: [
    {
      client_id: "memnox-console",
      client_secret: process.env.OIDC_CLIENT_SECRET ?? "not-a-real-secret",
      redirect_uris: redirects,
      grant_types: ["authorization_code"],
      response_types: ["code"],
    },
  ],
  jwks: { keys: [jwk] },
  cookies: { keys: [crypto.randomUUID()] },
  pkce: { required: () => true },
  claims: { openid: ["sub"], email: ["email", "email_verified"] },
  async findAccount(_ctx: unknown, id: string) {
    const email = id.split("#")[0] ?? id;
    return {
      accountId: id,
      async claims() {
        return { sub: `subject:${id}`, email, email_verified: !email.startsWith("unverified") };
      },
    };
  },
});
provider.listen(port, "127.0.0.1", () => {
  process.stdout.write(`ready ${issuer}\n`);
});
