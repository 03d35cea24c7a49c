// `memnox run` in a repository nobody here has worked in: no commit of yours, not one the seams have seen, no origin
// any repository the seams have seen shares. Then one line suggests `--untrusted`; it never switches it on.
import { existsSync } from "node:fs";
import { originUrl } from "../../../io/project-id.ts";
import { repoRoot } from "../../../io/repo.ts";
import { recordedCwds, recordedUnder } from "../../../ledger/read/rows.ts";
import { openLedger } from "../../../ledger/store.ts";
import type { Context } from "../../../ports/context.ts";

const UNTRUSTED_LINE =
  "memnox: nobody here has worked in this repository before (no commit of yours, none the seams have seen, no origin you use elsewhere); `memnox run --untrusted` runs the agent inside the kernel wall";

/** The one line, when `cwd` is such a repository; undefined otherwise (or when that cannot be told). */
export async function unfamiliarLine(ctx: Context, cwd: string): Promise<string | undefined> {
  const root = repoRoot(cwd);
  if (!root) return undefined;
  try {
    if (await committedHere(ctx, root)) return undefined;
    if (!existsSync(ctx.paths.db)) return UNTRUSTED_LINE;
    using ledger = openLedger(ctx.paths);
    if (recordedUnder(ledger.db, root)) return undefined;
    const origin = originUrl(root);
    if (origin) {
      const roots = new Set(recordedCwds(ledger.db, 500).flatMap((cwd) => repoRoot(cwd) ?? []));
      for (const other of roots) if (other !== root && originUrl(other) === origin) return undefined;
    }
    return UNTRUSTED_LINE;
  } catch {
    return undefined;
  }
}

/** A commit by this person (the author git would write: user.email or GIT_AUTHOR_EMAIL) anywhere in its history. */
async function committedHere(ctx: Context, root: string): Promise<boolean> {
  const ident = new TextDecoder().decode((await ctx.git.run(["var", "GIT_AUTHOR_IDENT"], { cwd: root })).stdout);
  const email = /<([^>]+)>/.exec(ident)?.[1]?.trim();
  if (!email) return false;
  const r = await ctx.git.run(["log", "--all", "-1", "--format=%H", `--author=<${email}>`], { cwd: root });
  return r.code === 0 && new TextDecoder().decode(r.stdout).trim() !== "";
}
