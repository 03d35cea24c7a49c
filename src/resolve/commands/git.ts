// git: global options first (`-C dir` moves the repository), then the verbs whose options decide the action.
import { has, type OptSpec, parseOpts } from "../argv.ts";
import { type Arg, type Call, lit } from "../call.ts";
import { absolutePath } from "../paths.ts";
import { git as gitTable } from "../tables/git.ts";
import { tableOf } from "../tables/index.ts";
import { matchTable } from "../tables/match.ts";
import { commandWords } from "../words.ts";
import { pathOf, paths } from "./fs-emit.ts";
import { effectiveGit, GLOBAL_VALUES } from "./git-effective.ts";
import { PUSH } from "./git-push.ts";
import { codeSetting } from "./git-settings.ts";
import { emitNamed, unknownVerb } from "./table.ts";

type Handler = (call: Call) => void;

interface Globals {
  readonly repo: string;
  /** `-c key=value` settings given on the command line. */
  readonly config: readonly string[];
  /** `git` and its global options, as given: what an alias expands after. */
  readonly head: readonly Arg[];
  readonly sub: Arg | undefined;
  readonly rest: readonly Arg[];
  readonly help: boolean;
}

function globals(call: Call): Globals {
  const args = call.args.slice(1);
  let repo = call.scope.cwd;
  const config: string[] = [];
  let i = 0;
  const done = (help: boolean): Globals => ({
    repo,
    config,
    head: call.args.slice(0, i + 1),
    sub: help ? undefined : args[i],
    rest: help ? [] : args.slice(i + 1),
    help,
  });
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (t === "--") continue;
    if (!t.startsWith("-")) break;
    if (["-h", "--help", "-v", "--version"].includes(t)) return done(true);
    // `--exec-path=DIR` makes git run its helpers, and every git a hook starts, from DIR.
    if (t.startsWith("--exec-path="))
      call.emit({ name: "environment.inject", class: "unknown", targets: ["--exec-path"] });
    const name = t.startsWith("--") ? (t.split("=")[0] ?? t) : t.slice(0, 2);
    const value = t.startsWith("--")
      ? t.includes("=")
        ? t.slice(t.indexOf("=") + 1)
        : undefined
      : t.length > 2
        ? t.slice(2)
        : undefined;
    if (!GLOBAL_VALUES.has(name)) continue;
    const v = value ?? args[++i]?.text ?? "";
    if (name === "-C") repo = absolutePath(v, repo, call.scope.home);
    if (name === "-c" || name === "--config-env") config.push(v);
    if (name === "--work-tree") repo = absolutePath(v, call.scope.cwd, call.scope.home);
  }
  const g = done(false);
  const help = !g.sub || g.sub.text === "help" || g.rest[0]?.text === "--help" || g.rest[0]?.text === "-h";
  return help ? { ...g, help } : g;
}

/** `-c key=value` settings as git reads them: lowercase keys, every value given. */
function settingsOf(config: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const setting of config) {
    const eq = setting.indexOf("=");
    const key = (eq < 0 ? setting : setting.slice(0, eq)).toLowerCase();
    out.set(key, [...(out.get(key) ?? []), eq < 0 ? "true" : setting.slice(eq + 1)]);
  }
  return out;
}

/** The words without their `-c key=value` settings, once those have been judged and applied. */
function withoutSettings(argv: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const t = argv[i] ?? "";
    if (t === "-c") i++;
    else if (!(t.startsWith("-c") && t.includes("=") && !t.startsWith("--"))) out.push(t);
  }
  return out;
}

export const git: Handler = (call) => {
  const t = tableOf(gitTable);
  const g = globals(call);
  if (g.help || !g.sub) return emitNamed(t, call, "git.help", []);
  const scoped: Call = { ...call, scope: { ...call.scope, cwd: g.repo } };
  for (const setting of g.config) configSetting(call, setting);
  // `git -c alias.p='push --force' p`, `git -c remote.origin.mirror=true push`: what git will run instead.
  if (g.config.length > 0 && call.args.every((a) => a.static)) {
    const texts = call.args.map((a) => a.text);
    const eff = effectiveGit(texts, settingsOf(g.config));
    if (eff.kind === "line") return call.engine.shell(eff.line, call);
    if (eff.kind === "unreadable") {
      call.emit({ name: "shell.dynamic", class: "unknown", targets: [`git alias ${eff.alias}`] });
      return call.unknown(`a git alias that cannot be read: ${eff.alias}`);
    }
    if (eff.argv.join("\0") !== texts.join("\0")) return call.engine.run(withoutSettings(eff.argv).map(lit), call);
  }
  nestedCommands(scoped, g.sub.text, g.rest);
  fileReads(scoped, g.sub.text, g.rest);
  const special = SPECIAL[g.sub.text];
  if (special) return special(scoped, g.rest, g.repo);
  const m = matchTable(t, [g.sub, ...g.rest]);
  if (!m) return unknownVerb(t, call, [g.sub, ...g.rest]);
  call.emit({ name: m.action, class: m.entry.class, targets: [...m.rest.map((a) => a.text), g.repo], cli: "git" });
};

/** Whether a non-`!` alias's words are a subcommand that destroys work or forces a push. */
export function aliasDestroys(value: string): boolean {
  const words = commandWords(value);
  if (!words || words.length === 0) return true;
  const [sub = "", ...rest] = words;
  if (sub === "push") {
    const p = parseOpts(rest.map(lit), PUSH);
    const specs = p.operands.slice(1).map((a) => a.text);
    return (
      has(p, "-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror", "-d", "--delete", "--prune") ||
      specs.some((x) => x.startsWith("+") || x.startsWith(":"))
    );
  }
  const m = matchTable(tableOf(gitTable), words.map(lit));
  return !m || m.entry.class === "destructive" || m.action === "git.unknown";
}

/** A setting that makes git run code or force a push later asks; the command it runs is resolved as well. */
export function emitSetting(call: Call, key: string, value: string): void {
  const judged = codeSetting(key, value, aliasDestroys);
  if (!judged) return;
  call.emit({ name: "git.config-exec", class: "unknown", targets: [key], cli: "git" });
  if (judged.runs?.trim()) call.engine.shell(judged.runs, call);
}

type Special = (call: Call, rest: readonly Arg[], repo: string) => void;

function emit(call: Call, action: string, targets: readonly string[], branch?: string): void {
  emitNamed(tableOf(gitTable), call, action, targets, branch);
}

const CHECKOUT: OptSpec = {
  flags: "qfmptlp",
  values: "bB",
  long: ["quiet", "force", "merge", "detach", "patch", "guess", "no-guess", "overlay", "no-overlay", "ours", "theirs"],
  longValues: ["orphan", "conflict", "pathspec-from-file"],
  longOptional: ["track", "recurse-submodules", "no-recurse-submodules", "progress", "ignore-other-worktrees"],
};

/** Operands that can only be paths: `git checkout .` overwrites every file. */
const PATHLIKE = /^(\.|\.\.|\.\/.*|\.\.\/.*|\/.*|:.*)$|[*?[]/;

const checkout: Special = (call, rest, repo) => {
  const cut = rest.findIndex((a) => a.text === "--");
  const before = parseOpts(cut < 0 ? rest : rest.slice(0, cut), CHECKOUT);
  const after = cut < 0 ? [] : rest.slice(cut + 1);
  const paths = [...after, ...before.operands.slice(1)];
  if (has(before, "-f", "--force")) return emit(call, "git.checkout-force", [...targets(call, before.operands), repo]);
  const single = before.operands.length === 1 && after.length === 0 && PATHLIKE.test(before.operands[0]?.text ?? "");
  if (paths.length > 0 || single || has(before, "--pathspec-from-file", "-p", "--patch")) {
    return emit(call, "git.checkout-paths", [...targets(call, single ? before.operands : paths), repo]);
  }
  emit(call, "git.checkout", [...before.operands.map((a) => a.text), repo]);
};

const restore: Special = (call, rest, repo) => {
  const p = parseOpts(rest, {
    flags: "SWpqm",
    values: "s",
    long: [
      "staged",
      "worktree",
      "patch",
      "quiet",
      "merge",
      "ours",
      "theirs",
      "overlay",
      "no-overlay",
      "ignore-unmerged",
    ],
    longValues: ["source", "pathspec-from-file", "conflict"],
    longOptional: ["progress", "recurse-submodules"],
  });
  const stagedOnly = has(p, "-S", "--staged") && !has(p, "-W", "--worktree");
  emit(call, stagedOnly ? "git.restore-staged" : "git.restore", [...targets(call, p.operands), repo]);
};

const branch: Special = (call, rest, repo) => {
  const p = parseOpts(rest, {
    flags: "dDmMcCfralvqit",
    values: "u",
    long: [
      "delete",
      "move",
      "copy",
      "force",
      "all",
      "remotes",
      "list",
      "verbose",
      "quiet",
      "unset-upstream",
      "edit-description",
      "show-current",
      "ignore-case",
      "create-reflog",
      "no-track",
    ],
    longValues: ["set-upstream-to", "contains", "no-contains", "merged", "no-merged", "points-at", "sort", "format"],
    longOptional: ["color", "column", "track", "abbrev", "recurse-submodules"],
  });
  const names = [...p.operands.map((a) => a.text), repo];
  const force = has(p, "-f", "--force");
  const del = has(p, "-d", "--delete");
  const moves = has(p, "-m", "--move", "-c", "--copy");
  if (has(p, "-D") || (del && force)) return emit(call, "git.branch-delete-force", names);
  if (del) return emit(call, "git.branch-delete", names);
  if (has(p, "-M", "-C") || (moves && force)) return emit(call, "git.branch-force", names);
  if (moves) return emit(call, "git.branch-move", names);
  if (has(p, "-u", "--set-upstream-to", "--unset-upstream", "--edit-description"))
    return emit(call, "git.branch-upstream", names);
  const listing = has(
    p,
    "-l",
    "--list",
    "-a",
    "--all",
    "-r",
    "--remotes",
    "--show-current",
    "--contains",
    "--merged",
    "--no-merged",
    "--points-at",
    "-v",
    "--verbose",
    "--no-contains",
  );
  if (listing || p.operands.length === 0) return emit(call, "git.branch", names);
  emit(call, force ? "git.branch-force" : "git.branch-create", names);
};

const tag: Special = (call, rest, repo) => {
  const p = parseOpts(rest, {
    flags: "adfslve",
    values: "mFu",
    optional: "n",
    long: ["annotate", "delete", "force", "sign", "list", "verify", "edit"],
    longValues: [
      "message",
      "file",
      "local-user",
      "contains",
      "no-contains",
      "merged",
      "no-merged",
      "points-at",
      "sort",
      "format",
    ],
  });
  const names = [...p.operands.map((a) => a.text), repo];
  if (has(p, "-d", "--delete")) return emit(call, "git.tag-delete", names);
  if (has(p, "-l", "--list", "-v", "--verify", "-n") || p.operands.length === 0) return emit(call, "git.tag", names);
  emit(call, "git.tag-create", names);
};

/** One action per refspec: a `+` or a force option forces, `:dst` or `--delete` deletes; the branch is the destination. */
const push: Special = (call, rest) => {
  const p = parseOpts(rest, PUSH);
  const force = has(p, "-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror");
  const [remote, ...refspecs] = p.operands.map((a) => a.text);
  const del = has(p, "-d", "--delete");
  const base = remote === undefined ? [] : [remote];
  if (has(p, "--prune", "--mirror")) emit(call, "git.push-delete", base);
  if (refspecs.length === 0) return emit(call, del ? "git.push-delete" : force ? "git.push-force" : "git.push", base);
  for (const spec of refspecs) {
    const plus = spec.startsWith("+");
    const body = plus ? spec.slice(1) : spec;
    const colon = body.indexOf(":");
    const dst = colon < 0 ? body : body.slice(colon + 1);
    const deleting = del || (colon === 0 && !plus);
    const action = deleting ? "git.push-delete" : force || plus ? "git.push-force" : "git.push";
    const branchName = dst.replace(/^refs\/heads\//, "");
    const branch = branchName === "" || branchName === "HEAD" ? undefined : branchName;
    emit(call, action, [...base, spec], branch);
  }
};

const CONFIG_WRITES = [
  "--unset",
  "--unset-all",
  "--add",
  "--replace-all",
  "--rename-section",
  "--remove-section",
  "-e",
  "--edit",
];
const CONFIG_READS = [
  "--get",
  "--get-all",
  "--get-regexp",
  "--get-urlmatch",
  "--list",
  "-l",
  "--get-color",
  "--get-colorbool",
];

const CONFIG_OPTS = { values: "f", longValues: ["file", "blob", "type", "default", "comment", "value"], long: [] };

/** `git config [--add|--replace-all] key value`, `git config set key value`: the setting, judged by its value. */
const config: Special = (call, rest) => {
  const sub = rest[0]?.text;
  if (sub === "get" || sub === "list")
    return emit(
      call,
      "git.config",
      rest.slice(1).map((a) => a.text),
    );
  if (sub && ["set", "unset", "rename-section", "remove-section", "edit"].includes(sub)) {
    if (sub === "set") setWritten(call, parseOpts(rest.slice(1), CONFIG_OPTS).operands);
    return emit(
      call,
      "git.config-set",
      rest.slice(1).map((a) => a.text),
    );
  }
  const p = parseOpts(rest, CONFIG_OPTS);
  const operands = p.operands.map((a) => a.text);
  const writes = p.opts.some((o) => CONFIG_WRITES.includes(o.name));
  const reads = p.opts.some((o) => CONFIG_READS.includes(o.name));
  const removes = p.opts.some((o) => o.name.startsWith("--unset") || o.name.endsWith("-section"));
  const sets = writes || (!reads && operands.length >= 2);
  if (sets && !removes) setWritten(call, p.operands);
  emit(call, sets ? "git.config-set" : "git.config", operands.slice(0, 1));
};

function setWritten(call: Call, operands: readonly Arg[]): void {
  const [key, value] = operands;
  if (!key || !value) return;
  if (!key.static || !value.static) {
    call.emit({ name: "git.config-exec", class: "unknown", targets: [key.text], cli: "git" });
    return;
  }
  emitSetting(call, key.text, value.text);
}

/** `-c key=value`: a setting for this one call, judged like a written one. */
function configSetting(call: Call, setting: string): void {
  const eq = setting.indexOf("=");
  emitSetting(call, eq < 0 ? setting : setting.slice(0, eq), eq < 0 ? "true" : setting.slice(eq + 1));
}

/** Options and subcommands whose value is a command git runs: `rebase -x`, `bisect run`, `--upload-pack`. */
/** Options of one subcommand whose value is a shell command it runs (`filter-branch --tree-filter`, `difftool -x`). */
const SUB_SHELL_VALUES: Readonly<Record<string, readonly string[]>> = {
  "filter-branch": [
    "--tree-filter",
    "--index-filter",
    "--msg-filter",
    "--env-filter",
    "--commit-filter",
    "--parent-filter",
    "--tag-name-filter",
  ],
  difftool: ["--extcmd"],
  "send-email": ["--to-cmd", "--cc-cmd", "--sendmail-cmd"],
};

function nestedCommands(call: Call, sub: string, rest: readonly Arg[]): void {
  const shellValues = ["--exec", "-x", "--upload-pack", "-u", "--receive-pack", ...(SUB_SHELL_VALUES[sub] ?? [])];
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]?.text ?? "";
    const eq = t.indexOf("=");
    const name = t.startsWith("--") && eq > 0 ? t.slice(0, eq) : t;
    if (!shellValues.includes(name)) continue;
    if (name === "-x" && sub !== "rebase" && sub !== "difftool") continue;
    if (name === "-u" && sub !== "clone") continue;
    if ((name === "--exec" || name === "-x") && !["rebase", "push", "send-pack", "difftool"].includes(sub)) continue;
    const value = name !== t ? { ...(rest[i] as Arg), text: t.slice(eq + 1) } : rest[++i];
    if (value?.static) call.engine.shell(value.text, call);
  }
  if (sub === "bisect" && rest[0]?.text === "run" && rest.length > 1) call.engine.run(rest.slice(1), call);
  if (sub === "submodule" && rest.some((a) => a.text === "foreach")) {
    const cmd = rest.slice(rest.findIndex((a) => a.text === "foreach") + 1).filter((a) => !a.text.startsWith("--"));
    if (cmd.length > 0 && cmd.every((a) => a.static)) call.engine.shell(cmd.map((a) => a.text).join(" "), call);
  }
}

/** Subcommands that print what a path holds: `show HEAD:.env`, `log -p -- .env`, `cat-file -p :.env`. */
const PRINTS_PATHS = new Set([
  "show",
  "cat-file",
  "diff",
  "log",
  "blame",
  "annotate",
  "whatchanged",
  "grep",
  "difftool",
]);

/**
 * The files a git subcommand reads and prints or stores: git reading a secret is a secret read. `rev:path` and
 * `:path` name a file's committed or staged copy; `hash-object`, `add` and `diff --no-index` read the files named.
 */
function fileReads(call: Call, sub: string, rest: readonly Arg[]): void {
  const cut = rest.findIndex((a) => a.text === "--");
  const before = (cut < 0 ? rest : rest.slice(0, cut)).filter((a) => !a.text.startsWith("-"));
  const after = cut < 0 ? [] : rest.slice(cut + 1);
  const files: Arg[] = [];
  if (PRINTS_PATHS.has(sub)) {
    files.push(...after);
    for (const a of before) {
      const m = /^[^:]*:(?:[0-3]:)?(.+)$/.exec(a.text);
      if (m?.[1] && !a.text.includes("://")) files.push({ ...a, text: m[1] });
    }
  }
  const noIndex = sub === "diff" && rest.some((a) => a.text === "--no-index");
  if (noIndex || sub === "hash-object" || sub === "add") files.push(...before, ...after);
  if ((sub === "blame" || sub === "annotate") && before.length > 0) files.push(before[before.length - 1] as Arg);
  const read = paths(
    call,
    files.filter((a) => a.static),
  );
  if (read.length > 0) call.emit({ name: "filesystem.read", class: "read", targets: [...new Set(read)] });
}

function targets(call: Call, args: readonly Arg[]): string[] {
  return args.map((a) => pathOf(call, a));
}

const SPECIAL: Readonly<Record<string, Special>> = { checkout, restore, branch, tag, push, config };
