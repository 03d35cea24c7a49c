// The team quickstart in the console, in real Chromium against real parts: the compiled `memnox cloud serve` on a real
// PostgreSQL, a real OpenID provider on loopback. An admin signs in, connects GitHub under Connectors, reads the
// delivery URL and secret off the page once, and a recorded GitHub App delivery signed with that secret
// (x-hub-signature-256) lands and appears under Knowledge with its link back; Connectors shows the source's health. A
// viewer invited under People signs in and is withheld what their clearance does not reach. An agent is enrolled with
// a grant whose credential is shown once and whose spend limit holds. The viewer is removed, with the receipt, and
// their session ends. GitHub's history is swept from a REST export uploaded on Connectors. Screenshots go to
// .cache/screenshots/quickstart/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Page } from "playwright-core";
import { api, type RunningCloud } from "../support/cloud.ts";
import { press } from "../support/console-browser.ts";
import { type ConsoleStage, startConsoleStage } from "../support/console-e2e.ts";

const PR = readFileSync(
  join(import.meta.dir, "..", "..", "fixtures", "intent", "github-pull-request-opened.json"),
  "utf8",
);
const GITHUB_EXPORT = join(import.meta.dir, "..", "..", "fixtures", "exports", "github-issues.json");

let stage: ConsoleStage;
let cloud: RunningCloud;
let adminToken = "";
let broken: string[] = [];

beforeAll(async () => {
  stage = await startConsoleStage("quickstart", {
    MEMNOX_WEBHOOK_SECRET: "whsec_VGhlLXRlYW0tcXVpY2tzdGFydC1pbi1DaHJvbWl1bQ==",
  });
  ({ cloud, adminToken, broken } = stage);
}, 180_000);

afterAll(() => stage?.stop());

const person = () => stage.person();
const signIn = (page: Page, login: string, path?: string) => stage.signIn(page, login, path);
const shot = (page: Page, name: string) => stage.shot(page, name);

/** GitHub's own signing: `sha256=` and the hex HMAC of the raw body, keyed with the webhook secret's text. */
function githubHeaders(secret: string, body: string, id: string): Record<string, string> {
  const mac = new Bun.CryptoHasher("sha256", new TextEncoder().encode(secret)).update(body).digest("hex");
  return {
    "content-type": "application/json",
    "x-github-event": "pull_request",
    "x-github-delivery": id,
    "x-hub-signature-256": `sha256=${mac}`,
  };
}

let admin: Page;
let viewer: Page;
let eventId = 0;

describe("the team quickstart, followed in the console", () => {
  test("1–2. the admin signs in and finishes onboarding", async () => {
    admin = await person();
    await signIn(admin, "admin@acme.dev");
    expect(new URL(admin.url()).pathname).toBe("/onboarding");
    await admin.getByLabel("What the team does").fill("We build the payments API.");
    await admin.getByLabel("Who you are").fill("Ada Admin");
    await admin.getByRole("button", { name: "Continue" }).click();
    await admin.waitForURL(`${cloud.url}/`);
  });

  test("4. Connectors: pick GitHub, see what it reads, choose a repository, paste the URL and secret shown once", async () => {
    await admin.goto(`${cloud.url}/connectors`);
    const github = admin.getByRole("region", { name: "GitHub" });
    expect(await github.textContent()).toContain("pull requests opened and merged");
    await shot(admin, "connectors");
    await github.getByLabel(/Streams to listen to/).fill("acme/checkout");
    await press(admin, github.getByRole("button", { name: "Connect GitHub" }));
    expect(await admin.getByRole("status").textContent()).toContain("GitHub saved");
    await press(admin, admin.getByRole("button", { name: "Show GitHub's delivery URL and secret" }));
    const url = (await admin.locator("#delivery-url").textContent()) ?? "";
    const secret = (await admin.locator("#delivery-secret").textContent()) ?? "";
    expect(url).toMatch(/\/v1\/inbound\/ws_[0-9a-f]+\/github$/);
    expect(secret).toMatch(/^whsec_/);
    await shot(admin, "connectors-secret");
    // Reloaded, the page no longer carries it.
    await admin.goto(`${cloud.url}/connectors`);
    expect(await admin.content()).not.toContain(secret);

    // GitHub delivers (the recorded payload), signed with what was pasted; a forged one is refused and counted.
    const landed = await fetch(url, { method: "POST", headers: githubHeaders(secret, PR, "gh-1"), body: PR });
    expect(landed.status).toBe(201);
    eventId = ((await landed.json()) as { id: number }).id;
    const forged = await fetch(url, {
      method: "POST",
      headers: githubHeaders("whsec_guessed", PR, "gh-2"),
      body: PR,
    });
    expect(forged.status).toBe(401);
    await admin.goto(`${cloud.url}/connectors`);
    const health = (await admin.getByRole("region", { name: "GitHub" }).locator("dl.health").textContent()) ?? "";
    expect(health).toMatch(/Delivered\s*1/);
    expect(health).toMatch(/Refused\s*1/);
    expect(health).toContain("x-hub-signature-256 does not check");
    await shot(admin, "connectors-health");
  });

  test("5. Knowledge: the event appears with a link back to the original, its author's trust and its class", async () => {
    await admin.goto(`${cloud.url}/knowledge`);
    const item = admin.locator(`#event-${eventId}`);
    expect(await item.textContent()).toContain("Strip PII from request logs");
    expect(await item.getByRole("link", { name: "Open the original" }).getAttribute("href")).toBe(
      "https://github.com/acme/checkout/pull/1347",
    );
    expect(await item.textContent()).toContain("untrusted author");
    await shot(admin, "knowledge");
  });

  test("8. People: a viewer invited with the link shown, who signs in and is withheld what their clearance does not reach", async () => {
    await admin.goto(`${cloud.url}/people`);
    await admin.getByLabel("Email").fill("viewer@acme.dev");
    await press(admin, admin.getByRole("button", { name: "Invite" }));
    expect(await admin.locator("#invite-link").textContent()).toBe(`${cloud.url}/signin`);
    await shot(admin, "people-invited");
    const classified = await api(cloud.url, "POST", `/v1/source-events/${eventId}/classify`, {
      token: adminToken,
      body: { level: "restricted" },
    });
    expect(classified.status).toBe(200);
    viewer = await person();
    await signIn(viewer, "viewer@acme.dev", "/knowledge");
    expect(await viewer.locator("#withheld").textContent()).toContain("1 event(s) withheld");
    expect(await viewer.content()).not.toContain("Strip PII");
    await shot(viewer, "knowledge-withheld");
    // A viewer is offered no connector, no secret, no grant, no removal.
    await viewer.goto(`${cloud.url}/connectors`);
    expect(await viewer.getByRole("button").allTextContents()).not.toContain("Connect GitHub");
    await viewer.goto(`${cloud.url}/agents`);
    expect(await viewer.getByRole("button", { name: "Mint the credential" }).count()).toBe(0);
  });

  test("Agents: enrolled with a grant whose credential is shown once, acting for the admin, within a spend limit", async () => {
    await admin.goto(`${cloud.url}/agents`);
    await admin.getByLabel("Agent's name").fill("release-bot");
    await admin.getByLabel("Role (the job it holds)").fill("release engineer");
    await admin.getByLabel(/spend limit/).fill("100");
    await admin.getByLabel("Expires after").selectOption("2h");
    await press(admin, admin.getByRole("button", { name: "Mint the credential" }));
    const credential = (await admin.locator("#agent-credential").textContent()) ?? "";
    expect(credential).toMatch(/^mnx_a_/);
    await shot(admin, "agent-credential");
    const spend = (amount: number) =>
      api(cloud.url, "POST", "/v1/spend", {
        headers: { authorization: `Bearer ${credential}` },
        body: { amount, action: "deploy.release" },
      });
    expect((await spend(20)).body.decision).toBe("allow");
    expect((await spend(250)).body.decision).toBe("ask");
    await admin.goto(`${cloud.url}/agents?name=release-bot`);
    expect(await admin.content()).not.toContain(credential);
    const grants = (await admin.locator("#grants").textContent()) ?? "";
    expect(grants).toContain("admin@acme.dev");
    expect(grants).toContain("100 USD");
    expect(await admin.locator(".facts").textContent()).toContain("270 USD");
    await shot(admin, "agent-grants");
  });

  test("Break-glass, sinks, privacy: an admin signed in breaks the glass with a reason, adds a sink, exports a subject; the viewer is offered none of it", async () => {
    const frozen = await api(cloud.url, "POST", "/v1/state", {
      token: adminToken,
      body: { kind: "freeze", subject: "payments", for: "1d" },
    });
    expect(frozen.status).toBe(201);
    await admin.goto(`${cloud.url}/waiting`);
    await admin.getByText("Break glass", { exact: true }).first().click();
    await admin.getByLabel("Why (a sentence)").fill("prod outage: the hotfix has to ship now");
    await admin.getByLabel("For", { exact: true }).selectOption("2h");
    await press(admin, admin.getByRole("button", { name: "Break glass" }));
    expect(await admin.getByRole("status").first().textContent()).toContain("Glass broken: 1 condition(s) suspended");
    await admin.goto(`${cloud.url}/waiting`);
    expect(await admin.locator("#break-glass-open").textContent()).toContain("prod outage");
    await shot(admin, "break-glass");
    const bundle = await api(cloud.url, "GET", "/v1/bundle", { token: adminToken });
    expect(JSON.parse(bundle.body.conditions).facts).toEqual([]);
    await viewer.goto(`${cloud.url}/waiting`);
    expect(await viewer.locator("#break-glass-open").count()).toBe(1);
    expect(await viewer.getByRole("button", { name: "Close it now" }).count()).toBe(0);

    await admin.goto(`${cloud.url}/settings`);
    await admin.getByLabel("Target").fill("https://siem.acme.dev/memnox");
    await press(admin, admin.getByRole("button", { name: "Add sink" }));
    const secret = (await admin.locator("#sink-secret").textContent()) ?? "";
    expect(secret).toMatch(/^whsec_/);
    await shot(admin, "sink-secret");
    await admin.goto(`${cloud.url}/settings`);
    expect(await admin.content()).not.toContain(secret);
    expect(await admin.locator("#sinks").textContent()).toContain("https://siem.acme.dev/memnox");
    await admin.locator("details", { hasText: "Register:" }).locator("summary").click();
    expect(await admin.locator("#register").textContent()).toContain("source_events");
    await admin.getByLabel("Subject (an address, or an author's account)").first().fill("admin@acme.dev");
    await press(admin, admin.getByRole("button", { name: "Export everything held about them" }));
    expect(await admin.locator("#subject-export").textContent()).toContain("admin@acme.dev");
    await shot(admin, "privacy-export");
    await viewer.goto(`${cloud.url}/settings`);
    expect(await viewer.getByRole("button", { name: "Add sink" }).count()).toBe(0);
    expect(await viewer.getByRole("button", { name: "Erase them" }).count()).toBe(0);
  });

  test("Connectors: the admin sweeps GitHub's history from a REST export; what arrived live already is not stored twice", async () => {
    await admin.goto(`${cloud.url}/connectors`);
    const github = admin.getByRole("region", { name: "GitHub" });
    await github.getByLabel(/Read its history from an export/).setInputFiles(GITHUB_EXPORT);
    await press(admin, github.getByRole("button", { name: "Sweep GitHub's history" }));
    expect(await admin.getByRole("status").first().textContent()).toContain("from github-issues.json");
    expect(await admin.locator("#sweep-read").textContent()).toBe("4 item(s), 6 event(s)");
    expect(await admin.locator("#sweep-stored").textContent()).toBe("4");
    expect(await admin.locator("#sweep-duplicates").textContent()).toBe("1");
    expect(await admin.locator("#sweep-skipped").textContent()).toContain(
      "`acme/web` is not one of the streams chosen",
    );
    await shot(admin, "connectors-sweep");
    await admin.goto(`${cloud.url}/knowledge?source=github`);
    const links = await admin
      .getByRole("link", { name: "Open the original" })
      .evaluateAll((as) => as.map((a) => (a as unknown as { href: string }).href));
    // The issue opened and closed, the pull request merged and commented on; its opening (classified restricted
    // above) is withheld.
    expect(links.sort()).toEqual([
      "https://github.com/acme/checkout/issues/1350",
      "https://github.com/acme/checkout/issues/1350",
      "https://github.com/acme/checkout/pull/1347",
      "https://github.com/acme/checkout/pull/1347#issuecomment-1650000001",
    ]);
    expect(await admin.locator("#withheld").textContent()).toContain("1 event(s) withheld");
  });

  test("People: the viewer removed, with the erasure receipt; their session ends", async () => {
    await admin.goto(`${cloud.url}/people`);
    await press(admin, admin.getByRole("form", { name: "Remove viewer@acme.dev" }).getByRole("button"));
    const receipt = (await admin.locator("#erasure-receipt").textContent()) ?? "";
    expect(receipt).toContain("sessions");
    expect(receipt).toContain("anonymised");
    await shot(admin, "people-removed");
    await viewer.goto(`${cloud.url}/knowledge`);
    expect(new URL(viewer.url()).pathname).toBe("/signin");
    expect(broken).toEqual([]);
  });
});
