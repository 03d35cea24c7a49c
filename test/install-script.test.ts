// bin/install.sh under dash against a loopback release: fresh install, upgrade, refusals that leave the old binary
// exactly as it was, and the detection of OS, processor, libc and AVX2. Stand-in binaries keep it fast; the real
// compiled binary goes through the same script in test/e2e/distribution.e2e.ts.
import { afterAll, beforeAll, describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, readlinkSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { hostTarget } from "../build.ts";
import { fakeHome, tempDir } from "./support/index.ts";
import {
  hostRelease,
  installFunctions,
  type ReleaseServer,
  releaseServer,
  runInstallScript,
  stubBinary,
} from "./support/release.ts";

const NAMES = ["memnox", "memnox-mcp-proxy", "memnox-shell", "memnox-session"];
const work = tempDir("memnox-install");
let server: ReleaseServer;
const bases: Record<string, string> = {};

beforeAll(() => {
  server = releaseServer();
  for (const v of ["1.0.0", "2.0.0", "3.0.0"]) {
    const r = hostRelease(work.join(v), v, stubBinary(work.join(v, "bin"), v));
    bases[v] = server.mount(v, r.releaseDir);
  }
  // 3.0.0 with one byte of its archive flipped after SHA256SUMS was written: an altered or broken download.
  const bad = work.join("bad");
  cpSync(work.join("3.0.0", "release"), bad, { recursive: true });
  const archive = join(bad, `memnox-3.0.0-${hostTarget().name}.tar.gz`);
  const bytes = readFileSync(archive);
  bytes[bytes.length - 20] = (bytes[bytes.length - 20] ?? 0) ^ 0xff;
  writeFileSync(archive, bytes);
  bases.bad = server.mount("bad", bad);
  // 4.0.0 whose binary cannot run here (as a build for another processor would fail).
  const broken = stubBinary(work.join("4.0.0", "bin"), "4.0.0");
  writeFileSync(broken, "#!/bin/sh\necho 'cannot execute binary file: Exec format error' >&2\nexit 126\n");
  bases.broken = server.mount("broken", hostRelease(work.join("4.0.0"), "4.0.0", broken).releaseDir);
});

afterAll(async () => {
  await server[Symbol.asyncDispose]();
  work[Symbol.dispose]();
});

function installedAt(home: string) {
  const app = join(home, ".memnox", "app", "memnox");
  return {
    app,
    bin: join(home, ".local", "bin"),
    version: () => (existsSync(app) ? readFileSync(app, "utf8").match(/--version\) echo (\S+)/)?.[1] : undefined),
    receipt: () => JSON.parse(readFileSync(join(home, ".memnox", "app", "install.json"), "utf8")),
    leftovers: () => readdirSync(join(home, ".memnox", "app")).filter((n) => n.startsWith(".install")),
  };
}

describe("install.sh: install and upgrade", () => {
  test("a fresh install puts the binary in ~/.memnox/app, links four names, records how, and says what is next", async () => {
    await using home = fakeHome();
    const at = installedAt(home.home);
    const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(at.version()).toBe("1.0.0");
    expect(statSync(at.app).mode & 0o777).toBe(0o755);
    expect(statSync(join(home.home, ".memnox", "app")).mode & 0o777).toBe(0o700);
    for (const n of NAMES) expect(readlinkSync(join(at.bin, n))).toBe(at.app);
    expect(at.receipt()).toEqual({
      method: "script",
      version: "1.0.0",
      target: hostTarget().name,
      base: bases["1.0.0"],
      prefix: at.bin,
    });
    expect(r.stdout).toContain(`memnox 1.0.0 installed at ${at.app}`);
    expect(r.stdout).toContain(`export PATH="${at.bin}:$PATH"`);
    expect(r.stdout).toContain("next: memnox setup");
    expect(at.leftovers()).toEqual([]);
  });

  test("with the prefix already on PATH it prints only the next command; --prefix puts the links there", async () => {
    await using home = fakeHome();
    const prefix = join(home.home, "tools");
    const r = await runInstallScript(
      ["--prefix", prefix],
      home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"], PATH: `${prefix}:${process.env.PATH}` }),
    );
    expect(r.code).toBe(0);
    expect(r.stdout).not.toContain("export PATH");
    expect(r.stdout).toContain("next: memnox setup");
    expect(readlinkSync(join(prefix, "memnox"))).toBe(installedAt(home.home).app);
    expect(existsSync(join(home.home, ".local"))).toBe(false);
  });

  test("re-running at the same version downloads no archive and keeps the links", async () => {
    await using home = fakeHome();
    const env = home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] });
    expect((await runInstallScript([], env)).code).toBe(0);
    const before = server.requests.length;
    const again = await runInstallScript([], env);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain("memnox 1.0.0 is already installed");
    expect(server.requests.slice(before)).toEqual(["/1.0.0/SHA256SUMS"]);
  });

  test("an upgrade replaces the binary in place and has the new one redraw the wiring", async () => {
    await using home = fakeHome();
    const at = installedAt(home.home);
    const log = join(home.home, "calls.log");
    expect((await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }))).code).toBe(0);
    const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["2.0.0"], MEMNOX_STUB_LOG: log }));
    expect(r.stderr).toBe("");
    expect(r.code).toBe(0);
    expect(r.stdout).toContain(`memnox upgraded from 1.0.0 to 2.0.0 at ${at.app}`);
    expect(at.version()).toBe("2.0.0");
    expect(readFileSync(log, "utf8")).toBe("2.0.0 update --rewire\n");
    for (const n of NAMES) expect(readlinkSync(join(at.bin, n))).toBe(at.app);
    expect(at.receipt().version).toBe("2.0.0");
    expect(at.leftovers()).toEqual([]);
  });

  test("--version installs that release, and names it when the base does not have it", async () => {
    await using home = fakeHome();
    const ok = await runInstallScript(["--version", "v1.0.0"], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }));
    expect(ok.code).toBe(0);
    const missing = await runInstallScript(["--version=9.9.9"], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain(`SHA256SUMS lists no memnox 9.9.9 build for ${hostTarget().name}`);
  });
});

describe("install.sh: refusals leave the installed binary exactly as it was", () => {
  async function installed() {
    const home = fakeHome();
    expect((await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["2.0.0"] }))).code).toBe(0);
    const at = installedAt(home.home);
    const before = { bytes: readFileSync(at.app), ino: statSync(at.app).ino, receipt: at.receipt() };
    const unchanged = () => {
      expect(readFileSync(at.app)).toEqual(before.bytes);
      expect(statSync(at.app).ino).toBe(before.ino);
      expect(at.receipt()).toEqual(before.receipt);
      expect(at.leftovers()).toEqual([]);
    };
    return { home, at, unchanged };
  }

  test("an archive that does not match SHA256SUMS is refused before anything is replaced", async () => {
    const { home, unchanged } = await installed();
    await using _ = home;
    const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases.bad }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`memnox-3.0.0-${hostTarget().name}.tar.gz does not match SHA256SUMS`);
    expect(r.stderr).toContain("nothing was changed, memnox 2.0.0 is still installed");
    unchanged();
  });

  test("a download that fails says which and changes nothing", async () => {
    const { home, unchanged } = await installed();
    await using _ = home;
    const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: `${server.url}/gone` }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`could not download ${server.url}/gone/SHA256SUMS`);
    expect(r.stderr).toContain("404");
    unchanged();
  });

  test("a binary that does not run on this machine is never put in place", async () => {
    const { home, unchanged } = await installed();
    await using _ = home;
    const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases.broken }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`the ${hostTarget().name} build does not run on this machine`);
    expect(r.stderr).toContain("Exec format error");
    unchanged();
  });

  test("a memnox on the link path that is somebody else's stops the install before anything is written", async () => {
    await using home = fakeHome({ ".local/bin/memnox": { content: "#!/bin/sh\necho other\n", mode: 0o755 } });
    const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${home.home}/.local/bin/memnox already exists and is not a link to memnox`);
    expect(r.stderr).toContain("--prefix DIR");
    expect(existsSync(join(home.home, ".memnox", "app"))).toBe(false);
    expect(readFileSync(join(home.home, ".local/bin/memnox"), "utf8")).toContain("echo other");
  });

  test("a link left dangling by an earlier install is replaced; one to another program is not", async () => {
    await using home = fakeHome({ ".local/bin/memnox-shell": { symlink: "/nonexistent/memnox" } });
    expect((await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }))).code).toBe(0);
    expect(readlinkSync(join(home.home, ".local/bin/memnox-shell"))).toBe(installedAt(home.home).app);
    await using other = fakeHome({
      "other/memnox": "#!/bin/sh\n",
      ".local/bin/memnox": { symlink: "../../other/memnox" },
    });
    const r = await runInstallScript([], other.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"] }));
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("memnox already points at ../../other/memnox, which is not memnox's copy");
    expect(readlinkSync(join(other.home, ".local/bin/memnox"))).toBe("../../other/memnox");
    expect(existsSync(join(other.home, ".memnox", "app"))).toBe(false);
  });
});

describe("install.sh: which build fits this machine", () => {
  /** A directory of stand-in commands put first on PATH. */
  function stubs(tools: Record<string, string>) {
    const tree: Record<string, { content: string; mode: number }> = {};
    for (const [name, body] of Object.entries(tools)) tree[name] = { content: `#!/bin/sh\n${body}\n`, mode: 0o755 };
    const dir = tempDir("memnox-stubs", tree);
    return { dir, env: { PATH: `${dir.path}:${process.env.PATH}`, HOME: dir.path } };
  }

  const linux = process.platform === "linux";
  const avx2 = linux && /^flags\s*:.*\bavx2\b/m.test(readFileSync("/proc/cpuinfo", "utf8"));

  test("this machine: its own target", async () => {
    const r = await installFunctions("detect_target", { PATH: process.env.PATH, HOME: "/nonexistent" });
    expect(r.stderr).toBe("");
    const baseline = linux && process.arch === "x64" && !avx2;
    expect(r.stdout.trim()).toBe(baseline ? hostTarget().name.replace("x64", "x64-baseline") : hostTarget().name);
  });

  test("Linux on arm64 with musl: linux-arm64-musl", async () => {
    const s = stubs({
      uname: 'case "$1" in -s) echo Linux ;; -m) echo aarch64 ;; esac',
      getconf: "exit 1",
      ldd: 'echo "musl libc (aarch64)"; exit 1',
    });
    using _ = s.dir;
    expect((await installFunctions("detect_target", s.env)).stdout.trim()).toBe("linux-arm64-musl");
  });

  test("x64 without AVX2 takes the baseline build, with musl too", async () => {
    const glibc = stubs({ uname: 'case "$1" in -s) echo Linux ;; -m) echo x86_64 ;; esac' });
    using _g = glibc.dir;
    const noAvx = "has_avx2() { return 1; }\ndetect_target";
    expect((await installFunctions(noAvx, glibc.env)).stdout.trim()).toBe("linux-x64-baseline");
    const musl = stubs({
      uname: 'case "$1" in -s) echo Linux ;; -m) echo x86_64 ;; esac',
      getconf: "exit 1",
      ldd: "echo 'musl libc (x86_64)' >&2; exit 1",
    });
    using _m = musl.dir;
    expect((await installFunctions(noAvx, musl.env)).stdout.trim()).toBe("linux-x64-baseline-musl");
  });

  test.skipIf(!linux)("the processor flags decide AVX2 on this Linux machine", async () => {
    const r = await installFunctions("if has_avx2; then echo yes; else echo no; fi", { PATH: process.env.PATH });
    expect(r.stdout.trim()).toBe(avx2 ? "yes" : "no");
  });

  test("macOS: darwin-arm64, darwin-x64, and arm64 for a shell under Rosetta", async () => {
    const mac = (m: string, translated: string) =>
      stubs({
        uname: `case "$1" in -s) echo Darwin ;; -m) echo ${m} ;; esac`,
        sysctl: `[ "$2" = sysctl.proc_translated ] && echo ${translated}`,
      });
    const cases: [string, string, string][] = [
      ["arm64", "0", "darwin-arm64"],
      ["x86_64", "0", "darwin-x64"],
      ["x86_64", "1", "darwin-arm64"],
    ];
    for (const [m, translated, want] of cases) {
      const s = mac(m, translated);
      using _ = s.dir;
      expect((await installFunctions("detect_target", s.env)).stdout.trim()).toBe(want);
    }
  });

  test("another OS or processor is refused by name; --target skips detection but must be a target", async () => {
    const s = stubs({ uname: 'case "$1" in -s) echo FreeBSD ;; -m) echo riscv64 ;; esac' });
    using _ = s.dir;
    const r = await installFunctions("detect_target", s.env);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain("memnox runs on Linux and macOS; this is FreeBSD");
    await using home = fakeHome();
    const bad = await runInstallScript(["--target", "linux-x32"], home.env());
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain("`linux-x32` is not a memnox target");
  });

  const fallbacks = Boolean(Bun.which("wget") && Bun.which("shasum"));
  test.skipIf(!fallbacks)(
    "it runs with only POSIX tools, wget and shasum: no bash, no curl, no sha256sum",
    async () => {
      const tools = [
        "uname",
        "getconf",
        "ldd",
        "grep",
        "awk",
        "sed",
        "tr",
        "cut",
        "mkdir",
        "mktemp",
        "rm",
        "mv",
        "ln",
        "chmod",
        "readlink",
        "tar",
        "gzip",
        "wget",
        "shasum",
        "perl",
        "cat",
      ];
      const tree: Record<string, { symlink: string }> = {};
      for (const t of tools) {
        const found = Bun.which(t);
        if (found) tree[t] = { symlink: found };
      }
      await using bin = tempDir("memnox-posix-bin", tree);
      await using home = fakeHome();
      const r = await runInstallScript([], home.env({ MEMNOX_INSTALL_BASE: bases["1.0.0"], PATH: bin.path }));
      expect(r.stderr).toBe("");
      expect(r.code).toBe(0);
      expect(installedAt(home.home).version()).toBe("1.0.0");
    },
  );
});
