// Builds the single memnox executable per target: `bun build.ts --single` for this host, `bun build.ts` for all,
// `bun build.ts --release` for the archives, install.sh, SHA256SUMS, release.json and npm packages (bin/release/).
import { existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { ChecksumReport } from "./src/resolve/tables/index.ts";

export interface Target {
  /** Folder under dist/ and the suffix of release archive names. */
  readonly name: string;
  readonly bunTarget: Bun.Build.CompileTarget;
  /** The npm package carrying the Bun runtime for this target, used to cross-compile offline. */
  readonly runtimePackage: string;
  readonly os: "linux" | "darwin";
  readonly cpu: "x64" | "arm64";
  readonly libc?: "glibc" | "musl";
  readonly baseline?: true;
}

// No Windows target: the design needs Unix sockets, symlinks and launchd/systemd.
export const TARGETS: readonly Target[] = [
  {
    name: "linux-x64",
    bunTarget: "bun-linux-x64",
    runtimePackage: "@oven/bun-linux-x64",
    os: "linux",
    cpu: "x64",
    libc: "glibc",
  },
  {
    name: "linux-x64-baseline",
    bunTarget: "bun-linux-x64-baseline",
    runtimePackage: "@oven/bun-linux-x64-baseline",
    os: "linux",
    cpu: "x64",
    libc: "glibc",
    baseline: true,
  },
  {
    name: "linux-arm64",
    bunTarget: "bun-linux-arm64",
    runtimePackage: "@oven/bun-linux-aarch64",
    os: "linux",
    cpu: "arm64",
    libc: "glibc",
  },
  {
    name: "linux-x64-musl",
    bunTarget: "bun-linux-x64-musl",
    runtimePackage: "@oven/bun-linux-x64-musl",
    os: "linux",
    cpu: "x64",
    libc: "musl",
  },
  {
    name: "linux-x64-baseline-musl",
    bunTarget: "bun-linux-x64-baseline-musl",
    runtimePackage: "@oven/bun-linux-x64-musl-baseline",
    os: "linux",
    cpu: "x64",
    libc: "musl",
    baseline: true,
  },
  {
    name: "linux-arm64-musl",
    bunTarget: "bun-linux-arm64-musl",
    runtimePackage: "@oven/bun-linux-aarch64-musl",
    os: "linux",
    cpu: "arm64",
    libc: "musl",
  },
  { name: "darwin-x64", bunTarget: "bun-darwin-x64", runtimePackage: "@oven/bun-darwin-x64", os: "darwin", cpu: "x64" },
  {
    name: "darwin-arm64",
    bunTarget: "bun-darwin-arm64",
    runtimePackage: "@oven/bun-darwin-aarch64",
    os: "darwin",
    cpu: "arm64",
  },
];

const ROOT = import.meta.dir;

export function version(): string {
  const pkg: unknown = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));
  if (pkg && typeof pkg === "object" && "version" in pkg && typeof pkg.version === "string") return pkg.version;
  throw new Error("package.json has no version");
}

export function hostTarget(): Target {
  const cpu = process.arch === "arm64" ? "arm64" : "x64";
  const os = process.platform === "darwin" ? "darwin" : "linux";
  const found = TARGETS.find((t) => t.os === os && t.cpu === cpu && !t.baseline && t.libc !== "musl");
  if (!found) throw new Error(`no build target for ${process.platform}/${process.arch}`);
  return found;
}

/** The Bun runtime for a foreign target, fetched from the npm registry once and cached under .cache/. */
async function runtimeFor(t: Target): Promise<string> {
  const bunVersion = Bun.version;
  const dir = join(ROOT, ".cache", "bun-runtimes", `${t.name}-${bunVersion}`);
  const bin = join(dir, "package", "bin", "bun");
  if (existsSync(bin)) return bin;
  mkdirSync(dir, { recursive: true });
  const pack = Bun.spawnSync(["npm", "pack", `${t.runtimePackage}@${bunVersion}`, "--silent"], {
    cwd: dir,
    stderr: "pipe",
  });
  if (pack.exitCode !== 0) throw new Error(`npm pack ${t.runtimePackage} failed: ${pack.stderr.toString()}`);
  const tgz = pack.stdout.toString().trim().split("\n").pop() ?? "";
  const untar = Bun.spawnSync(["tar", "-xzf", tgz], { cwd: dir, stderr: "pipe" });
  if (untar.exitCode !== 0 || !existsSync(bin)) throw new Error(`could not unpack ${tgz}: ${untar.stderr.toString()}`);
  return bin;
}

interface BuildOptions {
  /** Baked in as MEMNOX_VERSION; package.json's by default. */
  readonly version?: string;
  /** Where the binary goes; dist/<target>/memnox by default. */
  readonly outfile?: string;
}

/** A table changed without its recorded checksum stops the build, as it would stop a run from source. */
export async function checkTables(reports?: readonly ChecksumReport[]): Promise<void> {
  const { checkVerbTables } = await import("./src/resolve/tables/index.ts");
  const bad = (reports ?? checkVerbTables()).filter((r) => !r.ok);
  if (bad.length > 0) {
    const list = bad.map((r) => `${r.cli} (record ${r.actual} in src/resolve/tables/checksums.ts after review)`);
    throw new Error(`verb tables changed without their checksums: ${list.join(", ")}`);
  }
}

export async function build(t: Target, host: boolean, opts: BuildOptions = {}): Promise<string> {
  await checkTables();
  const outfile = opts.outfile ?? join(ROOT, "dist", t.name, "memnox");
  const result = await Bun.build({
    entrypoints: [join(ROOT, "bin", "memnox.ts")],
    compile: {
      target: t.bunTarget,
      outfile,
      ...(host ? {} : { executablePath: await runtimeFor(t) }),
      autoloadDotenv: false,
      autoloadBunfig: false,
      autoloadTsconfig: false,
      autoloadPackageJson: false,
      // Bun 1.4.5 refuses to start a compiled binary from a deleted directory unless it has an execArgv; with one
      // it starts (process.cwd() throws, which bin/ handles), so a hook in a removed cwd still answers. This flag
      // changes nothing else.
      execArgv: ["--no-deprecation"],
    },
    bytecode: true,
    format: "esm",
    minify: true,
    // Each face's dynamic import becomes its own chunk, so builtins only one face needs load only there.
    splitting: true,
    define: { MEMNOX_VERSION: JSON.stringify(opts.version ?? version()), MEMNOX_TABLES_CHECKED: "true" },
  });
  if (!result.success) {
    for (const log of result.logs) console.error(log);
    throw new Error(`build failed for ${t.name}`);
  }
  return outfile;
}

if (import.meta.main && process.argv.includes("--release")) {
  const { release } = await import("./bin/release/index.ts");
  await release({ root: ROOT, single: process.argv.includes("--single") });
} else if (import.meta.main) {
  const single = process.argv.includes("--single");
  const host = hostTarget();
  const targets = single ? [host] : TARGETS;
  for (const t of targets) {
    const out = await build(t, t === host);
    console.log(`${t.name}\t${out}`);
  }
}
