// An admin's console acts for chat, the model and teams, in real Chromium against real parts: the compiled `memnox
// cloud serve` on a real PostgreSQL with a real OpenID provider. The admin connects Slack, reads the slash command URL
// and secret off Connectors, links their Slack account under People, and a command signed as Slack signs one freezes
// every machine (Waiting on you shows it, with Lift); an unlinked account is refused. Settings → Model offers only what
// this deployment constructs (MEMNOX_MODELS), takes a preset, and refuses a reasoning level a model lacks. A team is
// made, a viewer put on it waits out a cooling-off (no second admin) for the reviewer role it grants, and taken off
// keeps the grant; the viewer signs in and is offered none of it. Screenshots go to .cache/screenshots/console-admin/.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import type { Page } from "playwright-core";
import { signSlack } from "../../src/cloud/routes/chat.ts";
import { type RunningCloud, slashCommandBody } from "../support/cloud.ts";
import { press } from "../support/console-browser.ts";
import { type ConsoleStage, startConsoleStage } from "../support/console-e2e.ts";

let stage: ConsoleStage;
let cloud: RunningCloud;
let broken: string[] = [];

beforeAll(async () => {
  stage = await startConsoleStage("console-admin", {
    MEMNOX_WEBHOOK_SECRET: "whsec_QWRtaW4tYWN0cy1pbi1DaHJvbWl1bQ==",
    // A deployment whose model endpoint serves three of the adapter's models; nothing here calls it.
    ANTHROPIC_API_KEY: "not-a-real-key",
    MEMNOX_MODEL_URL: "http://127.0.0.1:9",
    MEMNOX_MODELS: "claude-sonnet-4-5,claude-haiku-4-5,claude-3-5-haiku-latest",
  });
  ({ cloud, broken } = stage);
}, 180_000);

afterAll(() => stage?.stop());

const person = () => stage.person();
const signIn = (page: Page, login: string, path?: string) => stage.signIn(page, login, path);
const shot = (page: Page, name: string) => stage.shot(page, name);

let admin: Page;
let commandsUrl = "";
let secret = "";

/** A slash command as Slack sends one, signed with what the admin pasted. */
function command(user: string, text: string): Promise<Response> {
  const body = slashCommandBody(user, text);
  const ts = Math.floor(Date.now() / 1000);
  return fetch(commandsUrl, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "x-slack-request-timestamp": String(ts),
      "x-slack-signature": signSlack(secret, ts, body),
    },
    body,
  });
}

describe("an admin's console acts", () => {
  test("chat: Slack connected, the admin's Slack account linked, /memnox freeze stops every machine; a stranger is refused", async () => {
    admin = await person();
    await signIn(admin, "admin@acme.dev");
    if (new URL(admin.url()).pathname === "/onboarding") {
      await admin.getByLabel("What the team does").fill("We build the payments API.");
      await admin.getByLabel("Who you are").fill("Ada Admin");
      await admin.getByRole("button", { name: "Continue" }).click();
      await admin.waitForURL(`${cloud.url}/`);
    }
    await admin.goto(`${cloud.url}/connectors`);
    const slack = admin.getByRole("region", { name: "Slack" });
    await slack.getByLabel(/Streams to listen to/).fill("C024BE7LR");
    await slack.getByLabel(/Base URL/).fill("https://acme.slack.com");
    await press(admin, slack.getByRole("button", { name: "Connect Slack" }));
    await press(admin, admin.getByRole("button", { name: "Show Slack's delivery URL and secret" }));
    commandsUrl = (await admin.locator("#commands-url").textContent()) ?? "";
    secret = (await admin.locator("#delivery-secret").textContent()) ?? "";
    expect(commandsUrl).toMatch(/\/v1\/inbound\/ws_[0-9a-f]+\/slack\/commands$/);
    await shot(admin, "connectors-slack-commands");

    await admin.goto(`${cloud.url}/people`);
    const chat = admin.getByRole("form", { name: "Link a Slack account" });
    await chat.getByLabel("Slack user id").fill("U0ADA0001");
    await chat.getByLabel("Member's address").fill("admin@acme.dev");
    await press(admin, chat.getByRole("button", { name: "Link" }));
    expect(await admin.getByRole("status").textContent()).toContain("U0ADA0001 now acts as admin@acme.dev");
    await shot(admin, "people-chat-accounts");

    const frozen = await command("U0ADA0001", "freeze 30m db migration going wrong");
    expect(frozen.status).toBe(200);
    const said = (await frozen.json()) as { response_type: string; text: string };
    expect(said.response_type).toBe("in_channel");
    expect(said.text).toContain("Frozen: every machine");
    await admin.goto(`${cloud.url}/waiting`);
    const section = (await admin.locator("#conditions").textContent()) ?? "";
    expect(section).toContain("freeze:machine");
    expect(section).toContain("db migration going wrong");
    expect(await admin.locator("#conditions").getByRole("button", { name: "Lift" }).count()).toBe(1);
    await shot(admin, "waiting-chat-freeze");

    const stranger = (await (await command("U0NOBODY1", "enforce-everywhere")).json()) as { text: string };
    expect(stranger.text).toContain("memnox does not know this Slack account");
  });

  test("Settings → Model: only what this deployment constructs; a preset taken; a level the model lacks refused", async () => {
    await admin.goto(`${cloud.url}/settings`);
    const models = (await admin.locator("#models").textContent()) ?? "";
    expect(models).toContain("Claude Haiku 3.5");
    expect(models).not.toContain("Opus");
    await admin.getByRole("radio", { name: /Quick/ }).check();
    await press(admin, admin.getByRole("button", { name: "Use this preset" }));
    expect(await admin.getByRole("status").textContent()).toContain("runs on the preset");
    expect(await admin.locator("#model-current").textContent()).toContain("Claude Haiku 4.5");
    await shot(admin, "settings-model");
    const any = admin.getByRole("form", { name: "Any model" });
    await any.getByLabel("Model").selectOption("claude-3-5-haiku-latest");
    await any.getByLabel("Reasoning").selectOption("high");
    await press(admin, any.getByRole("button", { name: "Use this model" }));
    expect(await admin.getByRole("alert").textContent()).toContain("refused rather than lowered");
    await admin.goto(`${cloud.url}/settings`);
    expect(await admin.locator("#model-current").textContent()).toContain("Claude Haiku 4.5");
  });

  test("teams: made, a viewer put on one waits out a cooling-off for the role it grants, taken off keeps the grant; the viewer is offered none of it", async () => {
    await admin.goto(`${cloud.url}/people`);
    const invite = admin.getByRole("form", { name: "Invite somebody" });
    await invite.getByLabel("Email").fill("vic@acme.dev");
    await press(admin, invite.getByRole("button", { name: "Invite" }));
    const make = admin.getByRole("form", { name: "Make a team" });
    await make.getByLabel("Team name").fill("release");
    await make.getByLabel("Role it grants").selectOption("reviewer");
    await press(admin, make.getByRole("button", { name: "Make the team" }));
    expect(await admin.getByRole("status").textContent()).toContain("Team release made");
    const put = admin.getByRole("form", { name: "Put somebody on a team" });
    await put.getByLabel("Member's address").fill("vic@acme.dev");
    await press(admin, put.getByRole("button", { name: "Put them on it" }));
    // Nobody else is an admin here: the reviewer role it grants waits out a cooling-off, not taken at once.
    expect(await admin.getByRole("status").textContent()).toContain("when its cooling-off ends");
    expect(await admin.locator("#teams").textContent()).toContain("vic@acme.dev");
    await shot(admin, "people-teams");
    await press(admin, admin.getByRole("button", { name: "Take off" }));
    expect(await admin.getByRole("status").textContent()).toContain("Their grant stays viewer");

    const vic = await person();
    await signIn(vic, "vic@acme.dev", "/people");
    const page = await vic.content();
    expect(page).toContain("release");
    expect(page).not.toContain("Make the team");
    expect(page).not.toContain("Link a Slack account");
    await vic.goto(`${cloud.url}/settings`);
    expect(await vic.content()).not.toContain("Use this preset");
    expect(broken).toEqual([]);
  });
});
