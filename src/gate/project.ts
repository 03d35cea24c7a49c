// The project facts the resolver is handed: read here, cheaply (a few small files a hook can afford), never there.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { parse as parseToml } from "smol-toml";
import { isRecord } from "../core/record.ts";
import { gitDir, repoRoot } from "../io/repo.ts";
import type { ProjectFacts } from "../resolve/project.ts";

/** Larger files are not read: a script that size is not one a hook reads line by line. */
const MAX_SCRIPT_BYTES = 64 * 1024;
const NODE_WORDS = /\b(npm|npx|pnpm|pnpx|yarn|bun|bunx)\b/;
const PYTHON_WORDS = /\b(uvx|uv|pipx|pip3?|poetry)\b/;
const GIT_WORDS = /\bgit\b/;

function readText(path: string): string | undefined {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return undefined;
  }
}

/** `cwd` and each directory above it up to the checkout's top (only `cwd` outside a checkout). */
function upTo(cwd: string, top: string | undefined): string[] {
  const out = [cwd];
  if (!top) return out;
  for (let d = cwd; d !== top && d.startsWith(`${top}/`); ) {
    d = dirname(d);
    out.push(d);
  }
  return out;
}

function record(v: unknown): Record<string, unknown> {
  return isRecord(v) ? v : {};
}

const DEPENDENCY_KEYS = ["dependencies", "devDependencies", "optionalDependencies", "peerDependencies"];

function nodeFacts(dirs: readonly string[]) {
  const packages = new Set<string>();
  const bins = new Set<string>();
  let packageDir: string | undefined;
  let scripts: Record<string, string> | undefined;
  for (const dir of dirs) {
    const text = readText(join(dir, "package.json"));
    if (text !== undefined) {
      let json: Record<string, unknown> = {};
      try {
        json = record(JSON.parse(text));
      } catch {
        // A manifest that does not parse declares nothing.
      }
      if (typeof json.name === "string") packages.add(json.name);
      for (const k of DEPENDENCY_KEYS) for (const name of Object.keys(record(json[k]))) packages.add(name);
      if (!packageDir) {
        packageDir = dir;
        scripts = {};
        for (const [k, v] of Object.entries(record(json.scripts))) if (typeof v === "string") scripts[k] = v;
      }
    }
    try {
      for (const b of readdirSync(join(dir, "node_modules", ".bin"))) bins.add(b);
    } catch {
      // No installed binaries here.
    }
  }
  return { packages, bins, packageDir, scripts };
}

/** A requirement line's or string's package name (`ruff>=0.5`, `black[jupyter]`, `pkg @ https://…`). */
function requirementName(req: string): string | undefined {
  const m = /^\s*([A-Za-z0-9][A-Za-z0-9._-]*)/.exec(req);
  return m?.[1];
}

function pythonFacts(dirs: readonly string[]): Set<string> {
  const out = new Set<string>();
  const addAll = (v: unknown) => {
    if (Array.isArray(v)) for (const x of v) if (typeof x === "string") out.add(requirementName(x) ?? x);
  };
  for (const dir of dirs) {
    const py = readText(join(dir, "pyproject.toml"));
    if (py !== undefined) {
      try {
        const t = record(parseToml(py));
        const project = record(t.project);
        addAll(project.dependencies);
        for (const list of Object.values(record(project["optional-dependencies"]))) addAll(list);
        for (const list of Object.values(record(t["dependency-groups"]))) addAll(list);
        const tool = record(t.tool);
        addAll(record(tool.uv)["dev-dependencies"]);
        const poetry = record(tool.poetry);
        for (const name of Object.keys(record(poetry.dependencies))) out.add(name);
        for (const name of Object.keys(record(poetry["dev-dependencies"]))) out.add(name);
        for (const g of Object.values(record(poetry.group)))
          for (const name of Object.keys(record(record(g).dependencies))) out.add(name);
      } catch {
        // A pyproject that does not parse declares nothing.
      }
    }
    let names: string[] = [];
    try {
      names = readdirSync(dir).filter((n) => /^requirements.*\.(txt|in)$/.test(n));
    } catch {
      // An unreadable directory declares nothing.
    }
    for (const n of names) {
      for (const line of (readText(join(dir, n)) ?? "").split("\n")) {
        const name = line.trim().startsWith("-") ? undefined : requirementName(line);
        if (name) out.add(name);
      }
    }
  }
  return out;
}

/**
 * The repositories on this machine the checkout's remotes name: writing their refs from here is what a push to them
 * would do. Read from the git directory's config (a linked worktree's shared one), never by running git.
 */
function localRemotes(repository: string): string[] {
  const dir = gitDir(repository);
  if (!dir) return [];
  const common = readText(join(dir, "commondir"))?.trim();
  const text = readText(join(common ? resolve(dir, common) : dir, "config")) ?? "";
  const out = new Set<string>();
  let inRemote = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) inRemote = /^\[remote\s/i.test(line);
    const m = inRemote ? /^(url|pushurl)\s*=\s*"?([^"]*)"?\s*$/i.exec(line) : null;
    const url = m?.[2]?.trim();
    if (!url) continue;
    const local = url.startsWith("file://") ? url.slice("file://".length) : /^[^:]*$|^\.{0,2}\//.test(url) ? url : "";
    if (local && !local.startsWith("~")) out.add(resolve(repository, local).replace(/\/+$/, ""));
  }
  return [...out];
}

/** A line that could move a branch or tag by force: `-B`, `-C`, `-f`, `--force…`, `update-ref`, a `+refspec`. */
const FORCING_WORDS = /\s(-[A-Za-z]*[BCf][A-Za-z]*|--force\S*|update-ref|\+\S+)/;

/** The checkout's branches and tags, from its loose refs and packed-refs (a few directory reads, no git process). */
function localRefs(repository: string): string[] | undefined {
  const dir = gitDir(repository);
  if (!dir) return undefined;
  const common = readText(join(dir, "commondir"))?.trim();
  const base = common ? resolve(dir, common) : dir;
  const out = new Set<string>();
  for (const kind of ["heads", "tags"]) {
    try {
      for (const e of readdirSync(join(base, "refs", kind), { recursive: true, withFileTypes: true })) {
        if (e.isFile()) out.add(join(e.parentPath, e.name).slice(base.length + 1));
      }
    } catch {
      // None of that kind.
    }
  }
  for (const line of (readText(join(base, "packed-refs")) ?? "").split("\n")) {
    const ref = /^[0-9a-f]{40,64} (refs\/(heads|tags)\/\S+)$/.exec(line)?.[1];
    if (ref) out.add(ref);
  }
  return [...out];
}

/** What the resolver needs to know about the project at `cwd` for `line`; only the manifests the line could use. */
export function projectFacts(cwd: string, line: string): ProjectFacts {
  const repository = repoRoot(cwd);
  const dirs = upTo(cwd, repository);
  const node = NODE_WORDS.test(line) ? nodeFacts(dirs) : undefined;
  const python = PYTHON_WORDS.test(line) ? pythonFacts(dirs) : undefined;
  const packages = [...(node?.packages ?? []), ...(python ?? [])];
  const git = repository !== undefined && GIT_WORDS.test(line);
  const remotes = git ? localRemotes(repository) : [];
  const refs = git && FORCING_WORDS.test(line) ? localRefs(repository) : undefined;
  return {
    ...(repository ? { repository } : {}),
    ...(remotes.length > 0 ? { remotes } : {}),
    ...(refs ? { refs } : {}),
    ...(node?.packageDir ? { packageDir: node.packageDir, scripts: node.scripts ?? {} } : {}),
    ...(packages.length > 0 ? { packages } : {}),
    ...(node && node.bins.size > 0 ? { bins: [...node.bins] } : {}),
  };
}

/** Directories that hold history or credentials: nothing in them is read as a script (`.venv`, `.husky` are). */
const SECRET_DIRS = new Set([".git", ".ssh", ".aws", ".gnupg", ".kube", ".docker", ".azure", ".config"]);

/** Names that hold settings or secrets rather than commands: never read as a script, whatever runs them. */
const NOT_SCRIPTS = /^\.env|\.(pem|key|p12|pfx|json|ya?ml|toml|ini|cfg|conf|lock)$|^(id_|credentials)/i;

/**
 * The text of a script the line runs, when it is one the hook may read: a regular file inside the checkout, at most
 * 64 KiB, not a dotfile or a settings file; its text stays in this process and is never recorded.
 */
export function scriptText(path: string, repository: string | undefined): string | undefined {
  if (!repository || !path.startsWith(`${repository}/`)) return undefined;
  const rel = path.slice(repository.length + 1).split("/");
  if (rel.some((seg) => SECRET_DIRS.has(seg)) || basename(path).startsWith(".") || NOT_SCRIPTS.test(basename(path)))
    return undefined;
  try {
    const st = statSync(path);
    if (!st.isFile() || st.size > MAX_SCRIPT_BYTES) return undefined;
    const text = readFileSync(path, "utf8");
    return text.includes("\u0000") ? undefined : text;
  } catch {
    return undefined;
  }
}
