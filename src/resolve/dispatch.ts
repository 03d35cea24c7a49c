// One command's argv to its handler: wrappers, shells, files, network, interpreters, databases, verb tables.
import type { Call } from "./call.ts";
import { containerReads } from "./commands/containers.ts";
import { DETACHED_HANDLERS } from "./commands/detached.ts";
import { EDITOR_HANDLERS } from "./commands/editors.ts";
import { FILE_HANDLERS, isFormatter } from "./commands/files.ts";
import { git } from "./commands/git.ts";
import { interpretedFile, interpreterFor } from "./commands/interpreters.ts";
import { kubectl } from "./commands/kubectl.ts";
import { LAUNCHER_HANDLERS, systemdRun } from "./commands/launchers.ts";
import { memnox } from "./commands/memnox.ts";
import { NETWORK_HANDLERS } from "./commands/network.ts";
import { PACKAGE_HANDLERS } from "./commands/packages.ts";
import { PRINT_HANDLERS } from "./commands/printers.ts";
import { READONLY_HANDLERS } from "./commands/readonly.ts";
import { SHELL_HANDLERS } from "./commands/shells.ts";
import { SQL_HANDLERS } from "./commands/sql.ts";
import { SYSTEM_HANDLERS } from "./commands/system.ts";
import { runTable } from "./commands/table.ts";
import { TCL_HANDLERS } from "./commands/tcl.ts";
import { TOOLCHAIN_HANDLERS } from "./commands/toolchain.ts";
import { WRAPPER_HANDLERS } from "./commands/wrappers.ts";
import { absolutePath, basename, emitOperandReads } from "./paths.ts";
import { renderArg } from "./shell/render.ts";
import { verbTable } from "./tables/index.ts";

type Handler = (call: Call) => void;

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ...Object.entries(WRAPPER_HANDLERS),
  ...Object.entries(PACKAGE_HANDLERS),
  ...Object.entries(TOOLCHAIN_HANDLERS),
  ...Object.entries(SHELL_HANDLERS),
  ...Object.entries(FILE_HANDLERS),
  ...Object.entries(READONLY_HANDLERS),
  ...Object.entries(PRINT_HANDLERS),
  ...Object.entries(NETWORK_HANDLERS),
  ...Object.entries(SQL_HANDLERS),
  ...Object.entries(SYSTEM_HANDLERS),
  ...Object.entries(LAUNCHER_HANDLERS),
  ...Object.entries(DETACHED_HANDLERS),
  ...Object.entries(EDITOR_HANDLERS),
  ...Object.entries(TCL_HANDLERS),
  ["systemd-run", systemdRun],
  ["git", git],
  ["memnox", memnox],
  ["kubectl", kubectl],
]);

/** `tclsh8.6`, `wish8.6`: versioned names of the same program. */
function versioned(name: string): string {
  return name.replace(/^(tclsh|wish|expect)[0-9.]+$/, "$1");
}

/** `/usr/bin/git`, `GIT`, `git.exe` and `./git` all run git as far as a rule is concerned. */
function commandName(text: string): string {
  return basename(text)
    .toLowerCase()
    .replace(/\.exe$/, "");
}

export function dispatch(call: Call): void {
  const first = call.args[0];
  if (!first) return;
  if (!first.static || first.glob) {
    // In a script the project declares (`"$JAVACMD" "$@"`), the program is known only when it starts, where the
    // interceptors rule on it; on the agent's own line it is code built to be unseen.
    call.emit({
      name: call.scope.declared ? "shell.deferred" : "shell.dynamic",
      class: "unknown",
      targets: [first.text],
    });
    call.unknown(first.text);
    return;
  }
  const alias = call.scope.aliases.get(first.text);
  if (alias !== undefined) {
    expandAlias(call, first.text, alias);
    return;
  }
  if (call.scope.functions.has(first.text)) return;
  const name = commandName(first.text);
  if (name === "docker" || name === "podman") containerReads(call, call.args.slice(1));
  if (BUILDERS.has(name)) buildsFetched(call);
  const handler = HANDLERS.get(isFormatter(name) ? "mkfs" : versioned(name)) ?? interpreterFor(name);
  if (handler) {
    handler(call);
    return;
  }
  const table = verbTable(name);
  if (table) {
    runTable(table, call, call.args.slice(1));
    return;
  }
  if (first.text.includes("/") && (linkedThisLine(call, first.text) || madeThisLine(call, first.text))) return;
  if (first.text.includes("/") && shellScript(call, first.text)) return;
  runUnknown(call, name);
}

/** Tools that run the code of the project they build or install (its makefile, lifecycle scripts, build.rs, setup.py). */
const BUILDERS = new Set(
  "make gmake cmake meson ninja npm pnpm yarn bun pip pip3 uv poetry cargo go gradle mvn bundle rake composer".split(
    " ",
  ),
);

/** `git clone URL d && cd d && make`, `npm install ./d`: a builder run on code this line fetched runs that code. */
function buildsFetched(call: Call): void {
  const places = [call.scope.cwd, ...call.args.slice(1).filter((a) => a.static && !a.text.startsWith("-"))];
  const at = places
    .map((p) => (typeof p === "string" ? p : absolutePath(p.text, call.scope.cwd, call.scope.home)))
    .find((p) => call.engine.fromOutside(p));
  if (at) call.emit({ name: "shell.fetched", class: "unknown", targets: [at] });
}

/** `ln -s /bin/bash ./claude && ./claude -c …`: a program this line linked (or copied) runs what it leads to. */
function linkedThisLine(call: Call, program: string): boolean {
  const path = absolutePath(program, call.scope.cwd, call.scope.home);
  const to = call.scope.links.get(path);
  const target = to?.length === 1 ? to[0] : undefined;
  if (!target?.startsWith("/") || target === path) return false;
  // As a line one level deeper: links that lead to each other end at the nesting limit.
  call.engine.shell([target, ...call.args.slice(1).map((a) => a.text)].map(renderArg).join(" "), call);
  return true;
}

/** `printf … > p.sh && ./p.sh`: a program this very line writes has no text yet for anybody to read before it runs. */
function madeThisLine(call: Call, program: string): boolean {
  const path = absolutePath(program, call.scope.cwd, call.scope.home);
  if (!call.engine.madeHere(path)) return false;
  call.emit({ name: "shell.script", class: "unknown", targets: [path] });
  return true;
}

const SHEBANG_SHELL = /^#!\s*(?:\/\S*\/)?(?:env\s+(?:-\S+\s+)*)?(?:ba|z|da|k|mk|a)?sh\b/;

/** `./build.sh`: a script the gate read whose first line names a shell (or nothing) is resolved line by line. */
function shellScript(call: Call, program: string): boolean {
  const path = absolutePath(program, call.scope.cwd, call.scope.home);
  const text = call.engine.source(path, call);
  if (text?.startsWith("#!") && !SHEBANG_SHELL.test(text))
    return interpretedFile(call, text.split("\n")[0] ?? "", path);
  if (!call.engine.file(path, call)) return false;
  call.emit({ name: `${commandName(program).replace(/[^a-z0-9_+-]+/g, "-")}.run`, class: "write", targets: [path] });
  return true;
}

/** An alias in its place, its words before the rest; the alias itself is not expanded again inside. */
function expandAlias(call: Call, name: string, value: string | null): void {
  const rest = call.args.slice(1);
  if (value === null || !rest.every((a) => a.static)) {
    call.emit({ name: "shell.dynamic", class: "unknown", targets: [name] });
    return;
  }
  const aliases = new Map(call.scope.aliases);
  aliases.delete(name);
  const line = [value, ...rest.map((a) => renderArg(a.text))].join(" ");
  call.engine.shell(line, { ...call, scope: { ...call.scope, aliases } });
}

/** A program nothing here knows: `<name>.run`, class unknown, counted; never read as safe. */
function runUnknown(call: Call, name: string): void {
  const safe = name.replace(/[^a-z0-9_+-]+/g, "-").replace(/^-+|-+$/g, "") || "command";
  call.emit({ name: `${safe}.run`, class: "unknown", targets: call.args.slice(1).map((a) => a.text) });
  emitOperandReads(call, call.args.slice(1));
  call.unknown(name);
}
