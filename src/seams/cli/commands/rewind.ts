// `memnox rewind`: put the working tree back to a milestone, list them, keep one by hand, forget old ones.
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import {
  forgetMilestones,
  listMilestones,
  type Milestone,
  type RewindDeps,
  type RewindTarget,
  rewind,
  rewindDeps,
  takeMilestone,
} from "../../../rewind/index.ts";
import { rewindRecorder } from "../../../rewind/record.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, pad } from "../output.ts";

const MODES = ["take", "list", "to", "session", "last", "forget"] as const;

export const rewindCommand: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "rewind",
      description: "put the working tree back to a milestone: files only, no commit, branch or stash",
    },
    args: {
      keep: { type: "positional", required: false, description: "with --forget: how many of the newest to keep (1)" },
      list: { type: "boolean", description: "the milestones here: how long ago, files, agent, session, reason" },
      to: { type: "string", valueHint: "id", description: "back to this milestone (an id prefix is enough)" },
      session: { type: "string", valueHint: "id", description: "back to before that session first changed anything" },
      last: { type: "boolean", description: "back to before the most recent session first changed anything" },
      take: { type: "boolean", description: "keep the working tree as it is now, restoring nothing" },
      reason: { type: "string", description: "with --take: why, in words" },
      forget: { type: "boolean", description: "drop all but the newest [keep]; the newest is never dropped" },
      json: { type: "boolean", description: "the structured form" },
    },
    async run({ args }) {
      const chosen = MODES.filter((m) => args[m] !== undefined && args[m] !== false);
      if (chosen.length > 1) throw new MemnoxError("usage", `--${chosen[0]} and --${chosen[1]} do not go together`);
      if (args.keep !== undefined && !args.forget)
        throw new MemnoxError("usage", `unexpected \`${args.keep}\``, "a number of milestones goes with --forget");
      if (args.reason !== undefined && !args.take) throw new MemnoxError("usage", "--reason goes with --take");
      const deps = rewindDeps(ctx);
      const json = Boolean(args.json);
      if (args.list) return list(ctx, deps, json);
      if (args.take) return take(ctx, deps, json, args.reason);
      if (args.forget) return forget(ctx, deps, json, args.keep);
      return restore(ctx, deps, json, target(args));
    },
  });

function target(args: {
  to?: string | undefined;
  session?: string | undefined;
  last?: boolean | undefined;
}): RewindTarget {
  if (args.to !== undefined) return { kind: "id", id: required("--to", args.to) };
  if (args.session !== undefined) return { kind: "session", session: required("--session", args.session) };
  if (args.last) return { kind: "last-session" };
  return { kind: "latest" };
}

function required(flag: string, v: string): string {
  if (v.trim() === "") throw new MemnoxError("usage", `${flag} needs an id`, "memnox rewind --list shows them");
  return v.trim();
}

async function restore(ctx: Context, deps: RewindDeps, json: boolean, t: RewindTarget): Promise<number> {
  const r = await rewind(deps, {
    dir: ctx.cwd,
    target: t,
    surface: "cli",
    agent: ctx.env.MEMNOX_AGENT_NAME,
    session: ctx.env.MEMNOX_SESSION,
    record: rewindRecorder(ctx),
    log: (line) => ctx.io.err(`${line}\n`),
  });
  const undo = r.undo ? `memnox rewind --to ${r.undo.id}` : null;
  const value = {
    repo: r.repo,
    target: shape(r.target),
    undo: r.undo ? shape(r.undo) : null,
    undoCommand: undo,
    written: r.written,
    removed: r.removed,
    removedDirectories: r.removedDirectories,
  };
  emit(ctx, json, value, () =>
    r.undo
      ? [
          `Working tree back to ${r.target.id}, taken ${r.target.takenAt}.`,
          `What it replaced is kept as ${r.undo.id}. ${undo} undoes this`,
          `${count(r.written, "file")} written, ${r.removed} removed.`,
          "Only files moved. No commit, no branch and no stash was touched.",
        ]
      : [`The working tree already matches ${r.target.id}, taken ${r.target.takenAt}. Nothing moved.`],
  );
  return 0;
}

async function list(ctx: Context, deps: RewindDeps, json: boolean): Promise<number> {
  const { repo, milestones } = await listMilestones(deps, ctx.cwd);
  const now = ctx.clock.now();
  const value = { repo: repo.root, milestones: milestones.map((m) => ({ ...shape(m), ageMs: now - m.takenAtMs })) };
  emit(ctx, json, value, () => {
    if (milestones.length === 0) return [`No milestones in ${repo.root} yet. memnox rewind --take keeps one now.`];
    const rows = milestones.map((m) => [
      m.id,
      ago(now - m.takenAtMs),
      count(m.files, "file"),
      m.agent ?? "-",
      m.session ?? "-",
      m.reason,
    ]);
    const widths = [0, 1, 2, 3, 4].map((i) => Math.max(...rows.map((r) => (r[i] ?? "").length)));
    return [
      `Milestones in ${repo.root}, newest first:`,
      ...rows.map((r) => `  ${r.map((c, i) => (i < 5 ? pad(c, (widths[i] ?? 0) + 2) : c)).join("")}`),
      "memnox rewind --to <id> goes back to one of them.",
    ];
  });
  return 0;
}

async function take(ctx: Context, deps: RewindDeps, json: boolean, reason: string | undefined): Promise<number> {
  const { repo, milestone, dropped } = await takeMilestone(deps, {
    dir: ctx.cwd,
    kind: "manual",
    reason: reason?.trim() || "taken by hand",
    agent: ctx.env.MEMNOX_AGENT_NAME,
    session: ctx.env.MEMNOX_SESSION,
  });
  const value = { repo: repo.root, milestone: shape(milestone), dropped: dropped.map((m) => m.id) };
  emit(ctx, json, value, () => [
    `Kept ${milestone.id}: ${count(milestone.files, "file")} of ${repo.root}.`,
    `memnox rewind --to ${milestone.id} comes back to it.`,
    ...(dropped.length ? [`${count(dropped.length, "older milestone")} dropped to keep the newest twenty.`] : []),
  ]);
  return 0;
}

async function forget(ctx: Context, deps: RewindDeps, json: boolean, keepArg: string | undefined): Promise<number> {
  const keep = keepArg === undefined ? 1 : Number(keepArg);
  if (keepArg !== undefined && !/^\d+$/.test(keepArg))
    throw new MemnoxError("usage", `\`${keepArg}\` is not a number of milestones to keep`, "such as: --forget 5");
  const { repo, dropped, kept } = await forgetMilestones(deps, ctx.cwd, keep);
  const value = { repo: repo.root, dropped: dropped.map((m) => m.id), kept: kept.map((m) => m.id) };
  emit(ctx, json, value, () => [
    `Dropped ${count(dropped.length, "milestone")} from ${repo.root}; kept the newest ${kept.length}.`,
  ]);
  return 0;
}

function shape(m: Milestone) {
  return {
    id: m.id,
    takenAt: m.takenAt,
    files: m.files,
    kind: m.kind,
    reason: m.reason,
    agent: m.agent ?? null,
    session: m.session ?? null,
    tree: m.tree,
  };
}

function count(n: number, noun: string): string {
  return `${n.toLocaleString("en-US")} ${noun}${n === 1 ? "" : "s"}`;
}

function ago(ms: number): string {
  const s = Math.max(0, Math.round(ms / 1000));
  if (s < 60) return `${s} s ago`;
  if (s < 3600) return `${Math.round(s / 60)} min ago`;
  if (s < 48 * 3600) return `${Math.round(s / 3600)} h ago`;
  return `${Math.round(s / 86400)} days ago`;
}
