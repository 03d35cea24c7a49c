// The developer's toolchain: test runners, linters, compilers and language package managers run the project's own
// code (a write; their children meet the interceptors); publishing is outward; a package from a URL, or one run
// straight from a registry without the project having it, is code fetched from outside.
import { type OptSpec, optValue, optValues, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { basename, emitOperandReads } from "../paths.ts";
import { declares } from "../project.ts";
import { verbTable } from "../tables/index.ts";
import { emitFetched, isRemote, isRemoteRequirement } from "./fetched.ts";
import { afterOptions, PYTHON_RUN_VALUES } from "./launchers.ts";
import { runTable } from "./table.ts";

type Handler = (call: Call) => void;

/** Programs that build, test, lint or format the project in place. */
const LOCAL_TOOLS = (
  "pytest py.test tox nox ruff black isort flake8 pylint mypy pyright bandit coverage pre-commit " +
  "jest vitest mocha ava eslint prettier biome tsc tsx ts-node esbuild vite webpack rollup turbo nx lerna next nuxt " +
  "astro storybook cypress stylelint oxlint " +
  "rustc rustfmt cargo-clippy gofmt golangci-lint staticcheck " +
  "gcc g++ clang clang++ cc c++ cmake ninja meson bazel gradle gradlew mvn mvnw ant sbt dotnet swift swiftc javac " +
  "kotlinc mix rebar3 rake rspec rubocop phpunit phpstan shellcheck shfmt hadolint actionlint tflint just task"
).split(" ");

/** Outward verbs of the toolchain: what a baseline asks about, as the verb tables' communication verbs are. */
export const TOOLCHAIN_OUTWARD = [
  "cargo.publish",
  "cargo.yank",
  "cargo.owner",
  "gem.push",
  "pnpm.publish",
  "poetry.publish",
  "twine.upload",
  "uv.publish",
  "yarn.publish",
  "bun.publish",
];

function emitTool(call: Call, name: string, verb = "run", cls: "write" | "communication" = "write"): void {
  call.emit({ name: `${name}.${verb}`, class: cls, targets: call.args.slice(1).map((a) => a.text) });
  emitOperandReads(call, call.args.slice(1));
}

const local: Handler = (call) => emitTool(call, basename(call.args[0]?.text ?? "tool").toLowerCase());

/** `uv run pytest`, `poetry run x`, `bundle exec x`: the rest is a command like any other, in the project's env. */
function runRest(call: Call, rest: readonly Arg[]): void {
  if (rest.length > 0) call.engine.run(rest, call);
}

const PIP_INSTALL: OptSpec = {
  flags: "UqvIe",
  values: "rcietfC",
  long: ["upgrade", "user", "no-deps", "pre", "force-reinstall", "no-cache-dir", "quiet", "editable", "system"],
  longValues: [
    "requirement",
    "constraint",
    "index-url",
    "extra-index-url",
    "find-links",
    "target",
    "prefix",
    "root",
    "src",
    "platform",
    "python-version",
    "implementation",
    "abi",
    "no-binary",
    "only-binary",
    "upgrade-strategy",
    "log",
    "cache-dir",
    "proxy",
    "retries",
    "timeout",
    "exists-action",
    "trusted-host",
    "cert",
    "client-cert",
    "config-settings",
    "python",
  ],
};

/** `pip install`: a requirement from a URL or VCS, or an index or link the project does not name, is fetched code. */
function pipInstall(call: Call, args: readonly Arg[]): void {
  const p = parseOpts(args, PIP_INSTALL);
  const specs = [...p.operands, ...optValues(p, "-e", "--editable")];
  for (const s of specs) if (!s.static || isRemoteRequirement(s.text)) emitFetched(call, s.text);
  for (const source of optValues(p, "-i", "--index-url", "--extra-index-url", "-f", "--find-links"))
    if (!source.static || isRemote(source.text)) emitFetched(call, source.text);
}

const pip: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  const verb = sub?.text ?? "";
  emitTool(call, "pip", verb === "install" ? "install" : "run");
  if (verb === "install" || verb === "download" || verb === "wheel") pipInstall(call, rest);
};

/** A Python package run in a throwaway environment: fetched, unless the project declares it (or it is a URL). */
function fetchedUnlessDeclared(call: Call, a: Arg): void {
  if (!a.static || isRemoteRequirement(a.text) || !declares(call.scope.project, a.text)) emitFetched(call, a.text);
}

const UVX: OptSpec = {
  flags: "qv",
  values: "p",
  long: ["quiet", "verbose", "offline", "isolated", "no-cache"],
  longValues: ["from", "with", "with-requirements", "python", "index", "index-url", "extra-index-url", "find-links"],
  posix: true,
};

/** `uvx pkg`, `uv tool run pkg`, `pipx run pkg`: run a package in a throwaway environment, fetching it. */
function runThrowaway(call: Call, args: readonly Arg[], spec: OptSpec = UVX): void {
  const p = parseOpts(args, spec);
  const [pkg, ...rest] = p.operands;
  const from = optValue(p, "--from", "--spec");
  const sources = [...(from ? [from] : pkg ? [pkg] : []), ...optValues(p, "--with")];
  for (const s of sources) fetchedUnlessDeclared(call, s);
  if (pkg?.static) call.engine.run([{ ...pkg, text: pkg.text.replace(/[@=<>~].*$/, "") }, ...rest], call);
}

const UV_RUN: OptSpec = {
  flags: "qv",
  values: "p",
  long: ["quiet", "verbose", "offline", "frozen", "locked", "no-sync", "isolated", "all-extras", "no-dev"],
  longValues: ["with", "with-requirements", "python", "extra", "group", "package", "env-file", "directory", "project"],
  posix: true,
};

const uv: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  const verb = sub?.text ?? "";
  if (verb === "publish") return emitTool(call, "uv", "publish", "communication");
  emitTool(call, "uv");
  if (verb === "pip" && rest[0]?.text === "install") return pipInstall(call, rest.slice(1));
  if (verb === "add") return pipInstall(call, rest);
  if (verb === "tool" && (rest[0]?.text === "run" || rest[0]?.text === "install")) {
    if (rest[0]?.text === "run") return runThrowaway(call, rest.slice(1));
    return pipInstall(
      call,
      rest.slice(1).filter((a) => a.text !== "--from"),
    );
  }
  if (verb === "run") {
    const p = parseOpts(rest, UV_RUN);
    for (const w of optValues(p, "--with")) fetchedUnlessDeclared(call, w);
    const [first] = p.operands;
    if (first && isRemote(first.text)) return emitFetched(call, first.text);
    runRest(call, p.operands);
  }
};

const uvx: Handler = (call) => runThrowaway(call, call.args.slice(1));

const pipx: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  emitTool(call, "pipx");
  if (sub?.text === "run") return runThrowaway(call, rest, { ...UVX, longValues: [...(UVX.longValues ?? []), "spec"] });
  if (sub?.text === "install" || sub?.text === "inject") pipInstall(call, rest);
};

/** `poetry run x`, `pipenv run x`, `pdm run x`, `hatch run x`, `rye run x`: the project's environment, then x. */
function projectRunner(name: string, runWord: string): Handler {
  return (call) => {
    const [sub, ...rest] = call.args.slice(1);
    if (sub?.text === "publish") return emitTool(call, name, "publish", "communication");
    emitTool(call, name);
    if (sub?.text === runWord)
      return runRest(
        call,
        afterOptions(rest, (t) => (PYTHON_RUN_VALUES.includes(t) ? 1 : 0)),
      );
    if (sub?.text === "add" || sub?.text === "install") pipInstall(call, rest);
  };
}

const CARGO_INSTALL: OptSpec = {
  flags: "fq",
  values: "j",
  long: ["force", "locked", "offline", "frozen", "quiet", "debug", "all-features", "no-default-features"],
  longValues: ["git", "branch", "tag", "rev", "path", "root", "version", "index", "registry", "features", "bin"],
};

const cargo: Handler = (call) => {
  const args = call.args.slice(1).filter((a) => !a.text.startsWith("+"));
  const verb = args.find((a) => !a.text.startsWith("-"))?.text ?? "";
  if (verb === "publish" || verb === "yank" || verb === "owner") return emitTool(call, "cargo", verb, "communication");
  emitTool(call, "cargo", verb === "install" ? "install" : "run");
  if (verb !== "install") return;
  const p = parseOpts(args.slice(args.findIndex((a) => a.text === "install") + 1), CARGO_INSTALL);
  for (const g of optValues(p, "--git", "--index")) emitFetched(call, g.text);
};

const go: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  emitTool(call, "go");
  if (sub?.text !== "run") return;
  const p = parseOpts(rest, { flags: "anrvx", values: "C", longValues: [], posix: true });
  const target = p.operands.find((a) => !a.text.startsWith("-"));
  // `go run x@latest` fetches a module at that version and runs it; `go run .` is the project.
  if (target && (!target.static || /^[^./][^@\s]*\.[^@\s]*\/\S*@/.test(target.text))) emitFetched(call, target.text);
};

/** `helm install name https://…/chart.tgz`, `oci://…`, `--repo https://…`: a chart from no repository you added. */
const helm: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  call.emit({ name: "helm.run", class: "unknown", targets: call.args.slice(1).map((a) => a.text) });
  call.unknown(`helm ${sub?.text ?? ""}`.trim());
  if (!sub || !["install", "upgrade", "template", "pull"].includes(sub.text)) return;
  const p = parseOpts(rest, {
    flags: "i",
    values: "nf",
    longValues: ["repo", "version", "namespace", "values", "set"],
  });
  for (const a of [...p.operands, ...optValues(p, "--repo")]) if (isRemote(a.text)) emitFetched(call, a.text);
};

/** `docker build https://github.com/x/y.git`: a build context, Dockerfile `RUN` lines and all, fetched. */
const docker: Handler = (call) => {
  const table = verbTable("docker");
  if (!table) return;
  const args = call.args.slice(1);
  runTable(table, call, args);
  const words = args.filter((a) => !a.text.startsWith("-")).map((a) => a.text);
  const building =
    words[0] === "build" || (["buildx", "image", "builder"].includes(words[0] ?? "") && words[1] === "build");
  if (!building) return;
  const p = parseOpts(args, { values: "ftp", longValues: ["file", "tag", "platform", "build-arg", "target", "label"] });
  for (const a of p.operands) if (isRemote(a.text) || /^github\.com\//.test(a.text)) emitFetched(call, a.text);
};

/** `nix run github:owner/repo`: a flake from a remote; `.#app` is the project's own. */
const nix: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  call.emit({ name: "nix.run", class: "unknown", targets: call.args.slice(1).map((a) => a.text) });
  call.unknown(`nix ${sub?.text ?? ""}`.trim());
  if (!sub || !["run", "shell", "develop", "build"].includes(sub.text)) return;
  // `nix develop -c cmd`, `nix shell pkg --command cmd`: the command after it is the project's own line.
  const at = rest.findIndex((a) => a.text === "-c" || a.text === "--command");
  const flakes = at >= 0 ? rest.slice(0, at) : rest;
  for (const a of flakes)
    if (!a.text.startsWith("-") && (isRemote(a.text) || /^[a-z][\w+-]*:/.test(a.text))) emitFetched(call, a.text);
  if (at >= 0 && sub.text !== "run") runRest(call, rest.slice(at + 1));
};

const gem: Handler = (call) => {
  const sub = call.args[1]?.text;
  if (sub === "push") return emitTool(call, "gem", "push", "communication");
  emitTool(call, "gem");
  if (sub === "install")
    for (const s of optValues(parseOpts(call.args.slice(2), { longValues: ["source"] }), "--source"))
      emitFetched(call, s.text);
};

const twine: Handler = (call) =>
  call.args[1]?.text === "upload" ? emitTool(call, "twine", "upload", "communication") : emitTool(call, "twine");

const bundle: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  emitTool(call, "bundle");
  if (sub?.text === "exec")
    runRest(
      call,
      afterOptions(rest, (t) => (t === "--gemfile" ? 1 : 0)),
    );
};

export const TOOLCHAIN_HANDLERS: Readonly<Record<string, Handler>> = {
  ...Object.fromEntries(LOCAL_TOOLS.map((t) => [t, local])),
  pip,
  pip3: pip,
  uv,
  uvx,
  pipx,
  poetry: projectRunner("poetry", "run"),
  pipenv: projectRunner("pipenv", "run"),
  pdm: projectRunner("pdm", "run"),
  hatch: projectRunner("hatch", "run"),
  rye: projectRunner("rye", "run"),
  cargo,
  go,
  helm,
  docker,
  nix,
  gem,
  twine,
  bundle,
};

/** `python -m pip install …` is pip. */
export function pythonModule(call: Call, module: string, rest: readonly Arg[]): boolean {
  if (module !== "pip" && module !== "pip3") return false;
  pip({ ...call, args: [{ text: "pip", static: true, glob: false }, ...rest] });
  return true;
}
