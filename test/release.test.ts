// What `bun build.ts --release` writes: archives any tar reads, checksums sha256sum checks, an index `memnox update`
// parses, and npm packages whose launcher runs the binary for this machine (or names the package it is missing).
import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { archiveName, writeArchive } from "../bin/release/archives.ts";
import { npmName } from "../bin/release/npm.ts";
import { checkTables, hostTarget, TARGETS } from "../build.ts";
import { parseReleaseIndex } from "../src/update/release-index.ts";
import { tempDir } from "./support/index.ts";
import { hostRelease, stubBinary } from "./support/release.ts";

const work = tempDir("memnox-release");
afterAll(() => work[Symbol.dispose]());

const host = hostTarget();
const release = hostRelease(work.join("r"), "1.4.0", stubBinary(work.join("bin"), "1.4.0"));

function sh(argv: string[], cwd: string) {
  const r = Bun.spawnSync(argv, { cwd, stdout: "pipe", stderr: "pipe" });
  return { code: r.exitCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
}

describe("build", () => {
  test("a verb table changed without its checksum stops the build, naming the table and the fix", async () => {
    const moved = { cli: "git", expected: "c53-old", actual: "c53-new", ok: false };
    await expect(checkTables([moved])).rejects.toThrow(/git \(record c53-new in src\/resolve\/tables\/checksums\.ts/);
    await expect(checkTables()).resolves.toBeUndefined();
  });
});

describe("release archives", () => {
  test("one tar.gz per target named memnox-<version>-<target>, holding only `memnox`, mode 0755", () => {
    const file = join(release.releaseDir, `memnox-1.4.0-${host.name}.tar.gz`);
    const listing = sh(["tar", "-tvzf", file], release.releaseDir);
    expect(listing.code).toBe(0);
    const lines = listing.stdout.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^-rwxr-xr-x root\/root .* memnox$/);
    const out = work.join("unpacked");
    mkdirSync(out);
    expect(sh(["tar", "-xzf", file], out).code).toBe(0);
    expect(readFileSync(join(out, "memnox"))).toEqual(readFileSync(work.join("bin", "memnox")));
  });

  test("the same binary and time give byte-identical archives", () => {
    const a = work.join("a");
    const b = work.join("b");
    mkdirSync(a);
    mkdirSync(b);
    const binary = work.join("bin", "memnox");
    const x = writeArchive(binary, host, "1.4.0", a, { level: 9, mtime: 1_700_000_000 });
    const y = writeArchive(binary, host, "1.4.0", b, { level: 9, mtime: 1_700_000_000 });
    expect(x).toEqual(y);
    expect(readFileSync(join(a, x.file))).toEqual(readFileSync(join(b, y.file)));
  });

  test("SHA256SUMS lists every archive and install.sh, and sha256sum -c accepts it", () => {
    const sums = readFileSync(join(release.releaseDir, "SHA256SUMS"), "utf8");
    expect(
      sums
        .trim()
        .split("\n")
        .map((l) => l.split("  ")[1]),
    ).toEqual(["install.sh", `memnox-1.4.0-${host.name}.tar.gz`]);
    const check = sh(["sha256sum", "-c", "SHA256SUMS"], release.releaseDir);
    expect(check.stdout).toContain("install.sh: OK");
    expect(check.code).toBe(0);
  });

  test("release.json is what `memnox update` reads, with each archive's size and checksum", () => {
    const url = "file:///release.json";
    const index = parseReleaseIndex(url, readFileSync(join(release.releaseDir, "release.json"), "utf8"));
    expect(index.version).toBe("1.4.0");
    const [t] = index.targets;
    expect(t?.name).toBe(host.name);
    expect(t?.npm).toBe(`@memnox/${host.name}`);
    expect(t?.size).toBe(statSync(join(release.releaseDir, archiveName("1.4.0", host))).size);
    expect(index.installScript.file).toBe("install.sh");
    expect(readFileSync(join(release.releaseDir, "install.sh"), "utf8")).toStartWith("#!/bin/sh\n");
  });

  test("a release index that is not one is refused naming the field", () => {
    const url = "http://127.0.0.1/release.json";
    const good = JSON.parse(readFileSync(join(release.releaseDir, "release.json"), "utf8"));
    expect(() => parseReleaseIndex(url, "<html>")).toThrow(`the release index at \`${url}\` is not JSON`);
    expect(() => parseReleaseIndex(url, JSON.stringify({ ...good, version: "latest" }))).toThrow(
      "`version` is not a version",
    );
    const badSum = { ...good, targets: [{ ...good.targets[0], sha256: "abc" }] };
    expect(() => parseReleaseIndex(url, JSON.stringify(badSum))).toThrow("`targets.0.sha256` is not a sha256 in hex");
  });
});

describe("npm packages", () => {
  const read = (dir: string) => JSON.parse(readFileSync(join(release.npmDir, dir, "package.json"), "utf8"));

  test("a platform package carries the binary and says where it runs: os, cpu, libc", () => {
    const pkg = read(host.name);
    expect(pkg.name).toBe(npmName(host));
    expect(pkg.version).toBe("1.4.0");
    expect(pkg.os).toEqual([host.os]);
    expect(pkg.cpu).toEqual([host.cpu]);
    if (host.libc) expect(pkg.libc).toEqual([host.libc]);
    expect(pkg.bin).toBeUndefined();
    expect(pkg.files).toEqual(["bin/memnox"]);
    expect(statSync(join(release.npmDir, host.name, "bin", "memnox")).mode & 0o111).toBe(0o111);
  });

  test("memnox names every target but the baseline builds as optional dependencies, all at one version", () => {
    const pkg = read("memnox");
    expect(pkg.name).toBe("memnox");
    expect(pkg.bin).toEqual({ memnox: "bin/memnox.js" });
    const expected = TARGETS.filter((t) => !t.baseline).map((t): [string, string] => [npmName(t), "1.4.0"]);
    expect(Object.entries(pkg.optionalDependencies)).toEqual(expected);
    expect(Object.keys(pkg.optionalDependencies)).toContain("@memnox/linux-x64-musl");
  });
});

describe("the npm launcher", () => {
  /** node_modules as npm lays it out: memnox and, unless left out, this machine's platform package. */
  function project(opts: { platform?: boolean; platformVersion?: string; binary?: string }) {
    const dir = tempDir("memnox-npm-project");
    cpSync(join(release.npmDir, "memnox"), dir.join("node_modules", "memnox"), { recursive: true });
    if (opts.platform !== false) {
      const to = dir.join("node_modules", "@memnox", host.name);
      cpSync(join(release.npmDir, host.name), to, { recursive: true });
      if (opts.binary) writeFileSync(join(to, "bin", "memnox"), opts.binary, { mode: 0o755 });
      if (opts.platformVersion) {
        const pkg = JSON.parse(readFileSync(join(to, "package.json"), "utf8"));
        writeFileSync(join(to, "package.json"), JSON.stringify({ ...pkg, version: opts.platformVersion }));
      }
    }
    const run = (...args: string[]) => {
      const r = Bun.spawnSync(["node", dir.join("node_modules", "memnox", "bin", "memnox.js"), ...args], {
        cwd: dir.path,
        stdout: "pipe",
        stderr: "pipe",
      });
      return { code: r.exitCode, signal: r.signalCode, stdout: r.stdout.toString(), stderr: r.stderr.toString() };
    };
    return { dir, run };
  }

  test("runs this machine's binary with the arguments, stdio and exit code passed through", () => {
    const p = project({ binary: '#!/bin/sh\necho "as $(basename "$0"): $*"\nexit 3\n' });
    using _ = p.dir;
    const r = p.run("policy", "test", "git status");
    expect(r.stdout).toBe("as memnox: policy test git status\n");
    expect(r.code).toBe(3);
  });

  test("a binary killed by a signal ends the launcher by the same signal", () => {
    const p = project({ binary: "#!/bin/sh\nkill -TERM $$\n" });
    using _ = p.dir;
    expect(p.run().signal).toBe("SIGTERM");
  });

  test("without the platform package it names the package and the command that installs it", () => {
    const p = project({ platform: false });
    using _ = p.dir;
    const r = p.run("--version");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`npm did not install @memnox/${host.name}`);
    expect(r.stderr).toContain(`npm install @memnox/${host.name}@1.4.0 memnox@1.4.0`);
  });

  test("a platform package at another version is refused: versions move together", () => {
    const p = project({ platformVersion: "1.3.0" });
    using _ = p.dir;
    const r = p.run("--version");
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`@memnox/${host.name} is 1.3.0 but memnox is 1.4.0`);
  });
});
