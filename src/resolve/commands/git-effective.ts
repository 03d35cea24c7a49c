// What a git command line does once git's own configuration is applied: an alias replaced by what it stands for,
// a push that names no refspec forced by a `+` refspec or a mirror setting. Pure: the settings are handed in (the
// `-c` ones of the line at the hook; everything `git config` reports at the interceptor).
import { has, parseOpts } from "../argv.ts";
import { lit } from "../call.ts";
import { renderArg } from "../shell/render.ts";
import { git as gitTable } from "../tables/git.ts";
import { tableOf } from "../tables/index.ts";
import { matchTable } from "../tables/match.ts";
import { commandWords } from "../words.ts";
import { PUSH } from "./git-push.ts";

/** Settings by lowercase key, every value a key was given (a multi-valued `remote.origin.push`). */
export type GitSettings = ReadonlyMap<string, readonly string[]>;

export type Effective =
  | { readonly kind: "argv"; readonly argv: readonly string[]; readonly notes: readonly string[] }
  /** A `!` alias: git hands this line to a shell. */
  | { readonly kind: "line"; readonly line: string; readonly notes: readonly string[] }
  /** An alias whose words cannot be read. */
  | { readonly kind: "unreadable"; readonly alias: string };

/** git's own options that take a value (`-C dir`, `-c key=value`). */
export const GLOBAL_VALUES = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);

interface GitWords {
  /** `git` and its global options. */
  readonly head: readonly string[];
  readonly sub: string | undefined;
  readonly rest: readonly string[];
}

/** An argv split into git's own options, the subcommand and the subcommand's words. */
export function gitWords(argv: readonly string[]): GitWords {
  let i = 1;
  for (; i < argv.length; i++) {
    const t = argv[i] ?? "";
    if (!t.startsWith("-")) break;
    const name = t.startsWith("--") ? (t.split("=")[0] ?? t) : t.slice(0, 2);
    const attached = t.startsWith("--") ? t.includes("=") : t.length > 2;
    if (GLOBAL_VALUES.has(name) && !attached) i++;
  }
  return { head: argv.slice(0, i), sub: argv[i], rest: argv.slice(i + 1) };
}

/** A subcommand git has: an alias of that name is never used. */
export function isGitCommand(sub: string): boolean {
  const m = matchTable(tableOf(gitTable), [lit(sub)]);
  return m !== undefined && m.action !== "git.unknown";
}

const TRUE = /^(true|yes|on|1)$/i;
const MAX_ALIASES = 8;

function last(settings: GitSettings, key: string): string | undefined {
  return settings.get(key)?.at(-1);
}

/** The remote a push goes to: the one named, else the branch's push remote, the default, the branch's remote. */
function pushRemote(operands: readonly string[], settings: GitSettings, branch: string | undefined): string {
  const named = operands[0];
  if (named) return named;
  const b = branch ? `branch.${branch.toLowerCase()}` : undefined;
  return (
    (b && last(settings, `${b}.pushremote`)) ||
    last(settings, "remote.pushdefault") ||
    (b && last(settings, `${b}.remote`)) ||
    "origin"
  );
}

/** `git push` with what the remote's settings add: `--mirror`, and `--force` for a configured `+` refspec. */
function pushWithSettings(head: readonly string[], rest: readonly string[], settings: GitSettings, branch?: string) {
  const p = parseOpts(rest.map(lit), PUSH);
  const operands = p.operands.map((a) => a.text);
  const remote = pushRemote(operands, settings, branch).toLowerCase();
  const notes: string[] = [];
  const added: string[] = [];
  if (TRUE.test(last(settings, `remote.${remote}.mirror`) ?? "") && !has(p, "--mirror")) {
    added.push("--mirror");
    notes.push(`remote.${remote}.mirror makes it a mirror push`);
  }
  const forced = (settings.get(`remote.${remote}.push`) ?? []).filter((r) => r.trim().startsWith("+"));
  if (forced.length > 0 && !has(p, "-f", "--force")) {
    added.push("--force");
    notes.push(`remote.${remote}.push forces ${forced.join(", ")}`);
  }
  if (operands.length === 0 && added.length > 0) added.push(remote);
  return { argv: [...head, "push", ...added, ...rest], notes };
}

/** The command git will actually run for `argv` under `settings`; `branch` is the one checked out. */
export function effectiveGit(argv: readonly string[], settings: GitSettings, branch?: string): Effective {
  let words = gitWords(argv);
  const notes: string[] = [];
  for (let n = 0; words.sub !== undefined && n < MAX_ALIASES; n++) {
    const sub = words.sub;
    if (sub === "push") {
      const p = pushWithSettings(words.head, words.rest, settings, branch);
      return { kind: "argv", argv: p.argv, notes: [...notes, ...p.notes] };
    }
    const alias = isGitCommand(sub) ? undefined : last(settings, `alias.${sub.toLowerCase()}`);
    if (alias === undefined) break;
    notes.push(`\`${sub}\` is an alias for \`${alias.trim()}\``);
    if (alias.trim().startsWith("!")) {
      const line = [alias.trim().slice(1), ...words.rest.map(renderArg)].join(" ");
      return { kind: "line", line, notes };
    }
    const expansion = commandWords(alias);
    if (!expansion) return { kind: "unreadable", alias: sub };
    words = gitWords([...words.head, ...expansion, ...words.rest]);
  }
  return {
    kind: "argv",
    argv: [...words.head, ...(words.sub === undefined ? [] : [words.sub]), ...words.rest],
    notes,
  };
}
