// Which project a working directory belongs to: an opaque id from the normalized Git origin, a readable folder name.

import { basename } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import {
  declaredProject,
  declaredProjectId,
  gitProjectId,
  localProjectId,
  normalizeRemote,
} from "../../io/project-id.ts";
import { realOr } from "../../io/real.ts";
import type { Git } from "../../ports/index.ts";
import { slugify } from "./slug.ts";

export interface ProjectRef {
  /** Opaque identity written to every project page; never a path or a remote URL. */
  readonly id: string;
  /** Display only. */
  readonly label: string;
  /** The folder under docs/projects/ to use when the project has none yet. */
  readonly locator?: string;
  /** A locator the caller chose: a clash is an error instead of a `-2` suffix. */
  readonly explicitLocator?: boolean;
}

/** Machine-wide rules are remembered as decisions of this pseudo-project, so recall can include them everywhere. */
export const MACHINE_PROJECT: ProjectRef = { id: "machine", label: "this machine", locator: "machine" };

// Opaque: lowercase letters, digits, `-` and `_`, so no remote URL, host or path can pass for an id.
const PROJECT_ID = /^[a-z0-9][a-z0-9_-]{0,127}$/;
const LOCATOR = /^[a-z0-9][a-z0-9-]{0,127}$/;

export function validProjectId(id: string): boolean {
  return PROJECT_ID.test(id);
}

export function validLocator(locator: string): boolean {
  return LOCATOR.test(locator);
}

/** A label is a display name: never blank, and never a path, a URL or an address that could leak where a repository is. */
export function labelProblem(label: string): string | undefined {
  if (!label.trim()) return "project_label must be a plain display name, not blank";
  if (["/", "\\", "://", "@"].some((t) => label.includes(t)))
    return "project_label must be a plain display name (no `/`, `\\`, `://` or `@`)";
  for (const ch of label) if (ch.charCodeAt(0) < 0x20) return "project_label must be a single line";
  return undefined;
}

/** An explicit `--project-id` (and optional label and locator), checked. */
export function explicitProject(id: string, label?: string, locator?: string): ProjectRef {
  if (!validProjectId(id))
    throw new MemnoxError(
      "refused",
      `invalid project_id \`${id}\`: it must be an opaque identifier`,
      "use lowercase letters, digits, `-` and `_` (at most 128)",
    );
  const labelIssue = label === undefined ? undefined : labelProblem(label);
  if (labelIssue) throw new MemnoxError("refused", labelIssue);
  if (locator !== undefined && !validLocator(locator))
    throw new MemnoxError("refused", `invalid project locator \`${locator}\``, "use lowercase letters, digits and `-`");
  return {
    id,
    label: label ?? id,
    locator: locator ?? (slugify(id) || "project"),
    explicitLocator: locator !== undefined,
  };
}

async function gitText(git: Git, cwd: string, args: string[]): Promise<string | undefined> {
  try {
    const r = await git.run(args, { cwd });
    if (r.code !== 0) return undefined;
    return new TextDecoder().decode(r.stdout).trim() || undefined;
  } catch {
    return undefined;
  }
}

/** The project of a working directory: Git origin when usable, else the repository or folder itself. */
export async function projectFromCwd(git: Git, cwd: string): Promise<ProjectRef> {
  const top = await gitText(git, cwd, ["rev-parse", "--show-toplevel"]);
  const root = realOr(top ?? cwd);
  // A project the checkout's rule file declares is the scope: two repositories declaring one share it.
  const declared = top ? declaredProject(top) : undefined;
  if (declared) return { id: declaredProjectId(declared), label: declared, locator: slugify(declared) || "project" };
  const origin = top ? await gitText(git, root, ["config", "--get", "remote.origin.url"]) : undefined;
  const remote = origin ? normalizeRemote(origin) : undefined;
  if (remote) {
    const label = basename(remote) || "repository";
    return { id: gitProjectId(remote), label, locator: `git-${slugify(label) || "repository"}` };
  }
  const label = basename(root) || "workspace";
  return { id: localProjectId(root), label, locator: slugify(label) || "workspace" };
}

/** Recall hints for a session start: folder, branch and last commit subject. */
export async function sessionQuery(git: Git, cwd: string): Promise<string> {
  const top = (await gitText(git, cwd, ["rev-parse", "--show-toplevel"])) ?? cwd;
  const parts = [basename(top)];
  const branch = await gitText(git, cwd, ["rev-parse", "--abbrev-ref", "HEAD"]);
  if (branch && branch !== "HEAD") parts.push(branch);
  const subject = await gitText(git, cwd, ["log", "-1", "--pretty=%s"]);
  if (subject) parts.push(subject);
  return parts.join(" ");
}
