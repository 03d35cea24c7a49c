// The project facts the resolver is handed: read here, cheaply (a few small files a hook can afford), never there.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { parse as parseToml } from "smol-toml";
import { repoRoot } from "../io/repo.ts";
import type { ProjectFacts } from "../resolve/project.ts";

/** Larger files are not read: a script that size is not one a hook reads line by line. */
const MAX_SCRIPT_BYTES = 64 * 1024;
const NODE_WORDS = /\b(npm|npx|pnpm|pnpx|yarn|bun|bunx)\b/;
const PYTHON_WORDS = /\b(uvx|uv|pipx|pip3?|poetry)\b/;

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
  return typeof v === "object" && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
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

/** What the resolver needs to know about the project at `cwd` for `line`; only the manifests the line could use. */
export function projectFacts(cwd: string, line: string): ProjectFacts {
  const repository = repoRoot(cwd);
  const dirs = upTo(cwd, repository);
  const node = NODE_WORDS.test(line) ? nodeFacts(dirs) : undefined;
  const python = PYTHON_WORDS.test(line) ? pythonFacts(dirs) : undefined;
  const packages = [...(node?.packages ?? []), ...(python ?? [])];
  return {
    ...(repository ? { repository } : {}),
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
