// One command's argv to its handler: wrappers, shells, files, network, interpreters, databases, verb tables.
import type { Call } from "./call.ts";
import { containerReads } from "./commands/containers.ts";
import { DETACHED_HANDLERS } from "./commands/detached.ts";
import { EDITOR_HANDLERS } from "./commands/editors.ts";
import { FILE_HANDLERS, isFormatter } from "./commands/files.ts";
import { git } from "./commands/git.ts";
import { interpreterFor } from "./commands/interpreters.ts";
import { LAUNCHER_HANDLERS, systemdRun } from "./commands/launchers.ts";
import { NETWORK_HANDLERS } from "./commands/network.ts";
import { PRINT_HANDLERS } from "./commands/printers.ts";
import { READONLY_HANDLERS } from "./commands/readonly.ts";
import { SHELL_HANDLERS } from "./commands/shells.ts";
import { SQL_HANDLERS } from "./commands/sql.ts";
import { SYSTEM_HANDLERS } from "./commands/system.ts";
import { runTable } from "./commands/table.ts";
import { TCL_HANDLERS } from "./commands/tcl.ts";
import { WRAPPER_HANDLERS } from "./commands/wrappers.ts";
import { basename, emitOperandReads } from "./paths.ts";
import { renderArg } from "./shell/render.ts";
import { verbTable } from "./tables/index.ts";

export type Handler = (call: Call) => void;

const HANDLERS: ReadonlyMap<string, Handler> = new Map<string, Handler>([
  ...Object.entries(WRAPPER_HANDLERS),
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
]);

/** `tclsh8.6`, `wish8.6`: versioned names of the same program. */
function versioned(name: string): string {
  return name.replace(/^(tclsh|wish|expect)[0-9.]+$/, "$1");
}

/** `/usr/bin/git`, `GIT`, `git.exe` and `./git` all run git as far as a rule is concerned. */
export function commandName(text: string): string {
  return basename(text)
    .toLowerCase()
    .replace(/\.exe$/, "");
}

export function dispatch(call: Call): void {
  const first = call.args[0];
  if (!first) return;
  if (!first.static || first.glob) {
    call.emit({ name: "shell.dynamic", class: "unknown", targets: [first.text] });
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
  const handler = HANDLERS.get(isFormatter(name) ? "mkfs" : versioned(name)) ?? interpreterFor(name);
  if (handler) {
    handler(call);
    return;
  }
  if (name === "docker" || name === "podman") containerReads(call, call.args.slice(1));
  const table = verbTable(name);
  if (table) {
    runTable(table, call, call.args.slice(1));
    return;
  }
  runUnknown(call, name);
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
export function runUnknown(call: Call, name: string): void {
  const safe = name.replace(/[^a-z0-9_+-]+/g, "-").replace(/^-+|-+$/g, "") || "command";
  call.emit({ name: `${safe}.run`, class: "unknown", targets: call.args.slice(1).map((a) => a.text) });
  emitOperandReads(call, call.args.slice(1));
  call.unknown(name);
}
