// Any CLI with a verb table: subcommand words and options pick the entry, the entry gives name and class.

import { asciiDashes } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { emitOperandReads } from "../paths.ts";
import { classOf } from "../tables/index.ts";
import { matchTable, type Scanned, scan } from "../tables/match.ts";
import type { VerbTable } from "../types.ts";

const SOLE_HELP = new Set(["-h", "--help", "-v", "-V", "--version", "help", "version", "-help"]);

/**
 * `--help` before the command's first operand, or a lone `help`/`--version`: the CLI prints and acts on nothing.
 * After an operand it may belong to the program the command starts (`docker run img --help` runs the container).
 */
function isHelp(table: VerbTable, args: readonly Arg[], scanned: Scanned, operand?: Arg): boolean {
  if (args.length === 0) return !table.verbs.some((e) => e.path.length === 0);
  if (args.length === 1 && SOLE_HELP.has(args[0]?.text ?? "")) return true;
  if (scanned.positional[0]?.text === "help") return true;
  if (!scanned.flags.has("--help")) return false;
  const at = operand ? args.indexOf(operand) : -1;
  return at < 0 || args.slice(0, at).some((a) => asciiDashes(a.text) === "--help");
}

export function runTable(table: VerbTable, call: Call, args: readonly Arg[]): void {
  const scanned = scan(args, table.valueFlags);
  const m = matchTable(table, args, scanned);
  if (isHelp(table, args, scanned, m?.rest[0])) {
    emitNamed(table, call, `${table.cli}.help`, []);
    return;
  }
  if (!m) {
    unknownVerb(table, call, scanned.positional);
    return;
  }
  call.emit({ name: m.action, class: m.entry.class, targets: m.rest.map((a) => a.text), cli: table.cli });
  emitOperandReads(call, m.rest);
}

/** An action the CLI's reader chose by name; its class always comes from the table. */
export function emitNamed(
  table: VerbTable,
  call: Call,
  action: string,
  targets: readonly string[],
  branch?: string,
): void {
  const cls = classOf(table, action);
  if (!cls) {
    unknownVerb(table, call, []);
    return;
  }
  call.emit({ name: action, class: cls, targets, cli: table.cli, ...(branch !== undefined ? { branch } : {}) });
}

export function unknownVerb(table: VerbTable, call: Call, positional: readonly Arg[]): void {
  const words = positional.map((a) => a.text);
  call.emit({ name: `${table.cli}.unknown`, class: "unknown", targets: words, cli: table.cli });
  call.unknown([table.cli, ...words.slice(0, 2)].join(" "));
}
