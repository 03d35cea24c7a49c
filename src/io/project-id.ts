// A working directory's project identity, the one memory writes on project pages: an opaque id from the normalized
// Git origin, else from the checkout (or folder) itself. Read from .git directly, so the gate needs no git process.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256Hex } from "./hash.ts";
import { realOr } from "./real.ts";
import { gitDir, repoRoot } from "./repo.ts";

/** The part of a URL Python's urlsplit calls netloc, and the path after it. */
function splitUrl(url: string): { netloc: string; path: string } {
  const rest = url.slice(url.indexOf("://") + 3);
  const cut = rest.search(/[/?#]/);
  const netloc = cut === -1 ? rest : rest.slice(0, cut);
  const tail = cut === -1 ? "" : rest.slice(cut);
  const end = tail.search(/[?#]/);
  return { netloc, path: end === -1 ? tail : tail.slice(0, end) };
}

/** urlsplit's hostname: no user, no port, lowercased (an IPv6 literal without its brackets). */
function hostname(netloc: string): string {
  const host = netloc.slice(netloc.lastIndexOf("@") + 1);
  if (host.startsWith("["))
    return host.slice(1, host.indexOf("]") === -1 ? undefined : host.indexOf("]")).toLowerCase();
  const colon = host.indexOf(":");
  return (colon === -1 ? host : host.slice(0, colon)).toLowerCase();
}

const dropGit = (s: string) => (s.endsWith(".git") ? s.slice(0, -4) : s);

/**
 * A remote as memex normalizes it before hashing: a URL's host and path (credentials and port dropped), an scp-style
 * `user@host:path` as `host/path`, trailing `/` and `.git` dropped; the same remote gives memex's id and memnox's.
 */
export function normalizeRemote(url: string): string | undefined {
  const value = url.trim();
  if (!value) return undefined;
  if (value.includes("://")) {
    const { netloc, path } = splitUrl(value);
    return `${hostname(netloc)}${dropGit(path.replace(/\/+$/, ""))}` || undefined;
  }
  const scp =
    value.includes("@") && value.includes(":") ? value.slice(value.indexOf("@") + 1).replace(":", "/") : value;
  return dropGit(scp.replace(/\/+$/, "")).toLowerCase() || undefined;
}

/** memex's opaque project id: the first 24 hex digits of the SHA-256 of the identity source. */
function projectDigest(identity: string): string {
  return sha256Hex(identity).slice(0, 24);
}

/** A project known by its Git origin (normalized): never the URL itself, only its digest. */
export function gitProjectId(remote: string): string {
  return projectDigest(remote);
}

/** A project with no usable origin: the digest of its real top-level path, which is never stored. */
export function localProjectId(root: string): string {
  return projectDigest(root);
}

/** Machine-wide rules are remembered under this id (an opaque id like every other), and bind in every directory. */
export const MACHINE_PROJECT_ID = projectDigest("memnox machine-wide decisions");

/** `remote.origin.url` from a checkout's config (a linked worktree's is its common directory's). */
export function originUrl(root: string): string | undefined {
  const dir = gitDir(root);
  if (!dir) return undefined;
  let common = dir;
  try {
    common = resolve(dir, readFileSync(join(dir, "commondir"), "utf8").trim());
  } catch {
    // not a linked worktree
  }
  let text: string;
  try {
    text = readFileSync(join(common, "config"), "utf8");
  } catch {
    return undefined;
  }
  let inOrigin = false;
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    const section = /^\[\s*([^\]\s]+)(?:\s+"([^"]*)")?\s*\]$/.exec(line);
    if (section) {
      inOrigin = section[1]?.toLowerCase() === "remote" && section[2] === "origin";
      continue;
    }
    const kv = inOrigin ? /^url\s*=\s*(.*)$/i.exec(line) : null;
    if (kv?.[1]) return kv[1].replace(/^"(.*)"$/, "$1");
  }
  return undefined;
}

/** A top-level `project = "…"` in the checkout's memnox.policies.toml (before its first table), when declared. */
export function declaredProject(root: string): string | undefined {
  let text: string;
  try {
    text = readFileSync(join(root, "memnox.policies.toml"), "utf8");
  } catch {
    return undefined;
  }
  for (const raw of text.split("\n")) {
    const line = raw.trim();
    if (line.startsWith("[")) return undefined;
    const m = /^project\s*=\s*"([^"\\]+)"\s*(#.*)?$/.exec(line);
    if (m?.[1]) return m[1];
  }
  return undefined;
}

/** A declared project's id: opaque like the others, from its name, so every repository declaring it shares it. */
export function declaredProjectId(project: string): string {
  return projectDigest(`memnox-project:${project}`);
}

/**
 * The project id of `cwd`, as memory derives it: a `project` the checkout's rule file declares (two repositories
 * declaring the same one share one scope), else by git origin when usable, else by the real top level.
 */
export function projectIdAt(cwd: string): string {
  const top = repoRoot(cwd);
  const declared = top ? declaredProject(top) : undefined;
  if (declared) return declaredProjectId(declared);
  const root = realOr(top ?? cwd);
  const origin = top ? originUrl(root) : undefined;
  const remote = origin ? normalizeRemote(origin) : undefined;
  return remote ? gitProjectId(remote) : localProjectId(root);
}
