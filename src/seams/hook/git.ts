// git's own hooks: `pre-push` and `pre-commit`, so a denied push stops even where no PATH wrapper stands.
//
// Installed by `memnox protect --hooks` in the repository's hooks directory (`core.hooksPath` when set, else
// `.git/hooks`), each as a small sh script that saves its stdin, runs `<memnox> hook git <hook> "$@"` with it,
// exits with memnox's code on a refusal, and otherwise chains the hook that was there before (kept beside it as
// `<hook>.memnox-chained`, backed up first).
//
// pre-push receives `<remote> <url>` as arguments and one line per ref on stdin:
// `<local ref> <local sha> <remote ref> <remote sha>`. A zero local sha is a delete; a remote sha that is not an
// ancestor of the local one is a force push (what `git push --force` or a `+refspec` does).
import type { GateServices } from "../../gate/types.ts";
import type { Context } from "../../ports/context.ts";
import { insideWall } from "../../wall/inside.ts";
import { refuse, settle } from "../shared/gated.ts";
import { stampHold } from "../shared/requester.ts";
import { openTerminal } from "../shared/terminal.ts";

const ZERO = /^0+$/;

interface RefUpdate {
  readonly localRef: string;
  readonly localSha: string;
  readonly remoteRef: string;
  readonly remoteSha: string;
}

function parsePrePush(stdin: string): RefUpdate[] {
  return stdin
    .split("\n")
    .map((l) => l.trim().split(/\s+/))
    .filter((w) => w.length === 4)
    .map(([localRef = "", localSha = "", remoteRef = "", remoteSha = ""]) => ({
      localRef,
      localSha,
      remoteRef,
      remoteSha,
    }));
}

/** The `git push` argv this ref update amounts to, so the one resolver names it (`git.push`, `git.push-force`…). */
function pushArgv(remote: string, u: RefUpdate, forced: boolean, leased = false): string[] {
  if (ZERO.test(u.localSha)) return ["git", "push", remote, `:${u.remoteRef}`];
  // A branch pushed to its namesake reads as a person wrote it (`git push origin main`), so it is the same call the
  // agent's hook or the interceptor ruled on.
  const branch = u.localRef === u.remoteRef && u.localRef.startsWith("refs/heads/") ? u.localRef.slice(11) : undefined;
  const flag = forced ? [leased ? "--force-with-lease" : "--force"] : [];
  return ["git", "push", ...flag, remote, branch ?? `${u.localRef}:${u.remoteRef}`];
}

async function isForced(ctx: Context, u: RefUpdate): Promise<boolean> {
  if (ZERO.test(u.localSha) || ZERO.test(u.remoteSha)) return false;
  const r = await ctx.git.run(["merge-base", "--is-ancestor", u.remoteSha, u.localSha], { cwd: ctx.cwd });
  // 1: not an ancestor; anything else (an object we never fetched) cannot be a fast-forward either.
  return r.code !== 0;
}

/**
 * Whether the `git push` that runs this hook leases its rewrite (`--force-with-lease` and no plain force): git then
 * checks the remote itself before it updates anything, so the rewrite is the safe kind. Read from the push's own
 * argv among this process's parents; where it cannot be read, a rewrite is taken as a plain force push.
 */
function pushedWithLease(ctx: Context): boolean {
  const push = ctx.processes
    ?.ancestry()
    .chain.slice(1)
    .find((p) => /(^|\/)git$/.test(p.argv[0] ?? "") && p.argv.includes("push"));
  if (!push) return false;
  const words = push.argv.slice(push.argv.indexOf("push") + 1);
  const named = (w: string, flag: string) => w === flag || w.startsWith(`${flag}=`);
  const lease = words.some((w) => named(w, "--force-with-lease"));
  const force = words.some((w) => w === "--force" || w === "--mirror" || /^-[a-zA-Z]*f/.test(w) || w.startsWith("+"));
  return lease && !force;
}

export async function gitHook(ctx: Context, gate: GateServices): Promise<number> {
  const [, hook, remote = "origin"] = ctx.args;
  // Inside a wall a held answer cannot be read back, so nothing asks: what would ask is refused with its reason.
  const walled = insideWall(ctx.env);
  const terminal = walled ? undefined : openTerminal();
  const deps = { gate, io: ctx.io, terminal, waitingOn: (id: string) => stampHold(ctx, id, "self") };
  const session = ctx.env.MEMNOX_SESSION;
  const argvs: string[][] = [];
  if (hook === "pre-push") {
    const leased = pushedWithLease(ctx);
    for (const u of parsePrePush(await ctx.io.readAll()))
      argvs.push(pushArgv(remote, u, await isForced(ctx, u), leased));
  } else if (hook === "pre-commit") {
    argvs.push(["git", "commit"]);
  } else {
    ctx.io.err(`memnox: \`${hook ?? ""}\` is not a git hook memnox answers (pre-push, pre-commit)\n`);
    return 0;
  }
  for (const argv of argvs) {
    const text = argv.join(" ");
    const request = {
      surface: "git" as const,
      argv,
      cwd: ctx.cwd,
      canAsk: terminal !== undefined,
      ...(walled ? { walled: true as const } : {}),
      ...(session ? { session } : {}),
      // The interceptor that started this git already asked a person about this push: not asked twice.
      ...(ctx.env.MEMNOX_RULED ? { handedDown: ctx.env.MEMNOX_RULED } : {}),
    };
    const settled = await settle(text, request, deps);
    if (settled.kind === "edit") {
      ctx.io.err("memnox: a git hook cannot run an edited command; run it again yourself\n");
      return 1;
    }
    if (settled.kind === "deny") {
      refuse(text, settled.answer, ctx.io);
      return 1;
    }
  }
  return 0;
}
