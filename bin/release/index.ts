// `bun build.ts --release` (make release): dist/release/ holds one archive per target, install.sh, SHA256SUMS and
// release.json; dist/npm/ holds the npm packages. `assemble` is the part after the builds, so tests can feed it.
import { copyFileSync, mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { build, hostTarget, TARGETS, type Target, version } from "../../build.ts";
import type { ReleaseIndex } from "../../src/update/release-index.ts";
import { type ArchiveOptions, checksums, describeFile, type ReleaseFile, writeArchive } from "./archives.ts";
import { type BuiltTarget, npmName, writeNpmPackages } from "./npm.ts";

export const INSTALL_SCRIPT = join(import.meta.dir, "..", "install.sh");
const LAUNCHER = join(import.meta.dir, "launcher.cjs");

interface AssembleOptions extends ArchiveOptions {
  readonly version: string;
  readonly built: readonly BuiltTarget[];
  /** Every target the release names (the npm main package lists them all). */
  readonly targets: readonly Target[];
  readonly releaseDir: string;
  readonly npmDir: string;
}

export interface Assembled {
  readonly index: ReleaseIndex;
  readonly npmPackages: readonly string[];
}

export function assemble(o: AssembleOptions): Assembled {
  rmSync(o.releaseDir, { recursive: true, force: true });
  mkdirSync(o.releaseDir, { recursive: true });
  const archives = o.built.map((b) => ({ b, file: writeArchive(b.binary, b.target, o.version, o.releaseDir, o) }));
  copyFileSync(INSTALL_SCRIPT, join(o.releaseDir, "install.sh"));
  const script = describeFile(o.releaseDir, "install.sh");
  const files: ReleaseFile[] = [...archives.map((a) => a.file), script];
  writeFileSync(join(o.releaseDir, "SHA256SUMS"), checksums(files));
  const index: ReleaseIndex = {
    schema: 1,
    name: "memnox",
    version: o.version,
    installScript: script,
    checksums: "SHA256SUMS",
    targets: archives.map(({ b, file }) => ({
      name: b.target.name,
      os: b.target.os,
      cpu: b.target.cpu,
      ...(b.target.libc ? { libc: b.target.libc } : {}),
      baseline: b.target.baseline === true,
      npm: npmName(b.target),
      ...file,
    })),
  };
  writeFileSync(join(o.releaseDir, "release.json"), `${JSON.stringify(index, null, 2)}\n`);
  mkdirSync(o.npmDir, { recursive: true });
  const npmPackages = writeNpmPackages({
    version: o.version,
    outDir: o.npmDir,
    built: o.built,
    targets: o.targets,
    launcher: LAUNCHER,
  });
  return { index, npmPackages };
}

/** The commit time of HEAD, so archives of one commit are byte-identical wherever they are built. */
function sourceDate(root: string): number {
  const fromEnv = Number(process.env.SOURCE_DATE_EPOCH);
  if (Number.isInteger(fromEnv) && fromEnv > 0) return fromEnv;
  const git = Bun.spawnSync(["git", "log", "-1", "--format=%ct"], { cwd: root, stderr: "ignore" });
  const t = Number(git.stdout.toString().trim());
  return git.exitCode === 0 && Number.isInteger(t) ? t : 0;
}

export async function release(opts: { root: string; single: boolean }): Promise<Assembled> {
  const v = version();
  const host = hostTarget();
  const targets = opts.single ? [host] : TARGETS;
  const built: BuiltTarget[] = [];
  for (const t of targets) built.push({ target: t, binary: await build(t, t === host) });
  const out = assemble({
    version: v,
    built,
    targets: TARGETS,
    releaseDir: join(opts.root, "dist", "release"),
    npmDir: join(opts.root, "dist", "npm"),
    level: 9,
    mtime: sourceDate(opts.root),
  });
  for (const t of out.index.targets) console.log(`${t.file}\t${t.size}\t${t.sha256}`);
  console.log(`dist/release: ${out.index.targets.length} archives, install.sh, SHA256SUMS, release.json`);
  console.log(`dist/npm: ${out.npmPackages.length} packages (publish the platform packages first, memnox last)`);
  return out;
}
