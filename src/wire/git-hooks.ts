// git's own pre-push and pre-commit hooks in a repository (`core.hooksPath` when set), so a denied push stops even
// where no PATH wrapper stands. A hook already there is backed up, kept beside ours as `<hook>.memnox-chained` and run
// after memnox lets the call through; uninstall renames it back, so its bytes, mode and links are what they were.
import {
  copyFileSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
} from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { shellWord } from "../core/shell-quote.ts";
import { readJsonIfExists, withLock, writeFileAtomic, writeJsonAtomic } from "../io/files.ts";
import { repoRoot } from "../io/repo.ts";
import type { Context } from "../ports/context.ts";
import { sha256 } from "./files.ts";
import { linkTarget } from "./links.ts";

const GIT_HOOKS = ["pre-push", "pre-commit"] as const;
type GitHookName = (typeof GIT_HOOKS)[number];

const MARK = "# memnox: installed by `memnox protect --hooks`";
const CHAINED = ".memnox-chained";

type GitHookStatus =
  | "added"
  | "chained"
  | "updated"
  | "unchanged"
  | "refused"
  | "restored"
  | "removed"
  | "missing"
  | "left-alone";

interface GitHookResult {
  readonly hook: GitHookName;
  readonly path: string;
  readonly status: GitHookStatus;
  /** The copy of the hook that was there before, under ~/.memnox/backup/git-hooks/. */
  readonly backup?: string;
  readonly words?: string;
}

export interface GitHooksReport {
  readonly repository: string;
  readonly dir: string;
  readonly hooks: readonly GitHookResult[];
}

type HookContext = Pick<Context, "paths" | "selfArgv" | "git">;

/** The script for one hook: saves stdin (pre-push's ref lines) so memnox and the chained hook both read it. */
export function hookScript(hook: GitHookName, launcher: readonly string[]): string {
  const [bin = "memnox"] = launcher;
  const call = `${launcher.map(shellWord).join(" ")} hook git ${hook} "$@"`;
  const stdin = hook === "pre-push";
  return [
    "#!/bin/sh",
    `${MARK}; the hook that was here before runs after it, from ${hook}${CHAINED}.`,
    "# A refusal stops the push or commit; `memnox uninstall` puts the previous hook back.",
    ...(stdin
      ? ["input=$(mktemp -t memnox-hook.XXXXXX) || exit 1", `trap 'rm -f "$input"' EXIT`, 'cat >"$input"']
      : []),
    `if [ -x ${shellWord(bin)} ]; then`,
    `  ${call}${stdin ? ' <"$input"' : ""} || exit $?`,
    "else",
    `  echo "memnox: ${bin} is missing, so this ${hook} was not checked; memnox setup puts it back" >&2`,
    "fi",
    `chained="$(dirname "$0")/${hook}${CHAINED}"`,
    'if [ -x "$chained" ]; then',
    `  "$chained" "$@"${stdin ? ' <"$input"' : ""} || exit $?`,
    "fi",
    "exit 0",
    "",
  ].join("\n");
}

function isOurs(path: string): boolean {
  try {
    return lstatSync(path).isFile() && readFileSync(path, "utf8").includes(MARK);
  } catch {
    return false;
  }
}

function present(path: string): boolean {
  try {
    lstatSync(path);
    return true;
  } catch {
    return false;
  }
}

/** The repository's hooks directory, `core.hooksPath` honoured, absolute. */
async function hooksDir(ctx: Pick<Context, "git">, cwd: string): Promise<string> {
  const r = await ctx.git.run(["rev-parse", "--git-path", "hooks"], { cwd });
  const out = new TextDecoder().decode(r.stdout).trim();
  if (r.code !== 0 || !out)
    throw new MemnoxError("usage", `\`${cwd}\` is not in a git repository`, "run it inside one");
  return isAbsolute(out) ? out : resolve(cwd, out);
}

interface Registered {
  readonly dir: string;
  readonly repository: string;
}

function registered(file: string): Registered[] {
  const raw = readJsonIfExists(file);
  const list = isRecord(raw) ? raw.repositories : undefined;
  return Array.isArray(list)
    ? list.filter((r): r is Registered => typeof r?.dir === "string" && typeof r?.repository === "string")
    : [];
}

function register(file: string, entry: Registered, add: boolean): void {
  withLock(file, () => {
    const rest = registered(file).filter((r) => r.dir !== entry.dir);
    writeJsonAtomic(file, { version: 1, repositories: add ? [...rest, entry] : rest });
  });
}

/** pre-push and pre-commit in the repository at `cwd`; a second run changes nothing. */
export async function installGitHooks(ctx: HookContext, cwd: string): Promise<GitHooksReport> {
  const repository = repoRoot(cwd);
  if (!repository) throw new MemnoxError("usage", `\`${cwd}\` is not in a git repository`, "run it inside one");
  const dir = await hooksDir(ctx, cwd);
  mkdirSync(dir, { recursive: true });
  const launcher = linkTarget(ctx);
  const hooks = GIT_HOOKS.map((hook) => installOne(ctx, dir, hook, hookScript(hook, launcher)));
  register(ctx.paths.gitHooks, { dir, repository }, true);
  return { repository, dir, hooks };
}

function installOne(ctx: HookContext, dir: string, hook: GitHookName, script: string): GitHookResult {
  const path = join(dir, hook);
  const chained = path + CHAINED;
  if (isOurs(path)) {
    if (readFileSync(path, "utf8") === script) return { hook, path, status: "unchanged" };
    writeFileAtomic(path, script, 0o755);
    return { hook, path, status: "updated" };
  }
  if (!present(path)) {
    writeFileAtomic(path, script, 0o755);
    return { hook, path, status: "added" };
  }
  if (present(chained)) {
    const words = `${chained} is already there beside a ${hook} that is not memnox's; move one of them aside`;
    return { hook, path, status: "refused", words };
  }
  const backup = backUp(ctx, path);
  renameSync(path, chained);
  writeFileAtomic(path, script, 0o755);
  return { hook, path, status: "chained", backup, words: `the ${hook} that was there runs after memnox` };
}

/** A copy of a hook (or of where its link points) before it is moved aside. */
function backUp(ctx: HookContext, path: string): string {
  const dir = join(ctx.paths.backup, "git-hooks");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const copy = join(dir, `${sha256(path).slice(7, 19)}-${path.split("/").at(-1)}.orig`);
  const st = lstatSync(path);
  if (st.isSymbolicLink()) writeFileAtomic(`${copy}.link`, readlinkSync(path), 0o600);
  else copyFileSync(path, copy);
  return st.isSymbolicLink() ? `${copy}.link` : copy;
}

/** memnox's hooks out of every repository they were put in (and this one), the chained ones renamed back. */
export async function removeGitHooks(ctx: HookContext, cwd: string): Promise<GitHooksReport[]> {
  const list = registered(ctx.paths.gitHooks);
  const here = repoRoot(cwd);
  if (here) {
    const dir = await hooksDir(ctx, cwd).catch(() => undefined);
    if (dir && !list.some((r) => r.dir === dir)) list.push({ dir, repository: here });
  }
  const out: GitHooksReport[] = [];
  for (const entry of list) {
    const hooks = GIT_HOOKS.map((hook) => removeOne(entry.dir, hook));
    if (hooks.some((h) => h.status !== "missing") || entry.repository !== here) out.push({ ...entry, hooks });
    register(ctx.paths.gitHooks, entry, false);
  }
  return out;
}

function removeOne(dir: string, hook: GitHookName): GitHookResult {
  const path = join(dir, hook);
  const chained = path + CHAINED;
  if (!isOurs(path)) {
    if (!present(path)) return { hook, path, status: "missing" };
    const words = present(chained)
      ? `somebody replaced memnox's ${hook}; theirs stays, and the one from before is still ${chained}`
      : undefined;
    return { hook, path, status: "left-alone", ...(words ? { words } : {}) };
  }
  if (present(chained)) {
    renameSync(chained, path);
    return { hook, path, status: "restored" };
  }
  rmSync(path, { force: true });
  return { hook, path, status: "removed" };
}

interface GitHookState {
  readonly repository: string;
  readonly dir: string;
  readonly hooks: readonly { readonly hook: GitHookName; readonly ours: boolean; readonly chained: boolean }[];
  /** The program memnox's hooks start, when they name one that is gone. */
  readonly missing?: string;
}

/** Whether memnox's hooks are in the repository at `cwd`; undefined outside a repository. */
export async function gitHookState(ctx: Pick<Context, "git">, cwd: string): Promise<GitHookState | undefined> {
  const repository = repoRoot(cwd);
  if (!repository) return undefined;
  const dir = await hooksDir(ctx, cwd).catch(() => undefined);
  if (!dir) return undefined;
  const hooks = GIT_HOOKS.map((hook) => ({
    hook,
    ours: isOurs(join(dir, hook)),
    chained: present(join(dir, hook) + CHAINED),
  }));
  const script = hooks.some((h) => h.ours)
    ? readFileSync(join(dir, hooks.find((h) => h.ours)?.hook ?? ""), "utf8")
    : "";
  const bin = /^if \[ -x (.+) \]; then$/m.exec(script)?.[1]?.replace(/^'(.*)'$/, "$1");
  return { repository, dir, hooks, ...(bin && !existsSync(bin) ? { missing: bin } : {}) };
}
