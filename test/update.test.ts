// `memnox update` against a loopback release: offline changes nothing, an upgrade runs only after a yes and only the
// way this copy was installed (the real install.sh under sh here), and --rewire points the interceptors at the copy.
import { Database } from "bun:sqlite";
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readFileSync, readlinkSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Context } from "../src/ports/context.ts";
import { checkAndUpgrade, rewireAfterUpdate, type UpdateOptions } from "../src/seams/cli/commands/update.ts";
import { upgradePlan } from "../src/update/method.ts";
import { readReceipt, writeCopyReceipt } from "../src/update/receipt.ts";
import { LATEST_BASE } from "../src/update/release-index.ts";
import { compareVersions } from "../src/update/version.ts";
import { installAgentHook } from "../src/wire/hooks/install.ts";
import { writeKept } from "../src/wire/kept.ts";
import { testContext } from "./support/home.ts";
import { type FakeHome, fakeHome, runSource, tempDir } from "./support/index.ts";
import { hostRelease, type ReleaseServer, releaseServer, runInstallScript, stubBinary } from "./support/release.ts";

describe("versions", () => {
  test("semver order, pre-releases before their release, anything else incomparable", () => {
    expect(compareVersions("1.2.3", "1.2.3")).toBe(0);
    expect(compareVersions("1.2.3", "1.10.0")).toBe(-1);
    expect(compareVersions("2.0.0", "1.99.99")).toBe(1);
    expect(compareVersions("1.0.0-rc.1", "1.0.0")).toBe(-1);
    expect(compareVersions("1.0.0-rc.2", "1.0.0-rc.10")).toBe(-1);
    expect(compareVersions("1.0.0-alpha", "1.0.0-alpha.1")).toBe(-1);
    expect(compareVersions("0.0.0-source", "0.1.0")).toBe(-1);
    expect(compareVersions("v1.0.0", "1.0.0")).toBe(0);
    expect(compareVersions("latest", "1.0.0")).toBeUndefined();
  });
});

describe("how this copy was installed", () => {
  const app = "/home/u/.memnox/app/memnox";
  const plan = (execPath: string, receipt?: Parameters<typeof upgradePlan>[0]["receipt"], base = LATEST_BASE) =>
    upgradePlan({ execPath, app, receipt, base }, "2.0.0");

  test("install.sh: run it again, into the same prefix, from the same place", () => {
    const r = { method: "script", version: "1.0.0", target: "linux-x64", prefix: "/home/u/.local/bin" } as const;
    expect(plan(app, r)).toMatchObject({
      kind: "script",
      prefix: "/home/u/.local/bin",
      base: undefined,
      command: `curl -fsSL ${LATEST_BASE}/install.sh | sh -s -- --version 2.0.0 --prefix /home/u/.local/bin`,
    });
    const mirror = plan(app, { ...r, base: "https://mirror.example/memnox" }, "https://mirror.example/memnox");
    expect(mirror).toMatchObject({ kind: "script", base: "https://mirror.example/memnox" });
    expect(mirror.command).toContain("MEMNOX_INSTALL_BASE=https://mirror.example/memnox sh -s");
  });

  test("npm, pnpm and bun global installs are upgraded by their own manager; npm into the same prefix", () => {
    const npm = plan("/opt/homebrew/lib/node_modules/memnox/node_modules/@memnox/darwin-arm64/bin/memnox");
    expect(npm).toMatchObject({
      kind: "package-manager",
      method: "npm",
      argv: ["npm", "install", "--global", "--prefix", "/opt/homebrew", "memnox@2.0.0"],
    });
    const pnpm = plan(
      "/home/u/.local/share/pnpm/global/5/node_modules/.pnpm/@memnox+linux-x64@1.0.0/node_modules/@memnox/linux-x64/bin/memnox",
    );
    expect(pnpm).toMatchObject({
      kind: "package-manager",
      method: "pnpm",
      argv: ["pnpm", "add", "--global", "memnox@2.0.0"],
    });
    const bun = plan("/home/u/.bun/install/global/node_modules/@memnox/linux-x64/bin/memnox");
    expect(bun).toMatchObject({ kind: "package-manager", method: "bun" });
  });

  test("a copy setup took from a global npm install upgrades that install", () => {
    const source = "/usr/lib/node_modules/memnox/node_modules/@memnox/linux-x64/bin/memnox";
    expect(plan(app, { method: "copy", version: "1.0.0", source })).toMatchObject({
      kind: "package-manager",
      method: "npm",
      binary: source,
      argv: ["npm", "install", "--global", "--prefix", "/usr", "memnox@2.0.0"],
    });
  });

  test("the npx cache, a project's dependencies, yarn, or a path that says nothing: the command, printed", () => {
    const cases: [string, string, string][] = [
      ["/home/u/.npm/_npx/3f2a/node_modules/@memnox/linux-x64/bin/memnox", "npx", "npx memnox@2.0.0 setup"],
      ["/tmp/bunx-1000-memnox@latest/node_modules/@memnox/linux-x64/bin/memnox", "bunx", "bunx memnox@2.0.0 setup"],
      ["/work/shop/node_modules/@memnox/linux-x64/bin/memnox", "project", "cd /work/shop && npm install memnox@2.0.0"],
      [
        "/work/shop/node_modules/memnox/node_modules/@memnox/linux-x64/bin/memnox",
        "project",
        "cd /work/shop && npm install memnox@2.0.0",
      ],
      [
        "/work/shop/node_modules/.pnpm/@memnox+linux-x64@1.0.0/node_modules/@memnox/linux-x64/bin/memnox",
        "project",
        "cd /work/shop && pnpm add memnox@2.0.0",
      ],
      ["/home/u/.config/yarn/global/node_modules/@memnox/linux-x64/bin/memnox", "yarn", "yarn global add memnox@2.0.0"],
    ];
    for (const [path, method, command] of cases) {
      expect(plan(path)).toMatchObject({ kind: "print", method, command });
    }
    const unknown = plan("/opt/tools/memnox");
    expect(unknown).toMatchObject({ kind: "print", method: "unknown" });
    expect(unknown.command).toContain("install.sh | sh -s -- --version 2.0.0");
    expect(unknown.command).toContain("npm install -g memnox@2.0.0");
    expect(plan(app)).toMatchObject({ kind: "print", method: "unknown" });
  });
});

describe("the install receipt", () => {
  test("setup's copy receipt reads back; a broken one is an error naming the file and the field", () => {
    using home = fakeHome();
    const { ctx } = testContext(home);
    expect(readReceipt(ctx.paths)).toBeUndefined();
    writeCopyReceipt(ctx.paths, "1.0.0", "/usr/lib/node_modules/memnox/node_modules/@memnox/linux-x64/bin/memnox");
    expect(readReceipt(ctx.paths)?.method).toBe("copy");
    writeFileSync(join(home.memnoxHome, "app", "install.json"), JSON.stringify({ method: "script", version: "1" }));
    expect(() => readReceipt(ctx.paths)).toThrow(/install\.json` is not an install receipt: `target`/);
  });
});

const work = tempDir("memnox-update");
let server: ReleaseServer;
const bases: Record<string, string> = {};

beforeAll(() => {
  server = releaseServer();
  for (const v of ["1.0.0", "2.0.0"]) {
    bases[v] = server.mount(v, hostRelease(work.join(v), v, stubBinary(work.join(v, "bin"), v)).releaseDir);
  }
  const tampered = work.join("tampered");
  cpSync(work.join("2.0.0", "release"), tampered, { recursive: true });
  writeFileSync(join(tampered, "install.sh"), '#!/bin/sh\necho pwned > "$HOME/pwned"\n');
  bases.tampered = server.mount("tampered", tampered);
});

afterAll(async () => {
  await server[Symbol.asyncDispose]();
  work[Symbol.dispose]();
});

/** A home where install.sh put memnox 1.0.0, and a Context that is that copy running. */
async function installedHome(base = bases["1.0.0"]): Promise<{ home: FakeHome; app: string; log: string }> {
  const home = fakeHome();
  const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: base }));
  expect(r.code).toBe(0);
  return { home, app: join(home.memnoxHome, "app", "memnox"), log: join(home.home, "calls.log") };
}

function contextOf(home: FakeHome, app: string, env: Record<string, string> = {}) {
  const t = testContext(home, { env: { MEMNOX_STUB_LOG: join(home.home, "calls.log"), ...env } });
  const ctx: Context = { ...t.ctx, execPath: app, version: "1.0.0" };
  return { ctx, io: t.io };
}

function options(o: Partial<UpdateOptions> = {}): UpdateOptions {
  return { yes: false, json: true, ask: () => undefined, fetch: (url, init) => fetch(url, init), ...o };
}

const appVersion = (app: string) => readFileSync(app, "utf8").match(/--version\) echo (\S+)/)?.[1];

describe("memnox update", () => {
  test("offline: says so, exits 1 and changes nothing", async () => {
    const { home, app } = await installedHome();
    await using _ = home;
    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const url = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    const { ctx, io } = contextOf(home, app, { MEMNOX_INSTALL_BASE: url });
    expect(await checkAndUpgrade(ctx, options({ yes: true }))).toBe(1);
    const out = JSON.parse(io.stdout());
    expect(out).toMatchObject({ installed: "1.0.0", latest: null, reached: false, url: `${url}/release.json` });
    expect(appVersion(app)).toBe("1.0.0");
    const { ctx: human, io: humanIo } = contextOf(home, app, { MEMNOX_INSTALL_BASE: url });
    await checkAndUpgrade(human, options({ json: false }));
    expect(humanIo.stdout()).toContain("offline, or the releases moved; nothing was changed");
  });

  test("up to date: the installed and the latest version, nothing to do", async () => {
    const { home, app } = await installedHome();
    await using _ = home;
    const { ctx, io } = contextOf(home, app);
    expect(await checkAndUpgrade(ctx, options({ json: false }))).toBe(0);
    expect(io.stdout()).toBe("installed  1.0.0\nlatest     1.0.0\nmemnox 1.0.0 is up to date\n");
  });

  test("a newer release and nobody to ask, or a no: the command is shown and nothing changes", async () => {
    const { home, app, log } = await installedHome();
    await using _ = home;
    const base = bases["2.0.0"] ?? "";
    const unasked = contextOf(home, app, { MEMNOX_INSTALL_BASE: base });
    expect(await checkAndUpgrade(unasked.ctx, options())).toBe(0);
    expect(JSON.parse(unasked.io.stdout())).toMatchObject({
      installed: "1.0.0",
      latest: "2.0.0",
      method: "script",
      upgraded: false,
      why: "nobody could be asked (no terminal)",
    });
    const questions: string[] = [];
    const refused = contextOf(home, app, { MEMNOX_INSTALL_BASE: base });
    const ask = (q: string) => {
      questions.push(q);
      return false;
    };
    expect(await checkAndUpgrade(refused.ctx, options({ json: false, ask }))).toBe(0);
    expect(questions).toEqual(["upgrade memnox 1.0.0 to 2.0.0 with the command above?"]);
    expect(refused.io.stdout()).toContain(
      `upgrade    curl -fsSL ${base}/install.sh | MEMNOX_INSTALL_BASE=${base} sh -s`,
    );
    expect(refused.io.stdout()).toContain("you said no; nothing was changed");
    expect(appVersion(app)).toBe("1.0.0");
    expect(existsSync(log)).toBe(false);
  });

  test("after a yes: install.sh of the new release replaces the copy, the new binary rewires, and it is recorded", async () => {
    const { home, app, log } = await installedHome(bases["2.0.0"]);
    await using _ = home;
    // Back to 1.0.0 from its own release, so the receipt names the 2.0.0 base update must read.
    writeFileSync(app, readFileSync(work.join("1.0.0", "bin", "memnox")));
    const { ctx, io } = contextOf(home, app);
    expect(await checkAndUpgrade(ctx, options({ json: false, ask: () => true }))).toBe(0);
    expect(appVersion(app)).toBe("2.0.0");
    expect(readFileSync(log, "utf8")).toBe("2.0.0 update --rewire\n");
    expect(io.stdout()).toContain("memnox upgraded from 1.0.0 to 2.0.0 at");
    expect(io.stdout()).toContain(`memnox upgraded from 1.0.0 to 2.0.0; the wiring points at ${app}`);
    const db = new Database(ctx.paths.db, { readonly: true });
    const rows = db.query("select operation, reason from events").all();
    db.close();
    expect(rows).toEqual([{ operation: "memnox.update", reason: "memnox upgraded from 1.0.0 to 2.0.0 (script)" }]);
  });

  test("an install.sh that does not match release.json is never run", async () => {
    const { home, app } = await installedHome();
    await using _ = home;
    const { ctx } = contextOf(home, app, { MEMNOX_INSTALL_BASE: bases.tampered ?? "" });
    await expect(checkAndUpgrade(ctx, options({ yes: true }))).rejects.toThrow(
      /could not fetch install\.sh: .*install\.sh does not match release\.json.*nothing was changed/,
    );
    expect(existsSync(join(home.home, "pwned"))).toBe(false);
    expect(appVersion(app)).toBe("1.0.0");
  });

  test("from the npx cache it prints the command even with --yes", async () => {
    await using home = fakeHome();
    const npx = join(home.home, ".npm/_npx/ab12/node_modules/@memnox/linux-x64/bin/memnox");
    const { ctx, io } = contextOf(home, npx, { MEMNOX_INSTALL_BASE: bases["2.0.0"] ?? "" });
    expect(await checkAndUpgrade(ctx, options({ yes: true }))).toBe(0);
    expect(JSON.parse(io.stdout())).toMatchObject({
      method: "npx",
      command: "npx memnox@2.0.0 setup",
      upgraded: false,
    });
  });

  test("through the CLI: `memnox update --json` from source cannot tell its install and prints the command", async () => {
    await using home = fakeHome();
    const r = await runSource("memnox", ["update", "--json"], {
      env: home.env({ MEMNOX_INSTALL_BASE: bases["2.0.0"] ?? "" }),
    });
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ installed: "0.0.0-source", latest: "2.0.0", method: "unknown" });
  });
});

describe("update --rewire", () => {
  test("points every interceptor link at the stable copy and leaves files memnox did not make alone", async () => {
    await using home = fakeHome({
      ".memnox/app/memnox": { content: "#!/bin/sh\n", mode: 0o755 },
      ".memnox/bin/gh": "#!/bin/sh\necho not ours\n",
    });
    const { ctx } = testContext(home);
    const bin = ctx.paths.bin;
    symlinkSync("/old/place/memnox", join(bin, "git"));
    symlinkSync(ctx.paths.app, join(bin, "aws"));
    writeFileSync(
      join(bin, "kubectl"),
      "#!/bin/sh\nMEMNOX_ARGV0='kubectl' exec '/usr/bin/bun' '/src/bin/memnox.ts' \"$@\"\n",
    );
    const r = await rewireAfterUpdate(ctx);
    expect(r).toEqual({ relinked: ["git", "kubectl"], unchanged: 1, foreign: ["gh"] });
    for (const n of ["git", "aws", "kubectl"]) expect(readlinkSync(join(bin, n))).toBe(ctx.paths.app);
    expect(readFileSync(join(bin, "gh"), "utf8")).toContain("not ours");
    expect(await rewireAfterUpdate(ctx)).toEqual({ relinked: [], unchanged: 3, foreign: ["gh"] });
  });

  test("through the CLI it says what it re-pointed, and that there is nothing yet before setup", async () => {
    await using home = fakeHome({
      ".memnox/app/memnox": { content: "#!/bin/sh\n", mode: 0o755 },
      ".memnox/bin/git": { symlink: "/old/place/memnox" },
    });
    const first = await runSource("memnox", ["update", "--rewire"], { env: home.env() });
    expect(first.stdout).toBe("pointed 1 interceptor(s) at this copy: git\n");
    expect(first.code).toBe(0);
    await using bare = fakeHome();
    const none = await runSource("memnox", ["update", "--rewire", "--json"], { env: bare.env() });
    expect(JSON.parse(none.stdout)).toEqual({ relinked: [], unchanged: 0, foreign: [] });
  });
});

describe("rewire after an update, where setup ran", () => {
  test("refreshes the stable copy from the new binary and repoints the hooks setup keeps", async () => {
    using home = fakeHome({
      ".claude/settings.json": "{}\n",
      "old/memnox": { content: "#!/bin/sh\necho old\n", mode: 0o755 },
      "new/memnox": { content: "#!/bin/sh\necho new\n", mode: 0o755 },
    });
    const base = testContext(home).ctx;
    const old = { ...base, execPath: home.join("old", "memnox"), selfArgv: [home.join("old", "memnox")] };
    expect(installAgentHook(old, "claude-code").status).toBe("added");
    expect(readFileSync(home.join(".claude", "settings.json"), "utf8")).toContain(home.join("old", "memnox"));
    writeKept(base.paths.kept, () => ({ setupAt: "2026-11-30T12:00:00.000Z", hooked: ["claude-code"] }));
    const fresh = { ...base, execPath: home.join("new", "memnox"), selfArgv: [home.join("new", "memnox")] };
    const r = await rewireAfterUpdate(fresh);
    expect(readFileSync(base.paths.app, "utf8")).toBe("#!/bin/sh\necho new\n");
    expect(r.hooks).toEqual(["claude-code: repointed"]);
    expect(readFileSync(home.join(".claude", "settings.json"), "utf8")).toContain(base.paths.app);
  });
});
