// npm packages, the esbuild/biome way: one per target carrying the binary (os, cpu, libc set so npm installs only
// the one that fits), and `memnox`, whose optionalDependencies name them and whose bin script runs the right one.
import { copyFileSync, linkSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Target } from "../../build.ts";

const NPM_MAIN = "memnox";
const LICENSE = "Apache-2.0";
const REPOSITORY = { type: "git", url: "git+https://github.com/memnox/memnox.git" };
const HOMEPAGE = "https://docs.memnox.com";

export function npmName(t: Pick<Target, "name">): string {
  return `@memnox/${t.name}`;
}

/**
 * The packages npm installs by itself. The -baseline builds are published but left out: npm cannot tell AVX2 from
 * os/cpu/libc, so listing them would put two 100 MB binaries on every x64 Linux machine; the launcher names the
 * baseline package when a processor needs it.
 */
function optionalTargets(targets: readonly Target[]): Target[] {
  return targets.filter((t) => !t.baseline);
}

export interface BuiltTarget {
  readonly target: Target;
  readonly binary: string;
}

interface NpmOptions {
  readonly version: string;
  /** dist/npm: one folder per package, ready for `npm pack` / `npm publish`. */
  readonly outDir: string;
  readonly built: readonly BuiltTarget[];
  /** Every target of the release, built here or not: the main package names them all. */
  readonly targets: readonly Target[];
  readonly launcher: string;
}

/** Writes every package folder; returns them, platform packages first (the order to publish in). */
export function writeNpmPackages(o: NpmOptions): string[] {
  const dirs = o.built.map((b) => writePlatformPackage(b, o.version, o.outDir));
  dirs.push(writeMainPackage(o));
  return dirs;
}

function platformLabel(t: Target): string {
  const os = t.os === "darwin" ? "macOS" : "Linux";
  const details = [t.libc === "musl" ? "musl" : t.libc, t.baseline ? "no AVX2 needed" : undefined].filter(Boolean);
  return `${os} ${t.cpu}${details.length ? ` (${details.join(", ")})` : ""}`;
}

function writePlatformPackage(b: BuiltTarget, version: string, outDir: string): string {
  const t = b.target;
  const dir = fresh(join(outDir, t.name));
  mkdirSync(join(dir, "bin"));
  placeBinary(b.binary, join(dir, "bin", "memnox"));
  writeJson(join(dir, "package.json"), {
    name: npmName(t),
    version,
    description: `The memnox binary for ${platformLabel(t)}; installed by the memnox package`,
    license: LICENSE,
    homepage: HOMEPAGE,
    repository: REPOSITORY,
    os: [t.os],
    cpu: [t.cpu],
    ...(t.libc ? { libc: [t.libc] } : {}),
    files: ["bin/memnox"],
    preferUnplugged: true,
  });
  writeFileSync(
    join(dir, "README.md"),
    `# ${npmName(t)}\n\nThe memnox binary for ${platformLabel(t)}. Install \`memnox\` rather than this package: it picks the right one.\n`,
  );
  return dir;
}

function writeMainPackage(o: NpmOptions): string {
  const dir = fresh(join(o.outDir, NPM_MAIN));
  mkdirSync(join(dir, "bin"));
  copyFileSync(o.launcher, join(dir, "bin", "memnox.js"));
  const optional = Object.fromEntries(optionalTargets(o.targets).map((t) => [npmName(t), o.version]));
  writeJson(join(dir, "package.json"), {
    name: NPM_MAIN,
    version: o.version,
    description: "memnox: the local control plane for AI coding agents",
    license: LICENSE,
    homepage: HOMEPAGE,
    repository: REPOSITORY,
    bin: { memnox: "bin/memnox.js" },
    files: ["bin/memnox.js"],
    engines: { node: ">=18" },
    optionalDependencies: optional,
  });
  writeFileSync(
    join(dir, "README.md"),
    "# memnox\n\nThe local control plane for AI coding agents.\n\n```sh\nnpx memnox setup\n```\n\nor `npm install -g memnox`, then `memnox setup`. Documentation: https://docs.memnox.com\n",
  );
  return dir;
}

function fresh(dir: string): string {
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  return dir;
}

/** A hard link where the filesystem allows (eight 100 MB copies add up), else a copy. */
function placeBinary(from: string, to: string): void {
  try {
    linkSync(from, to);
  } catch {
    copyFileSync(from, to);
  }
}

function writeJson(path: string, value: unknown): void {
  writeFileSync(path, `${JSON.stringify(value, null, 2)}\n`);
}
