// `make e2e`: the real compiled binary, released twice (1.0.0 and 1.1.0) by the release code and served from
// loopback. install.sh under dash in clean homes (fresh, upgrade, a corrupted archive refused), `memnox update`
// upgrading through install.sh and through npm, `npm pack` tarballs installed offline and run with npx, and the
// quickstart's `npx memnox setup` from the loopback registry.
// Slow (two builds, four 100 MB tarballs), so it is not a *.test.ts: `bun test ./test/e2e/distribution.e2e.ts`.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, readlinkSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget } from "../../build.ts";
import { fakeHome, tempDir } from "../support/index.ts";
import { type NpmRegistry, npmRegistry } from "../support/npm-registry.ts";
import { hostRelease, type ReleaseServer, releaseServer, runInstallScript } from "../support/release.ts";

const host = hostTarget();
const VERSIONS = ["1.0.0", "1.1.0"] as const;
type Version = (typeof VERSIONS)[number];

const work = tempDir("memnox-dist-e2e");
const npmHome = fakeHome();
let server: ReleaseServer;
let registry: NpmRegistry;
const bases: Record<string, string> = {};
const packs: Record<Version, { platform: string; main: string }> = {
  "1.0.0": { platform: "", main: "" },
  "1.1.0": { platform: "", main: "" },
};

/** npm with its cache and config in a throwaway home, quiet, and pointed at the loopback registry. */
function npmEnv(extra: Record<string, string> = {}, home = npmHome) {
  return home.env({
    npm_config_cache: join(home.home, "npm-cache"),
    npm_config_registry: registry.url,
    npm_config_update_notifier: "false",
    npm_config_fund: "false",
    npm_config_audit: "false",
    npm_config_loglevel: "error",
    ...extra,
  });
}

/** Asynchronous on purpose: the release server and the registry answer from this same process. */
async function run(argv: string[], env: Record<string, string>, cwd?: string, stdin?: string) {
  const input = stdin === undefined ? "ignore" : new Blob([stdin]);
  const child = Bun.spawn(argv, { env, cwd: cwd ?? env.HOME ?? "/", stdin: input, stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr };
}

async function npmPack(dir: string, dest: string): Promise<string> {
  const r = await run(["npm", "pack", dir, "--pack-destination", dest, "--json"], npmEnv());
  if (r.code !== 0) throw new Error(`npm pack ${dir}: ${r.stderr}`);
  const [info] = JSON.parse(r.stdout) as { filename: string }[];
  if (!info) throw new Error(`npm pack ${dir} said nothing`);
  return join(dest, info.filename);
}

beforeAll(async () => {
  server = releaseServer();
  registry = npmRegistry();
  for (const v of VERSIONS) {
    const binary = await build(host, true, { version: v, outfile: work.join(v, "bin", "memnox") });
    const release = hostRelease(work.join(v), v, binary);
    bases[v] = server.mount(v, release.releaseDir);
    const platformDir = join(release.npmDir, host.name);
    const mainDir = join(release.npmDir, "memnox");
    packs[v] = { platform: await npmPack(platformDir, work.path), main: await npmPack(mainDir, work.path) };
    for (const [dir, tarball] of [
      [platformDir, packs[v].platform],
      [mainDir, packs[v].main],
    ] as const) {
      registry.publish({ manifest: JSON.parse(readFileSync(join(dir, "package.json"), "utf8")), tarball });
    }
  }
  const bad = work.join("bad");
  cpSync(work.join("1.1.0", "release"), bad, { recursive: true });
  const archive = join(bad, `memnox-1.1.0-${host.name}.tar.gz`);
  const bytes = readFileSync(archive);
  bytes[Math.floor(bytes.length / 2)] = (bytes[Math.floor(bytes.length / 2)] ?? 0) ^ 0x01;
  writeFileSync(archive, bytes);
  bases.bad = server.mount("bad", bad);
}, 300_000);

afterAll(async () => {
  await server[Symbol.asyncDispose]();
  await registry[Symbol.asyncDispose]();
  npmHome[Symbol.dispose]();
  work[Symbol.dispose]();
});

const sha = (path: string) => new Bun.CryptoHasher("sha256").update(readFileSync(path)).digest("hex");

describe("install.sh with the real binary", () => {
  test("fresh install, a corrupted archive refused, then `memnox update --yes` upgrades through install.sh", async () => {
    await using home = fakeHome();
    const app = join(home.memnoxHome, "app", "memnox");
    const memnox = join(home.home, ".local", "bin", "memnox");
    const fresh = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] ?? "" }));
    expect(fresh.stderr).toBe("");
    expect(fresh.stdout).toContain(`memnox 1.0.0 installed at ${app}`);
    expect((await run([memnox, "--version"], home.env())).stdout).toBe("1.0.0\n");
    const allowed = await run([memnox, "policy", "test", "git status"], home.env());
    expect(allowed.stdout).toContain("ALLOW  git.status");
    const shell = await run(
      [join(home.home, ".local", "bin", "memnox-shell"), "-c", "echo from the governed shell"],
      home.env(),
    );
    expect(shell.stdout).toBe("from the governed shell\n");

    const before = sha(app);
    const corrupt = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases.bad ?? "" }));
    expect(corrupt.code).toBe(1);
    expect(corrupt.stderr).toContain("does not match SHA256SUMS");
    expect(sha(app)).toBe(before);
    expect((await run([memnox, "--version"], home.env())).stdout).toBe("1.0.0\n");

    // An interceptor left pointing at an old place: the new binary's --rewire must point it at the stable copy.
    mkdirSync(join(home.memnoxHome, "bin"));
    symlinkSync("/old/place/memnox", join(home.memnoxHome, "bin", "git"));
    const env = home.env({ MEMNOX_INSTALL_BASE: bases["1.1.0"] ?? "" });
    const upgraded = await run([memnox, "update", "--yes", "--json"], env);
    expect(upgraded.stderr).toBe("");
    expect(upgraded.code).toBe(0);
    expect(JSON.parse(upgraded.stdout)).toMatchObject({
      installed: "1.0.0",
      latest: "1.1.0",
      method: "script",
      upgraded: true,
      binary: app,
    });
    expect((await run([memnox, "--version"], home.env())).stdout).toBe("1.1.0\n");
    expect(readlinkSync(join(home.memnoxHome, "bin", "git"))).toBe(app);
    expect(JSON.parse((await run([memnox, "update", "--json"], env)).stdout)).toMatchObject({ upToDate: true });

    const closed = Bun.serve({ hostname: "127.0.0.1", port: 0, fetch: () => new Response("") });
    const offlineBase = `http://127.0.0.1:${closed.port}`;
    await closed.stop(true);
    const offline = await run([memnox, "update", "--yes"], home.env({ MEMNOX_INSTALL_BASE: offlineBase }));
    expect(offline.code).toBe(1);
    expect(offline.stdout).toContain("nothing was changed");
    expect((await run([memnox, "--version"], home.env())).stdout).toBe("1.1.0\n");
  }, 120_000);

  test.skipIf(!Bun.which("script"))(
    "at a terminal `memnox update` asks: a no changes nothing, a yes upgrades",
    async () => {
      await using home = fakeHome();
      const app = join(home.memnoxHome, "app", "memnox");
      expect((await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] ?? "" }))).code).toBe(0);
      const env = home.env({ MEMNOX_INSTALL_BASE: bases["1.1.0"] ?? "" });
      // util-linux script(1) gives memnox a real terminal; the answer typed is what it reads from /dev/tty.
      const atTerminal = (answer: string) =>
        run(["script", "-qec", `'${app}' update`, "/dev/null"], env, undefined, answer);
      const no = await atTerminal("n\n");
      expect(no.stdout).toContain("upgrade memnox 1.0.0 to 1.1.0 with the command above? [y/N]");
      expect(no.stdout).toContain("you said no; nothing was changed");
      expect((await run([app, "--version"], home.env())).stdout).toBe("1.0.0\n");
      const yes = await atTerminal("y\n");
      expect(yes.stdout).toContain("memnox upgraded from 1.0.0 to 1.1.0; the wiring points at");
      expect((await run([app, "--version"], home.env())).stdout).toBe("1.1.0\n");
    },
    120_000,
  );

  test("re-running install.sh with a newer release upgrades in place", async () => {
    await using home = fakeHome();
    const app = join(home.memnoxHome, "app", "memnox");
    expect((await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] ?? "" }))).code).toBe(0);
    const inode = statSync(app).ino;
    const again = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.1.0"] ?? "" }));
    expect(again.stderr).toBe("");
    expect(again.stdout).toContain(`memnox upgraded from 1.0.0 to 1.1.0 at ${app}`);
    expect(again.stdout).toContain("no interceptors to point at this copy yet (memnox setup installs them)");
    expect(statSync(app).ino).not.toBe(inode);
    expect((await run([app, "--version"], home.env())).stdout).toBe("1.1.0\n");
  }, 120_000);
});

describe("npm", () => {
  test("the packed tarballs install offline into a project, and npx memnox runs there", async () => {
    await using project = tempDir("memnox-npm-project", {
      "package.json": JSON.stringify({ name: "shop", version: "1.0.0", private: true }),
    });
    const env = npmEnv({ MEMNOX_HOME: join(npmHome.home, ".memnox") });
    const install = await run(
      ["npm", "install", "--offline", packs["1.0.0"].platform, packs["1.0.0"].main],
      env,
      project.path,
    );
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    expect((await run(["npx", "--offline", "memnox", "--version"], env, project.path)).stdout).toBe("1.0.0\n");
    const decided = await run(["npx", "--offline", "memnox", "policy", "test", "git status"], env, project.path);
    expect(decided.stdout).toContain("ALLOW  git.status");
    expect(decided.code).toBe(0);
    const update = await run(
      ["npx", "--offline", "memnox", "update", "--yes", "--json"],
      {
        ...env,
        MEMNOX_INSTALL_BASE: bases["1.1.0"] ?? "",
      },
      project.path,
    );
    expect(JSON.parse(update.stdout)).toMatchObject({
      method: "project",
      command: `cd ${project.path} && npm install memnox@1.1.0`,
      upgraded: false,
    });
  }, 120_000);

  test("`npx memnox setup` from a registry: the stable copy comes from the npx cache, and update says to run npx", async () => {
    await using home = fakeHome();
    const env = npmEnv({}, home);
    const app = join(home.memnoxHome, "app", "memnox");
    const setup = await run(["npx", "--yes", "memnox@1.0.0", "setup", "--yes", "--json"], env);
    expect(setup.code).toBe(0);
    expect((await run([app, "--version"], env)).stdout).toBe("1.0.0\n");
    const receipt = JSON.parse(readFileSync(join(home.memnoxHome, "app", "install.json"), "utf8"));
    expect(receipt).toMatchObject({ method: "copy", version: "1.0.0" });
    expect(receipt.source).toContain(`${join(home.home, "npm-cache")}/_npx/`);
    // What setup wired starts the stable copy, never the npx cache that npx may clear.
    expect(readlinkSync(join(home.memnoxHome, "bin", "memnox-shell"))).toBe(app);

    const latest = { ...env, MEMNOX_INSTALL_BASE: bases["1.1.0"] ?? "" };
    const update = await run([app, "update", "--yes", "--json"], latest);
    expect(update.code).toBe(0);
    expect(JSON.parse(update.stdout)).toMatchObject({
      installed: "1.0.0",
      latest: "1.1.0",
      method: "npx",
      command: "npx memnox@1.1.0 setup",
      upgraded: false,
    });
    expect((await run([app, "--version"], env)).stdout).toBe("1.0.0\n");
    // The command it printed is the upgrade: the stable copy is the new version afterwards.
    expect((await run(["npx", "--yes", "memnox@1.1.0", "setup", "--yes", "--json"], env)).code).toBe(0);
    expect((await run([app, "--version"], env)).stdout).toBe("1.1.0\n");
  }, 180_000);

  test("npm install -g memnox from a registry, then `memnox update --yes` upgrades it with npm", async () => {
    await using prefix = tempDir("memnox-npm-global");
    const env = npmEnv({ MEMNOX_HOME: join(npmHome.home, ".memnox") });
    const install = await run(["npm", "install", "--global", "--prefix", prefix.path, "memnox@1.0.0"], env);
    expect(install.stderr).toBe("");
    expect(install.code).toBe(0);
    const memnox = prefix.join("bin", "memnox");
    expect((await run([memnox, "--version"], env)).stdout).toBe("1.0.0\n");
    const upgraded = await run([memnox, "update", "--yes", "--json"], {
      ...env,
      MEMNOX_INSTALL_BASE: bases["1.1.0"] ?? "",
    });
    expect(upgraded.stderr).toBe("");
    expect(JSON.parse(upgraded.stdout)).toMatchObject({
      installed: "1.0.0",
      latest: "1.1.0",
      method: "npm",
      command: `npm install --global --prefix ${prefix.path} memnox@1.1.0`,
      upgraded: true,
    });
    expect((await run([memnox, "--version"], env)).stdout).toBe("1.1.0\n");
  }, 120_000);
});
