// Which project a working directory belongs to: an opaque id from the normalized Git origin, a readable folder name.

import { basename } from "node:path";
import { MemnoxError } from "../../core/errors.ts";
import {
  declaredProject,
  declaredProjectId,
  gitProjectId,
  localProjectId,
  MACHINE_PROJECT_ID,
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
export const MACHINE_PROJECT: ProjectRef = { id: MACHINE_PROJECT_ID, label: "this machine", locator: "machine" };
/** The machine's id, and the name stores kept it under before ids were opaque: both are the machine's decisions. */
export const MACHINE_IDS: readonly string[] = [MACHINE_PROJECT_ID, "machine"];

// memex's rule: an opaque lowercase hexadecimal id, so no remote URL, host or path can pass for one.
const PROJECT_ID = /^[a-f0-9]{24,64}$/;
const LOCATOR = /^[a-z0-9][a-z0-9-]{0,127}$/;

const PROJECT_ID_PROBLEM = "project_id must be an opaque lowercase hexadecimal identifier";
const PROJECT_LABEL_PROBLEM = "project_label must be a plain display name";

function validProjectId(id: string): boolean {
  return PROJECT_ID.test(id);
}

function validLocator(locator: string): boolean {
  return LOCATOR.test(locator);
}

/** A label is a display name: never blank, and never a path, a URL or an address that could leak where a repository is. */
export function labelProblem(label: string): string | undefined {
  if (!label.trim()) return `${PROJECT_LABEL_PROBLEM} (it is blank)`;
  if (["/", "\\", "://", "@"].some((t) => label.includes(t)))
    return `${PROJECT_LABEL_PROBLEM} (no \`/\`, \`\\\`, \`://\` or \`@\`)`;
  for (const ch of label) if (ch.charCodeAt(0) < 0x20) return `${PROJECT_LABEL_PROBLEM} (a single line)`;
  return undefined;
}

/** An explicit `--project-id` (and optional label and locator), checked as memex checks them. */
export function explicitProject(id: string, label?: string, locator?: string): ProjectRef {
  if (!validProjectId(id))
    throw new MemnoxError(
      "refused",
      PROJECT_ID_PROBLEM,
      "24 to 64 of 0-9 and a-f, as memnox memory write --scope project derives it; never a name, a path or a URL",
    );
  const labelIssue = label === undefined ? undefined : labelProblem(label);
  if (labelIssue) throw new MemnoxError("refused", labelIssue);
  if (locator !== undefined && !validLocator(locator))
    throw new MemnoxError("refused", `invalid project locator: '${locator}'`, "use lowercase letters, digits and `-`");
  return {
    id,
    label: label ?? id,
    locator: locator ?? id,
    explicitLocator: locator !== undefined,
  };
}

/** A project already in the store, by the id its pages carry (kept as written, even an id from before memex's rule). */
export function storedProject(id: string, label?: string | null): ProjectRef {
  return { id, label: label ?? id, locator: id };
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
  const label = basename(root) || basename(cwd) || "project";
  // memex's locators: `git-<repository>` for a usable origin, else the folder's own name.
  if (remote) return { id: gitProjectId(remote), label, locator: `git-${slugify(basename(remote)) || "project"}` };
  return { id: localProjectId(root), label, locator: slugify(label) || "project" };
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
