// The console's Chromium runs share one stage: a real PostgreSQL, a real OpenID provider on loopback, the compiled
// `memnox cloud serve` signing in through it, `memnox cloud init` making acme and its admin, and Chromium with a
// screenshot folder. Every page a test opens reports its errors to `broken`, which a run ends by asserting is empty.
import { expect } from "bun:test";
import { join } from "node:path";
import type { BrowserContext, Page } from "playwright-core";
import { type RunningChromium, startChromium } from "./chromium.ts";
import { type RunningCloud, startCloud } from "./cloud.ts";
import { signIn } from "./console-browser.ts";
import { fakeHome } from "./home.ts";
import { runBinary } from "./index.ts";
import { freePort, type RunningProvider, startProvider } from "./oidc.ts";
import { startPostgres, type TestPostgres } from "./postgres.ts";

export interface ConsoleStage {
  readonly pg: TestPostgres;
  readonly provider: RunningProvider;
  readonly cloud: RunningCloud;
  readonly chrome: RunningChromium;
  /** The admin's token `cloud init` printed, for the acts a script does. */
  readonly adminToken: string;
  /** Page errors and console errors (a refused request's 4xx aside) from every page opened. */
  readonly broken: string[];
  /** A person in a browser context of their own. */
  person(): Promise<Page>;
  signIn(page: Page, login: string, path?: string): Promise<void>;
  shot(page: Page, name: string): Promise<Buffer>;
  stop(): Promise<void>;
}

/** The stage, its screenshots under `.cache/screenshots/<name>/`, the server started with `env` beside sign-in's. */
export async function startConsoleStage(name: string, env: Readonly<Record<string, string>>): Promise<ConsoleStage> {
  const home = fakeHome();
  const pg = await startPostgres();
  const port = freePort();
  const provider = await startProvider([`http://127.0.0.1:${port}/auth/callback`]);
  const [cloud, chrome] = await Promise.all([
    startCloud(pg.url, {
      port,
      args: ["--oidc-issuer", provider.issuer, "--oidc-client-id", provider.clientId],
      env: { MEMNOX_OIDC_CLIENT_SECRET: provider.clientSecret, ...env },
    }),
    startChromium(name),
  ]);
  const init = await runBinary(
    "memnox",
    ["cloud", "init", "--org", "acme", "--admin", "admin@acme.dev", "--db", pg.url, "--json"],
    { env: home.env() },
  );
  expect(init.code).toBe(0);
  const contexts: BrowserContext[] = [];
  const broken: string[] = [];
  return {
    pg,
    provider,
    cloud,
    chrome,
    adminToken: JSON.parse(init.stdout).token,
    broken,
    async person() {
      const ctx = await chrome.browser.newContext();
      contexts.push(ctx);
      const page = await ctx.newPage();
      page.on("pageerror", (e) => broken.push(`${page.url()}: ${e.message}`));
      page.on("console", (m) => {
        if (m.type() === "error" && !page.url().startsWith(provider.issuer) && !/status of 40[0139]/.test(m.text()))
          broken.push(`${page.url()}: ${m.text()}`);
      });
      return page;
    },
    signIn: (page, login, path = "/") => signIn(page, provider.issuer, cloud.url, login, path),
    shot: (page, shotName) => page.screenshot({ path: join(chrome.shots, `${shotName}.png`), fullPage: true }),
    async stop() {
      for (const c of contexts) await c.close().catch(() => {});
      await chrome.stop();
      await cloud.stop();
      await provider.stop();
      await pg.stop();
      home[Symbol.dispose]();
    },
  };
}
