// `rewind` from the session: the agent can ask, only a person can say yes. The host's own prompt asks first (the
// tool is annotated destructive); where the client lets a server ask, memnox asks again naming the directory and the
// milestone; under CI, or with nobody to ask, it refuses. Every request is a `memnox.rewind` row, done or refused.
import { describeError } from "../../core/errors.ts";
import { withLedger } from "../../ledger/open.ts";
import type { Env } from "../../ports/index.ts";
import {
  listMilestones,
  type Milestone,
  type RewindTarget,
  rewind,
  rewindDeps,
  rewindRow,
  selectMilestone,
} from "../../rewind/index.ts";
import { rewindRecorder } from "../../rewind/record.ts";
import { refused, said, type ToolAnswer } from "./answer.ts";
import type { SessionDeps } from "./deps.ts";
import { type SessionRef, whichSession } from "./which.ts";

interface RewindArgs {
  readonly to?: string | undefined;
  readonly session?: string | undefined;
}

const CI_VARIABLES = [
  "GITHUB_ACTIONS",
  "GITLAB_CI",
  "BUILDKITE",
  "CIRCLECI",
  "TF_BUILD",
  "JENKINS_URL",
  "TEAMCITY_VERSION",
];

/** Claude Code run by a program (`claude -p`, the SDK): its entrypoint says so, and no prompt reaches a person. */
function unattendedAgent(env: Env): boolean {
  return /^sdk(-|$)/.test(env.CLAUDE_CODE_ENTRYPOINT ?? "");
}

/** A CI run: nobody is at the machine to approve anything. */
function underCi(env: Env): boolean {
  const ci = env.CI?.trim().toLowerCase();
  if (ci && ci !== "false" && ci !== "0") return true;
  return CI_VARIABLES.some((v) => Boolean(env[v]));
}

export async function rewindFromSession(deps: SessionDeps, args: RewindArgs): Promise<ToolAnswer> {
  const { ctx } = deps;
  const ref = withLedger(
    ctx,
    (l) => whichSession(ctx.env, l),
    () => whichSession(ctx.env, undefined),
  );
  const rdeps = rewindDeps(ctx);
  const record = rewindRecorder(ctx);
  const facts = { dir: ctx.cwd, surface: "mcp" as const, agent: ref.agent, session: ref.id };
  const refuse = async (lines: string[], at?: { repo: string; target: string }): Promise<ToolAnswer> => {
    await record(rewindRow(ctx.clock.now(), { ...facts, ...at, outcome: "refused", reason: lines[0] ?? "refused" }));
    return refused(lines);
  };
  if (args.to && args.session) return refuse(["name a milestone or a session, not both"]);
  const yourself = `run memnox rewind${args.to ? ` --to ${args.to}` : args.session ? ` --session ${args.session}` : ""} at a terminal in ${ctx.cwd}`;
  if (underCi(ctx.env)) {
    return refuse(["memnox does not rewind from an agent under CI: nobody is there to approve it.", yourself]);
  }
  let repo: string;
  let target: Milestone;
  try {
    const listed = await listMilestones(rdeps, ctx.cwd);
    repo = listed.repo.root;
    target = selectMilestone(listed.milestones, chosen(args, ref, listed.milestones), repo);
  } catch (e) {
    return refuse([describeError(e)]);
  }
  const at = { repo, target: target.id };
  const what = `${repo} back to ${target.id}, taken ${target.takenAt} (${target.reason})`;
  if (unattendedAgent(ctx.env)) {
    return refuse(
      [
        `this agent runs without a person at its prompt (${ctx.env.CLAUDE_CODE_ENTRYPOINT}), so nobody was asked and nothing was changed.`,
        yourself,
      ],
      at,
    );
  }
  if (deps.ask) {
    const question = `Rewind ${what}? Files that differ are put back and files added since are removed; what is there now is kept first as a milestone. Commits, branches and the stash are not touched.`;
    const answer = await deps.ask(question);
    if (answer === "no") return refuse([`the person said no to rewinding ${what}: nothing was changed.`], at);
    if (answer === "unanswered")
      return refuse([`nobody answered the question to rewind ${what}: nothing was changed.`, yourself], at);
  } else if (!deps.terminal()) {
    return refuse([`nobody is there to approve rewinding ${what}: nothing was changed.`, yourself], at);
  }
  const r = await rewind(rdeps, {
    dir: ctx.cwd,
    target: { kind: "id", id: target.id },
    surface: "mcp",
    agent: ref.agent,
    session: ref.id,
    record,
    log: (line) => ctx.io.err(`${line}\n`),
  });
  if (!r.undo) return said([`the working tree already matches ${target.id}, taken ${target.takenAt}: nothing moved.`]);
  return said([
    `working tree back to ${target.id}, taken ${target.takenAt}: ${r.written} file(s) written, ${r.removed} removed.`,
    `what it replaced is kept as ${r.undo.id}; memnox rewind --to ${r.undo.id} undoes this.`,
    "only files moved: no commit, no branch and no stash was touched.",
  ]);
}

/** What was named, else the start of this session when it kept a milestone here, else the newest session's start. */
function chosen(args: RewindArgs, ref: SessionRef, milestones: readonly Milestone[]): RewindTarget {
  if (args.to) return { kind: "id", id: args.to };
  if (args.session) return { kind: "session", session: args.session };
  const own = ref.id && milestones.some((m) => m.session === ref.id && m.kind !== "rewind");
  return own && ref.id ? { kind: "session", session: ref.id } : { kind: "last-session" };
}
