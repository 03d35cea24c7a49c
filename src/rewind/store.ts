// Milestones on disk: a tag object per milestone (target: the tree, message: the metadata) under refs/memnox/.
import { type GitDeps, gitText } from "./git.ts";
import type { Repo } from "./repo.ts";
import { MILESTONE_KINDS, type Milestone, type MilestoneKind } from "./types.ts";

const MILESTONE_REFS = "refs/memnox/milestones/";

interface MilestoneRecord {
  readonly id: string;
  readonly tree: string;
  readonly takenAtMs: number;
  readonly files: number;
  readonly kind: MilestoneKind;
  readonly reason: string;
  readonly agent?: string | undefined;
  readonly session?: string | undefined;
}

/** Writes the tag, points its ref at it and drops `drop`, in one ref transaction. */
export async function writeMilestone(
  deps: GitDeps,
  repo: Repo,
  rec: MilestoneRecord,
  drop: readonly Milestone[],
): Promise<Milestone> {
  const m = toMilestone(rec, repo);
  const tag = (await gitText(deps, repo.root, ["mktag"], { input: tagText(m, repo) })).trim();
  const lines = [`create ${m.ref} ${tag}`, ...drop.map((d) => `delete ${d.ref}`)];
  await gitText(deps, repo.root, ["update-ref", "--stdin"], { input: `${lines.join("\n")}\n` });
  return m;
}

export async function dropMilestones(deps: GitDeps, repo: Repo, drop: readonly Milestone[]): Promise<void> {
  if (drop.length === 0) return;
  const input = `${drop.map((d) => `delete ${d.ref}`).join("\n")}\n`;
  await gitText(deps, repo.root, ["update-ref", "--stdin"], { input });
}

/** This working tree's milestones, newest first; refs that do not parse as ours are left alone and unlisted. */
export async function readMilestones(deps: GitDeps, repo: Repo): Promise<Milestone[]> {
  const format = "%(refname)%00%(*objectname)%00%(*objecttype)%00%(contents:body)%00";
  const out = await gitText(deps, repo.root, ["for-each-ref", `--format=${format}`, MILESTONE_REFS]);
  const fields = out.split("\0");
  const found: Milestone[] = [];
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const [ref = "", tree = "", type = "", body = ""] = fields.slice(i, i + 4);
    const m = type === "tree" ? parseBody(ref.replace(/^\n/, ""), tree, body) : undefined;
    if (m && m.worktreeId === repo.worktreeId) found.push(m.milestone);
  }
  return found.sort(newestFirst);
}

function newestFirst(a: Milestone, b: Milestone): number {
  return b.takenAtMs - a.takenAtMs || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);
}

function toMilestone(rec: MilestoneRecord, repo: Repo): Milestone {
  return {
    id: rec.id,
    ref: `${MILESTONE_REFS}${rec.id}`,
    tree: rec.tree,
    takenAt: new Date(rec.takenAtMs).toISOString(),
    takenAtMs: rec.takenAtMs,
    files: rec.files,
    kind: rec.kind,
    reason: oneLine(rec.reason),
    ...(rec.agent ? { agent: oneLine(rec.agent) } : {}),
    ...(rec.session ? { session: oneLine(rec.session) } : {}),
    worktree: repo.root,
  };
}

function tagText(m: Milestone, repo: Repo): string {
  const body = JSON.stringify({ v: 1, ...m, ref: undefined, tree: undefined, worktreeId: repo.worktreeId });
  const seconds = Math.floor(m.takenAtMs / 1000);
  return [
    `object ${m.tree}`,
    "type tree",
    `tag ${m.id}`,
    `tagger memnox <memnox@localhost> ${seconds} +0000`,
    "",
    `memnox milestone: ${m.reason}`,
    "",
    body,
    "",
  ].join("\n");
}

function parseBody(ref: string, tree: string, body: string): { milestone: Milestone; worktreeId: string } | undefined {
  let v: unknown;
  try {
    v = JSON.parse(body);
  } catch {
    return undefined;
  }
  if (typeof v !== "object" || v === null) return undefined;
  const o = v as Record<string, unknown>;
  const str = (k: string) => (typeof o[k] === "string" ? (o[k] as string) : undefined);
  const id = str("id");
  const kind = str("kind");
  const worktreeId = str("worktreeId");
  const worktree = str("worktree");
  if (!id || ref !== `${MILESTONE_REFS}${id}` || !worktreeId || !worktree) return undefined;
  if (typeof o.takenAtMs !== "number" || typeof o.files !== "number") return undefined;
  if (!kind || !(MILESTONE_KINDS as readonly string[]).includes(kind)) return undefined;
  const agent = str("agent");
  const session = str("session");
  const milestone: Milestone = {
    id,
    ref,
    tree,
    takenAt: new Date(o.takenAtMs).toISOString(),
    takenAtMs: o.takenAtMs,
    files: o.files,
    kind: kind as MilestoneKind,
    reason: str("reason") ?? "",
    ...(agent ? { agent } : {}),
    ...(session ? { session } : {}),
    worktree,
  };
  return { milestone, worktreeId };
}

/** Metadata is one line of printable text; anything else would break the tag format or a terminal. */
function oneLine(s: string): string {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: stripping control characters is the point
  const clean = s.replace(/[\u0000-\u001f\u007f]+/g, " ").trim();
  if (clean.length > 200) return `${clean.slice(0, 199)}…`;
  return clean;
}
