// What the gate read about the project a command runs in, handed to the resolver, and the pure questions asked of it.

/** Facts the gate reads cheaply from the project's own files; the resolver never reads a file itself. */
export interface ProjectFacts {
  /** The checkout's top level, where milestones are kept: a delete inside it (outside `.git`) can be taken back. */
  readonly repository?: string;
  /** The directory of the nearest `package.json`, and its `scripts` (name -> command line). */
  readonly packageDir?: string;
  readonly scripts?: Readonly<Record<string, string>>;
  /** Packages the project declares (package.json dependencies up to the checkout, pyproject, requirements). */
  readonly packages?: readonly string[];
  /** Programs in `node_modules/.bin` from the working directory up to the checkout. */
  readonly bins?: readonly string[];
  /** Text of the script files the line runs, by absolute path, read by the gate (inside the checkout, small). */
  readonly files?: Readonly<Record<string, string>>;
  /** Repositories on this machine the checkout's remotes name (`../origin.git`, `file:///srv/x`), absolute. */
  readonly remotes?: readonly string[];
  /** The checkout's branches and tags (`refs/heads/main`), read when a line could move one by force. */
  readonly refs?: readonly string[];
}

/**
 * Whether the checkout has this ref. In a checkout whose refs memnox could not read it may (a forced update is
 * assumed); outside any checkout there is none for git to move.
 */
export function mayExist(project: ProjectFacts | undefined, ref: string): boolean {
  if (project?.refs !== undefined) return project.refs.includes(ref);
  return project?.repository !== undefined;
}

function within(path: string, root: string): boolean {
  return path === root || path.startsWith(root.endsWith("/") ? root : `${root}/`);
}

/**
 * A delete the automatic milestone covers: every target a literal absolute path inside the checkout and outside any
 * `.git` (the history and the milestones themselves). A variable or substitution could point anywhere, so never.
 */
export function recoverable(
  targets: readonly string[],
  repository: string | undefined,
  unkept: readonly string[] = [],
): boolean {
  if (!repository || targets.length === 0) return false;
  const kept = (t: string) => !unkept.some((u) => within(u, t) || within(t, subtreeBase(u)));
  return targets
    .map(subtreeBase)
    .every(
      (t) =>
        t.startsWith("/") &&
        !/[$`]/.test(t) &&
        t !== repository &&
        within(t, repository) &&
        !t.slice(repository.length).split("/").some(mayBeGitDir) &&
        kept(t),
    );
}

/** A recursive delete's `D/**` (or `D/**\/name`, find's) takes D whole: recoverable as D is. */
function subtreeBase(t: string): string {
  const at = t.indexOf("/**");
  return at > 0 && (t.length === at + 3 || t[at + 3] === "/") ? t.slice(0, at) : t;
}

/** `.git` itself, or a glob that can match it (`.*`, `.g*`, `**`, `[.]git`); a plain `*` skips dotfiles. */
function mayBeGitDir(segment: string): boolean {
  if (segment === ".git" || segment === "**") return true;
  return /[*?[]/.test(segment) && (segment.startsWith(".") || segment.startsWith("[") || segment.startsWith("?"));
}

/** The package name without a version or tag: `@scope/pkg@1.2` -> `@scope/pkg`, `ruff==0.5` -> `ruff`. */
function packageName(spec: string): string {
  const npm = spec.replace(/(?!^)@[^/]*$/, "");
  return npm.replace(/[<>=!~;[ ].*$/, "").toLowerCase();
}

/** The project already has this package or program: declared in its manifests, or installed in node_modules/.bin. */
export function declares(project: ProjectFacts | undefined, spec: string, bin?: string): boolean {
  if (!project) return false;
  const name = packageName(spec);
  const norm = (s: string) => s.toLowerCase().replace(/_/g, "-");
  if (project.packages?.some((p) => norm(p) === norm(name))) return true;
  const b = bin ?? name.replace(/^@[^/]+\//, "");
  return project.bins?.includes(b) ?? false;
}

/** The script's command line when the project at `cwd` declares it. */
export function declaredScript(project: ProjectFacts | undefined, cwd: string, name: string): string | undefined {
  if (!project?.scripts || !project.packageDir || !within(cwd, project.packageDir)) return undefined;
  return Object.hasOwn(project.scripts, name) ? project.scripts[name] : undefined;
}
