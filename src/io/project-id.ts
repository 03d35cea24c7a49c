// A working directory's project identity, the one memory writes on project pages: an opaque id from the normalized
// Git origin, else from the checkout (or folder) itself. Read from .git directly, so the gate needs no git process.
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { sha256Hex } from "./hash.ts";
import { realOr } from "./real.ts";
import { gitDir, repoRoot } from "./repo.ts";

/** Host and path of a remote, credentials and scheme stripped, `.git` dropped, lowercased. */
export function normalizeRemote(url: string): string | undefined {
  let u = url.trim();
  if (!u) return undefined;
  const scp = /^(?:[^@/]+@)?([^:/]+):(?!\/)(.+)$/.exec(u);
  if (scp && !u.includes("://")) u = `${scp[1]}/${scp[2]}`;
  else u = u.replace(/^[a-z][a-z0-9+.-]*:\/\//i, "").replace(/^[^@/]*@/, "");
  u = u
    .replace(/:\d+\//, "/")
    .replace(/\.git\/?$/, "")
    .replace(/\/+$/, "")
    .toLowerCase();
  return u.includes("/") ? u : undefined;
}

export function projectDigest(kind: "git" | "local" | "project", value: string): string {
  return sha256Hex(`${kind}\n${value}`).slice(0, 16);
}

export function gitProjectId(remote: string): string {
  return `git-${projectDigest("git", remote)}`;
}

export function localProjectId(root: string): string {
  return `local-${projectDigest("local", root)}`;
}

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

export function declaredProjectId(project: string): string {
  return `project-${projectDigest("project", project)}`;
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
