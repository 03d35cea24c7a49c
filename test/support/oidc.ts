// The test provider as a process: started on a port chosen here (its redirect URIs must be known before the console's
// server starts), awaited on its readiness line, stopped at the end.
import { join } from "node:path";

export interface RunningProvider extends AsyncDisposable {
  readonly issuer: string;
  readonly clientId: string;
  readonly clientSecret: string;
  stop(): Promise<void>;
}

/** A port nobody is listening on now: opened and closed again, so a server can be told it before it starts. */
export function freePort(): number {
  const s = Bun.listen({ hostname: "127.0.0.1", port: 0, socket: { data: () => {} } });
  const port = s.port;
  s.stop(true);
  return port;
}

export async function startProvider(redirects: readonly string[]): Promise<RunningProvider> {
  const port = freePort();
  const clientSecret = `secret-${crypto.randomUUID()}`;
  const child = Bun.spawn([process.execPath, join(import.meta.dir, "oidc-provider.ts"), String(port), ...redirects], {
    env: { PATH: process.env.PATH ?? "", OIDC_CLIENT_SECRET: clientSecret, NODE_ENV: "test" },
    stdin: "ignore",
    stdout: "pipe",
    stderr: "pipe",
  });
  const decoder = new TextDecoder();
  let said = "";
  for await (const chunk of child.stdout) {
    said += decoder.decode(chunk, { stream: true });
    if (said.includes("ready ")) break;
  }
  const issuer = /ready (\S+)/.exec(said)?.[1];
  if (!issuer) throw new Error(`the OIDC provider did not start: ${said}${await new Response(child.stderr).text()}`);
  const stop = async () => {
    child.kill("SIGTERM");
    await child.exited;
  };
  return { issuer, clientId: "memnox-console", clientSecret, stop, [Symbol.asyncDispose]: stop };
}
