// `memnox setup --url <url>` (issue 31): the machine wired as setup always does, then connected to that control plane
// as `memnox login` would: a code a person approves, the credential kept, and setup saying something left.
import { afterAll, beforeAll, expect, test } from "bun:test";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { initAcme, type RunningCloud, startCloud } from "./support/cloud.ts";
import { compiledBinary, fakeHome } from "./support/index.ts";
import { enrolApproved } from "./support/machine.ts";
import { startPostgres, type TestPostgres } from "./support/postgres.ts";

let pg: TestPostgres;
let cloud: RunningCloud;
let admin = "";
const home = fakeHome();

beforeAll(async () => {
  pg = await startPostgres();
  cloud = await startCloud(pg.url);
  admin = await initAcme(pg.url, home.env());
}, 120_000);

afterAll(async () => {
  await cloud?.stop();
  await pg?.stop();
  home[Symbol.dispose]();
});

test("setup --url wires the machine, then enrols it: the code approved, account.json written, the words honest", async () => {
  const bin = await compiledBinary();
  const argv = [bin, "setup", "--yes", "--no-probe", "--url", cloud.url, "--no-open"];
  const { out } = await enrolApproved(argv, home.env(), home.home, cloud.url, admin);
  // Wired as setup always wires it…
  expect(readFileSync(join(home.memnoxHome, "machine.policies.toml"), "utf8")).toContain("ssh-keys-not-read");
  // …and connected, with the credential owner-only.
  const account = join(home.memnoxHome, "account.json");
  expect(statSync(account).mode & 0o777).toBe(0o600);
  expect(JSON.parse(readFileSync(account, "utf8")).url).toBe(cloud.url);
  expect(out).toContain("connected to workspace acme");
  expect(out).toContain(`This machine is under memnox, and connected to ${cloud.url}.`);
  expect(out).not.toContain("Nothing left this machine");
}, 120_000);
