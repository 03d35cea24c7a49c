// git: global options first (`-C dir` moves the repository), then the verbs whose options decide the action.
import { has, type OptSpec, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { absolutePath } from "../paths.ts";
import { git as gitTable } from "../tables/git.ts";
import { tableOf } from "../tables/index.ts";
import { matchTable } from "../tables/match.ts";
import { pathOf } from "./fs-emit.ts";
import { emitNamed, unknownVerb } from "./table.ts";

type Handler = (call: Call) => void;

const GLOBAL_VALUES = new Set([
  "-C",
  "-c",
  "--git-dir",
  "--work-tree",
  "--namespace",
  "--config-env",
  "--super-prefix",
]);

interface Globals {
  readonly repo: string;
  /** `-c key=value` settings given on the command line. */
  readonly config: readonly string[];
  readonly sub: Arg | undefined;
  readonly rest: readonly Arg[];
  readonly help: boolean;
}

function globals(call: Call): Globals {
  const args = call.args.slice(1);
  let repo = call.scope.cwd;
  const config: string[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (t === "--") continue;
    if (!t.startsWith("-")) break;
    if (["-h", "--help", "-v", "--version"].includes(t)) return { repo, config, sub: undefined, rest: [], help: true };
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
  const sub = args[i];
  const rest = args.slice(i + 1);
  const help = !sub || sub.text === "help" || rest[0]?.text === "--help" || rest[0]?.text === "-h";
  return { repo, config, sub, rest, help };
}

export const git: Handler = (call) => {
  const t = tableOf(gitTable);
  const g = globals(call);
  if (g.help || !g.sub) return emitNamed(t, call, "git.help", []);
  // Everything it does happens in the repository -C names: the rules of that repository apply, not the caller's.
  const scoped: Call = {
    ...call,
    scope: { ...call.scope, cwd: g.repo },
    emit: (spec) => call.emit({ ...spec, cwd: g.repo }),
  };
  for (const setting of g.config) configInjection(call, setting);
  nestedCommands(scoped, g.sub.text, g.rest);
  const special = SPECIAL[g.sub.text];
  if (special) return special(scoped, g.rest, g.repo);
  const m = matchTable(t, [g.sub, ...g.rest]);
  if (!m) return unknownVerb(t, scoped, [g.sub, ...g.rest]);
  scoped.emit({ name: m.action, class: m.entry.class, targets: [...m.rest.map((a) => a.text), g.repo], cli: "git" });
};

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

const PUSH: OptSpec = {
  flags: "fnuqvd46",
  values: "o",
  long: [
    "force",
    "force-if-includes",
    "mirror",
    "all",
    "branches",
    "tags",
    "follow-tags",
    "delete",
    "prune",
    "dry-run",
    "porcelain",
    "atomic",
    "set-upstream",
    "no-verify",
    "verify",
    "thin",
    "progress",
    "quiet",
    "verbose",
  ],
  longValues: ["repo", "receive-pack", "exec", "push-option"],
  longOptional: ["force-with-lease", "signed", "recurse-submodules"],
};

/** One action per refspec: a `+` or a force option forces, `:dst` or `--delete` deletes; the branch is the destination. */
const push: Special = (call, rest) => {
  const p = parseOpts(rest, PUSH);
  const force = has(p, "-f", "--force", "--force-with-lease", "--force-if-includes", "--mirror");
  const del = has(p, "-d", "--delete");
  const [remote, ...refspecs] = p.operands.map((a) => a.text);
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

const config: Special = (call, rest) => {
  const sub = rest[0]?.text;
  if (sub === "get" || sub === "list")
    return emit(
      call,
      "git.config",
      rest.slice(1).map((a) => a.text),
    );
  if (sub && ["set", "unset", "rename-section", "remove-section", "edit"].includes(sub)) {
    return emit(
      call,
      "git.config-set",
      rest.slice(1).map((a) => a.text),
    );
  }
  const p = parseOpts(rest, { values: "f", longValues: ["file", "blob", "type", "default"], long: [] });
  const operands = p.operands.map((a) => a.text);
  const writes = p.opts.some((o) => CONFIG_WRITES.includes(o.name));
  const reads = p.opts.some((o) => CONFIG_READS.includes(o.name));
  emit(call, writes || (!reads && operands.length >= 2) ? "git.config-set" : "git.config", operands.slice(0, 1));
};

/** Settings that make git run a program: a `-c` of one of these runs code the line does not show. */
const RUNS_PROGRAM =
  /(pager|editor|command|program|sshcommand|fsmonitor|askpass|gitproxy|textconv|driver|clean|smudge|process|helper|external|cmd)$/i;
const LOADS_CODE = /^(alias\.|include\.|includeif\.)|hookspath$|(^|\.)proxy$/i;

function configInjection(call: Call, setting: string): void {
  const eq = setting.indexOf("=");
  const key = eq < 0 ? setting : setting.slice(0, eq);
  const value = eq < 0 ? "" : setting.slice(eq + 1);
  if (!RUNS_PROGRAM.test(key) && !LOADS_CODE.test(key)) return;
  call.emit({ name: "environment.inject", class: "unknown", targets: [`git -c ${key}`] });
  const program = key.startsWith("alias.") ? (value.startsWith("!") ? value.slice(1) : "") : value;
  if (RUNS_PROGRAM.test(key) || key.startsWith("alias.")) if (program.trim() !== "") call.engine.shell(program, call);
}

/** Options and subcommands whose value is a command git runs: `rebase -x`, `bisect run`, `--upload-pack`. */
function nestedCommands(call: Call, sub: string, rest: readonly Arg[]): void {
  const shellValues = ["--exec", "-x", "--upload-pack", "-u", "--receive-pack"];
  for (let i = 0; i < rest.length; i++) {
    const t = rest[i]?.text ?? "";
    const eq = t.indexOf("=");
    const name = t.startsWith("--") && eq > 0 ? t.slice(0, eq) : t;
    if (!shellValues.includes(name)) continue;
    if (name === "-x" && sub !== "rebase") continue;
    if (name === "-u" && sub !== "clone") continue;
    if ((name === "--exec" || name === "-x") && !["rebase", "push", "send-pack"].includes(sub)) continue;
    const value = name !== t ? { ...(rest[i] as Arg), text: t.slice(eq + 1) } : rest[++i];
    if (value?.static) call.engine.shell(value.text, call);
  }
  if (sub === "bisect" && rest[0]?.text === "run" && rest.length > 1) call.engine.run(rest.slice(1), call);
  if (sub === "submodule" && rest.some((a) => a.text === "foreach")) {
    const cmd = rest.slice(rest.findIndex((a) => a.text === "foreach") + 1).filter((a) => !a.text.startsWith("--"));
    if (cmd.length > 0 && cmd.every((a) => a.static)) call.engine.shell(cmd.map((a) => a.text).join(" "), call);
  }
}

function targets(call: Call, args: readonly Arg[]): string[] {
  return args.map((a) => pathOf(call, a));
}

const SPECIAL: Readonly<Record<string, Special>> = { checkout, restore, branch, tag, push, config };
