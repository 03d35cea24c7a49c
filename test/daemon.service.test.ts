// The user service: the unit and plist memnox writes, checked by systemd-analyze where it exists, enabled through
// a stand-in systemctl/launchctl that records what it was asked (a test must never touch the real user manager).
import { afterEach, describe, expect, test } from "bun:test";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { daemonServiceStatus, installDaemonService, uninstallDaemonService } from "../src/wire/daemon-service.ts";
import { type FakeHome, fakeHome, runBinary, testContext } from "./support/index.ts";

let home: FakeHome;
afterEach(() => home[Symbol.dispose]());

const hasAnalyze = Bun.which("systemd-analyze") !== null;

/** A `systemctl`/`launchctl` that appends its argv to calls.log and answers as told. */
function standIn(h: FakeHome, name: string, script: string): { path: string; calls: () => string[] } {
  const dir = join(h.home, "fakebin");
  mkdirSync(dir, { recursive: true });
  const log = join(dir, "calls.log");
  writeFileSync(join(dir, name), `#!/bin/sh\necho "${name} $*" >> '${log}'\n${script}\n`);
  chmodSync(join(dir, name), 0o755);
  return {
    path: `${dir}:${process.env.PATH}`,
    calls: () => (existsSync(log) ? readFileSync(log, "utf8").trim().split("\n") : []),
  };
}

function context(h: FakeHome, path: string) {
  return testContext(h, { env: { PATH: path } }).ctx;
}

describe("systemd user unit", () => {
  test("install writes the unit, verifies it and enables it now and at login", async () => {
    home = fakeHome();
    const fake = standIn(home, "systemctl", 'case "$*" in *is-enabled*) echo enabled;; esac\nexit 0');
    const ctx = context(home, fake.path);
    const r = await installDaemonService(ctx, "linux");
    const file = join(home.home, ".config", "systemd", "user", "memnox.service");
    expect(r).toMatchObject({ manager: "systemd", file, changed: true, enabled: true });
    const unit = readFileSync(file, "utf8");
    expect(unit).toContain(`ExecStart=${ctx.selfArgv.join(" ")} daemon\n`);
    expect(unit).toContain(`Environment=MEMNOX_HOME=${home.memnoxHome}\n`);
    expect(unit).toContain("WantedBy=default.target");
    if (hasAnalyze) expect(r.verified).toBe("ok");
    expect(fake.calls()).toEqual(["systemctl --user daemon-reload", "systemctl --user enable --now memnox.service"]);
    expect((await installDaemonService(ctx, "linux")).changed).toBe(false);

    const status = await daemonServiceStatus(ctx, "linux");
    expect(status).toMatchObject({ manager: "systemd", file, installed: true, enabled: "enabled" });
    expect(status.daemon).toBeUndefined();

    const gone = await uninstallDaemonService(ctx, "linux");
    expect(gone.lines).toContain(`removed ${file}`);
    expect(existsSync(file)).toBe(false);
    expect(fake.calls()).toContain("systemctl --user disable --now memnox.service");
  });

  test("where no user manager answers (CI, containers) the file is written and the report says so", async () => {
    home = fakeHome();
    const fake = standIn(home, "systemctl", 'echo "Failed to connect to bus: No medium found" >&2\nexit 1');
    const r = await installDaemonService(context(home, fake.path), "linux");
    expect(r.enabled).toBe(false);
    expect(existsSync(r.file ?? "")).toBe(true);
    expect(r.lines.at(-1)).toContain("could not be enabled (Failed to connect to bus: No medium found)");
    expect(r.lines.at(-1)).toContain("systemctl --user enable --now memnox.service");
  });

  test.skipIf(!hasAnalyze)("a unit systemd-analyze finds wrong is not enabled", async () => {
    home = fakeHome();
    const fake = standIn(home, "systemctl", "exit 0");
    const ctx = { ...context(home, fake.path), selfArgv: [join(home.home, "no-such-binary")] };
    const r = await installDaemonService(ctx, "linux");
    expect(r.verified).toBe("problems");
    expect(r.problems).toContain("no-such-binary");
    expect(r.enabled).toBe(false);
    expect(fake.calls()).toEqual([]);
  });
});

describe("launchd agent", () => {
  test("install writes the plist and bootstraps it; uninstall boots it out and removes it", async () => {
    home = fakeHome();
    const fake = standIn(home, "launchctl", "exit 0");
    const ctx = context(home, fake.path);
    const r = await installDaemonService(ctx, "darwin");
    const file = join(home.home, "Library", "LaunchAgents", "com.memnox.daemon.plist");
    expect(r).toMatchObject({ manager: "launchd", file, enabled: true });
    const plist = readFileSync(file, "utf8");
    for (const arg of [...ctx.selfArgv, "daemon"]) expect(plist).toContain(`<string>${arg}</string>`);
    expect(plist).toContain("<key>MEMNOX_HOME</key>");
    expect(plist).toContain("<key>RunAtLoad</key>\n  <true/>");
    const uid = process.getuid?.() ?? 0;
    expect(fake.calls()).toEqual([
      `launchctl bootout gui/${uid}/com.memnox.daemon`,
      `launchctl bootstrap gui/${uid} ${file}`,
    ]);
    await uninstallDaemonService(ctx, "darwin");
    expect(existsSync(file)).toBe(false);
  });
});

test("`memnox daemon --status --json` from the compiled binary: nothing installed, nothing answering", async () => {
  home = fakeHome();
  const fake = standIn(home, "systemctl", 'echo "Failed to connect to bus: No medium found" >&2\nexit 1');
  const r = await runBinary("memnox", ["daemon", "--status", "--json"], { env: home.env({ PATH: fake.path }) });
  expect(r.code).toBe(0);
  const status = JSON.parse(r.stdout);
  expect(status).toMatchObject({ installed: false });
  expect(status.daemon).toBeUndefined();
  const human = await runBinary("memnox", ["daemon", "--status"], { env: home.env({ PATH: fake.path }) });
  expect(human.stdout).toContain("not installed: nothing starts the daemon at login; memnox daemon --install");
});
