// What a milestone keeps of the ignored files a destroying command targets: a local database, a fixture, notes git
// was told to ignore. Bounded, so a milestone never swallows a disk; what a build makes again by name is left out,
// and so is anything named like a credential (a milestone's objects can be printed by anyone who can run git).

/** The most a milestone keeps of ignored files before one delete; past it, the delete asks first. */
export const KEEP_IGNORED_BYTES = 64 * 1024 * 1024;

/** Entries looked at under the targets of one delete before it is taken to be past the bound. */
export const KEEP_IGNORED_ENTRIES = 20_000;

/** Build output and caches, by directory name: made again by the next build, never kept. */
const REBUILT = new Set([
  "node_modules",
  "dist",
  "build",
  "target",
  "out",
  ".cache",
  "__pycache__",
  ".pytest_cache",
  ".mypy_cache",
  ".ruff_cache",
  ".tox",
  ".nox",
  ".venv",
  "venv",
  ".next",
  ".nuxt",
  ".svelte-kit",
  ".turbo",
  ".parcel-cache",
  ".angular",
  ".gradle",
  ".dart_tool",
  "coverage",
  ".nyc_output",
  ".eggs",
  "bower_components",
  "DerivedData",
  ".terraform",
]);

/** Files of that kind anywhere: compiled or cached one by one. */
const REBUILT_FILES = /\.(pyc|pyo|o|obj|class|tsbuildinfo)$|^\.DS_Store$/;

/** Names that hold credentials: such a file is never copied into a milestone, and its delete asks. */
const SECRET_FILES =
  /^\.env(\..*)?$|\.(pem|key|p12|pfx|keystore|jks)$|^id_[a-z0-9]+$|^credentials(\..*)?$|\.tfstate(\.backup)?$/i;

/** A path (relative to the checkout) under a build or cache directory, or a compiled file: rebuilt, not kept. */
export function rebuiltByName(rel: string): boolean {
  const parts = rel.split("/");
  return (
    parts.slice(0, -1).some((p) => REBUILT.has(p)) ||
    REBUILT.has(parts[parts.length - 1] ?? "") ||
    REBUILT_FILES.test(parts[parts.length - 1] ?? "")
  );
}

/** A file whose name says it holds a credential. */
export function secretByName(rel: string): boolean {
  return SECRET_FILES.test(rel.split("/").pop() ?? "");
}
