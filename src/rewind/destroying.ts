// Which commands destroy work, so the shell seams keep a milestone before them.
import type { Action } from "../core/action.ts";

// The resolver's names for rm/rmdir/unlink/shred, git reset --hard, git clean (not -n), git checkout of paths or
// -f, git restore of the working tree, git switch --discard-changes (src/resolve/tables/git.ts).
const NAMES = new Set([
  "filesystem.delete",
  "git.reset-hard",
  "git.clean",
  "git.checkout-paths",
  "git.checkout-force",
  "git.restore",
  "git.switch-force",
]);

/**
 * True before `rm`, `rm -r`, `git reset --hard`, `git clean`, `git checkout -- .`, `git restore .` and a `mv` of three
 * or more paths. `argv`, when the seam has the exact command (a PATH interceptor does), refines what action names
 * cannot say; so does the argv the resolver keeps on each action of a command line (the governed shell and hooks).
 */
export function isWorkDestroying(actions: readonly Action[], argv?: readonly string[]): boolean {
  if (argv && commandName(argv[0]) === "mv") return mvPaths(argv.slice(1)) >= 3;
  if (argv && argvDestroys(argv)) return true;
  return actions.some(actionDestroys);
}

/** A `mv` resolves to deletes of its sources, yet only a `mv` of three or more paths counts. */
function actionDestroys(a: Action): boolean {
  const own = a.arguments.argv;
  if (own && commandName(own[0]) === "mv") return mvPaths(own.slice(1)) >= 3;
  return NAMES.has(a.name);
}

/** The raw-argv reading, for a seam that has argv and no resolution. */
export function argvDestroys(argv: readonly string[]): boolean {
  const name = commandName(argv[0]);
  const args = argv.slice(1);
  if (name === "rm") return true;
  if (name === "mv") return mvPaths(args) >= 3;
  if (name === "git") return gitDestroys(args);
  return false;
}

function commandName(arg0: string | undefined): string {
  return (arg0 ?? "").split("/").pop() ?? "";
}

/** Operands of a mv: its sources and its destination (`-t DIR` names the destination as an option). */
function mvPaths(args: readonly string[]): number {
  let count = 0;
  let operands = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] ?? "";
    if (operands || !a.startsWith("-") || a === "-") count++;
    else if (a === "--") operands = true;
    else if (a === "-t" || a === "--target-directory") {
      count++;
      i++;
    } else if (a.startsWith("--target-directory=") || (a.startsWith("-t") && a.length > 2)) count++;
    else if (a === "-S" || a === "--suffix") i++;
  }
  return count;
}

// git's global options that take a separate value, skipped to find the subcommand.
const GIT_VALUED = new Set(["-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path", "--config-env"]);

function gitDestroys(args: readonly string[]): boolean {
  let i = 0;
  while (i < args.length && (args[i] ?? "").startsWith("-")) i += GIT_VALUED.has(args[i] ?? "") ? 2 : 1;
  const verb = args[i];
  const rest = args.slice(i + 1);
  const has = (...flags: string[]) => rest.some((a) => flags.includes(a));
  switch (verb) {
    case "reset":
      return has("--hard");
    case "clean":
      return !has("-n", "--dry-run");
    case "checkout":
      return has("--", ".", "-f", "--force");
    case "restore":
      return !(has("--staged", "-S") && !has("--worktree", "-W"));
    case "switch":
      return has("--discard-changes", "-f", "--force");
    default:
      return false;
  }
}
