// JavaScript package managers: a script the project declares runs as its own lines, a package it has runs as that
// program; a package it does not have (npx, dlx, create) or one named by a URL is code fetched from outside.
import { has, type OptSpec, optValues, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { declaredScript, declares } from "../project.ts";
import { verbTable } from "../tables/index.ts";
import { matchTable, scan } from "../tables/match.ts";
import { emitFetched, isRemoteNpmSpec } from "./fetched.ts";
import { runTable } from "./table.ts";

type Handler = (call: Call) => void;

/** npm packages whose binary has another name. */
const PACKAGE_BINS: Readonly<Record<string, string>> = {
  "@playwright/test": "playwright",
  "netlify-cli": "netlify",
  "@railway/cli": "railway",
  "@stripe/cli": "stripe",
  "@fly/flyctl": "fly",
  "heroku-cli": "heroku",
  typescript: "tsc",
};

function packageBin(spec: string): string {
  const noVersion = spec.replace(/(?!^)@[^/]*$/, "");
  return PACKAGE_BINS[noVersion] ?? noVersion.replace(/^@[^/]+\//, "");
}

/** What `npm install` (no package named) runs of the project's own scripts, in npm's order. */
const INSTALL_SCRIPTS = ["preinstall", "install", "postinstall", "prepublish", "preprepare", "prepare", "postprepare"];

/** Each script of `names` the project declares, resolved as the lines it runs, in the package's directory. */
function runScripts(call: Call, names: readonly string[]): void {
  const project = call.scope.project;
  for (const name of names) {
    const body = declaredScript(project, call.scope.cwd, name);
    if (body !== undefined) call.engine.lines(body, call, project?.packageDir);
  }
}

const lifecycle = (name: string) => [`pre${name}`, name, `post${name}`];

/** Packages named to an install: one from a URL or a git host is code nobody vouched for. */
function installSpecs(call: Call, specs: readonly Arg[]): void {
  for (const s of specs)
    if (!s.text.startsWith("-") && (!s.static || isRemoteNpmSpec(s.text))) emitFetched(call, s.text);
}

const NPX: OptSpec = {
  flags: "yq",
  values: "pc",
  long: ["yes", "no", "quiet", "ignore-existing", "no-install", "offline", "prefer-offline"],
  longValues: ["package", "call", "cache", "shell", "registry"],
  posix: true,
};

/**
 * `npx`, `npm exec`, `bunx`, `pnpm dlx`: a package the project has runs as its program; one it does not have is
 * fetched from the registry and run. `local` (`pnpm exec`, `yarn exec`, `--no-install`) never fetches.
 */
function runPackage(call: Call, args: readonly Arg[], local = false): void {
  const p = parseOpts(args, NPX);
  const offline = local || has(p, "--no", "--no-install", "--offline");
  const named = optValues(p, "-p", "--package");
  const [cmd, ...rest] = p.operands;
  const packages = named.length > 0 ? named : cmd ? [cmd] : [];
  for (const pkg of packages) {
    if (offline && pkg.static) continue;
    const bin = pkg === cmd ? packageBin(pkg.text) : undefined;
    if (!pkg.static || isRemoteNpmSpec(pkg.text) || !declares(call.scope.project, pkg.text, bin))
      emitFetched(call, pkg.text);
  }
  const script = optValues(p, "-c", "--call")[0];
  if (script) {
    if (script.static) call.engine.shell(script.text, call);
    else call.engine.run([script], call);
    return;
  }
  if (cmd) call.engine.run([{ ...cmd, text: packageBin(cmd.text) }, ...rest], call);
}

/** `npm init x` / `npm create x` runs `create-x`, fetched unless the project has it. */
function initializer(call: Call, spec: Arg | undefined): void {
  if (!spec || spec.text.startsWith("-")) return;
  const t = spec.text;
  const pkg = t.startsWith("@")
    ? t.includes("/")
      ? t.replace(/\/(?!create-)/, "/create-")
      : `${t}/create`
    : `create-${t.replace(/^create-/, "")}`;
  if (!spec.static || !declares(call.scope.project, pkg)) emitFetched(call, pkg);
}

/** The raw words after the subcommand that a table matched (options included). */
function after(args: readonly Arg[], word: Arg | undefined): readonly Arg[] {
  const i = word ? args.indexOf(word) : -1;
  return i < 0 ? [] : args.slice(i + 1);
}

export const npm: Handler = (call) => {
  const table = verbTable("npm");
  if (!table) return;
  const args = call.args.slice(1);
  const scanned = scan(args, table.valueFlags);
  const m = matchTable(table, args, scanned);
  const sub = scanned.positional[0];
  if (m?.action === "npm.exec") return runPackage(call, after(args, sub));
  runTable(table, call, args);
  const rest = m?.rest ?? [];
  const first = rest[0]?.text;
  switch (m?.action) {
    case "npm.run":
      if (first) runScripts(call, lifecycle(first));
      return;
    case "npm.test":
    case "npm.start":
    case "npm.stop":
    case "npm.restart":
      return runScripts(call, lifecycle(m.action.slice(4)));
    case "npm.install-test":
      return runScripts(call, [...INSTALL_SCRIPTS, ...lifecycle("test")]);
    case "npm.install":
    case "npm.ci":
      if (rest.length === 0) runScripts(call, INSTALL_SCRIPTS);
      return installSpecs(call, rest);
    case "npm.init":
      return initializer(call, rest[0]);
  }
};

interface Manager {
  readonly name: string;
  /** Options before the subcommand that take a value (`--filter x`, `-C dir`). */
  readonly values: string;
  readonly longValues: readonly string[];
  /** Subcommands that are the manager's own (anything else is a script, then a program in node_modules/.bin). */
  readonly own: ReadonlySet<string>;
  /** Subcommands that run the named script. */
  readonly run: ReadonlySet<string>;
  readonly install: ReadonlySet<string>;
  /** Fetch-and-run (`dlx`) and run-a-local-program (`exec`). */
  readonly dlx: ReadonlySet<string>;
  readonly exec: ReadonlySet<string>;
  readonly create: ReadonlySet<string>;
  readonly publish: ReadonlySet<string>;
  /** What a bare call does (`yarn` installs). */
  readonly bare?: string;
}

const words = (s: string) => new Set(s.split(" "));

const PNPM: Manager = {
  name: "pnpm",
  values: "CF",
  longValues: ["dir", "filter", "workspace-root", "reporter", "loglevel"],
  own: words(
    "add install i ci remove rm uninstall un update up upgrade link ln unlink import rebuild rb prune fetch patch " +
      "patch-commit audit list ls ll outdated why licenses store root bin env setup config c init deploy pack " +
      "publish server doctor dedupe approve-builds ignored-builds self-update cat-file cat-index find-hash",
  ),
  run: words("run run-script test t tst start stop restart"),
  install: words("install i add ci"),
  dlx: words("dlx"),
  exec: words("exec"),
  create: words("create"),
  publish: words("publish"),
};

const YARN: Manager = {
  name: "yarn",
  values: "",
  longValues: ["cwd"],
  own: words(
    "add install remove upgrade up info init config cache bin why workspaces link unlink pack plugin set " +
      "constraints dedupe explain npm patch patch-commit rebuild search stage unplug version node audit outdated " +
      "autoclean check generate-lock-entry global import licenses list login logout owner policies tag team " +
      "upgrade-interactive publish",
  ),
  run: words("run test start stop restart"),
  install: words("install add"),
  dlx: words("dlx"),
  exec: words("exec"),
  create: words("create"),
  publish: words("publish"),
  bare: "install",
};

const BUN: Manager = {
  name: "bun",
  values: "",
  longValues: ["cwd", "filter"],
  own: words("test install i add a remove rm update link unlink pm build init upgrade outdated patch audit info why"),
  run: words("run"),
  install: words("install i add a"),
  dlx: words("x"),
  exec: words(""),
  create: words("create c"),
  publish: words("publish"),
};

/** The manager's leading options, then its subcommand and what follows it. */
function managerWords(m: Manager, args: readonly Arg[]): { sub?: Arg; rest: readonly Arg[] } {
  const p = parseOpts(args, { values: m.values, longValues: m.longValues, flags: "rwsh", posix: true });
  const [sub, ...rest] = p.operands;
  return sub ? { sub, rest } : { rest: [] };
}

function manager(m: Manager): Handler {
  return (call) => {
    const { sub, rest } = managerWords(m, call.args.slice(1));
    const word = sub?.text ?? m.bare;
    const emit = (cls: "write" | "communication", verb = "run") =>
      call.emit({ name: `${m.name}.${verb}`, class: cls, targets: call.args.slice(1).map((a) => a.text) });
    if (!word) return;
    if (m.dlx.has(word)) return runPackage(call, rest);
    if (m.exec.has(word)) return runPackage(call, rest, true);
    if (m.publish.has(word) || (word === "npm" && rest[0]?.text === "publish")) return emit("communication", "publish");
    if (m.create.has(word)) {
      emit("write");
      return initializer(
        call,
        rest.find((a) => !a.text.startsWith("-")),
      );
    }
    emit("write");
    if (m.install.has(word)) {
      const specs = rest.filter((a) => !a.text.startsWith("-"));
      if (specs.length === 0) runScripts(call, INSTALL_SCRIPTS);
      return installSpecs(call, specs);
    }
    if (m.run.has(word)) {
      const script = m.name === "bun" || word === "run" || word === "run-script" ? rest[0]?.text : word;
      if (script) runScripts(call, lifecycle(script));
      return;
    }
    if (m.own.has(word) || !sub) return;
    // `pnpm build`: a script of that name, else a program the project installed.
    if (declaredScript(call.scope.project, call.scope.cwd, word) !== undefined)
      return runScripts(call, lifecycle(word));
    if (sub.static && declares(call.scope.project, word, word)) call.engine.run([sub, ...rest], call);
  };
}

export const pnpm = manager(PNPM);
export const yarn = manager(YARN);
export const bunManager = manager(BUN);

export const PACKAGE_HANDLERS: Readonly<Record<string, Handler>> = {
  npm,
  npx: (call) => runPackage(call, call.args.slice(1)),
  bunx: (call) => runPackage(call, call.args.slice(1)),
  pnpx: (call) => runPackage(call, call.args.slice(1)),
  pnpm,
  yarn,
};
