// `memnox --help` shows the eight terminal commands; `help --all` every command; `help <cmd>` one command's flags.
import type { ArgsDef, CommandDef, CommandMeta } from "citty";
import { MemnoxError } from "../../core/errors.ts";
import type { Context } from "../../ports/context.ts";
import { pad } from "./output.ts";
import { COMMANDS, findCommand } from "./registry.ts";

export function renderTerminalHelp(version: string): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const lines = [
    `memnox ${version}: the local control plane for AI coding agents`,
    "",
    "Usage: memnox <command> [options]",
    "",
    "At the terminal:",
    ...COMMANDS.filter((c) => c.terminal).map((c) => `  ${pad(c.name, width)}${c.summary}`),
    "",
    "Everything else happens in your agent session: it is told the boundary, reminded of",
    "decisions, and can ask memnox why, status, replay, decisions and rewind.",
    "",
    "memnox help --all     every command",
    "memnox help <command> one command and its flags",
    "",
  ];
  return lines.join("\n");
}

export function renderAll(): string {
  const width = Math.max(...COMMANDS.map((c) => c.name.length)) + 2;
  const lines = ["Every memnox command:", ""];
  for (const c of COMMANDS) lines.push(`  ${pad(c.name, width)}${c.summary}`);
  lines.push("", "memnox help <command> prints the flags for any of them.", "");
  return lines.join("\n");
}

/** Flags of `memnox <path…>`, descending into subcommands by name. */
export async function renderCommandHelp(ctx: Context, path: readonly string[]): Promise<string> {
  const [name, ...rest] = path;
  const entry = name ? findCommand(name) : undefined;
  if (!entry || !name)
    throw new MemnoxError("usage", `unknown command \`${name ?? ""}\``, "memnox help --all lists every command");
  let def: CommandDef = (await entry.load())(ctx);
  const trail = [name];
  for (const word of rest) {
    if (word.startsWith("-")) continue;
    const subs = await resolve(def.subCommands);
    const next = subs?.[word];
    if (!next) break;
    const resolved = await resolve(next);
    if (!resolved) break;
    def = resolved;
    trail.push(word);
  }
  return usage(trail, def);
}

async function usage(trail: readonly string[], def: CommandDef): Promise<string> {
  const meta: CommandMeta = (await resolve(def.meta)) ?? {};
  const args: ArgsDef = (await resolve(def.args)) ?? {};
  const subs = await resolve(def.subCommands);
  const positionals = Object.entries(args).filter(([, a]) => a.type === "positional");
  const flags = Object.entries(args).filter(([, a]) => a.type !== "positional");
  const head = ["memnox", ...trail, ...positionals.map(([n, a]) => (a.required === false ? `[${n}]` : `<${n}>`))];
  const lines = [`${head.join(" ")}${flags.length ? " [options]" : ""}`, ""];
  if (meta.description) lines.push(meta.description, "");
  if (subs && Object.keys(subs).length) {
    lines.push("Commands:");
    // A name longer than the column (`ingest-transcript`) still keeps a space before its description.
    const width = Math.max(14, ...Object.keys(subs).map((n) => n.length + 2));
    for (const [n, s] of Object.entries(subs)) {
      const m: CommandMeta = (await resolve((await resolve(s))?.meta)) ?? {};
      lines.push(`  ${pad(n, width)}${m.description ?? ""}`);
    }
    lines.push("");
  }
  if (flags.length) {
    lines.push("Options:");
    for (const [n, a] of flags) {
      const aliases = "alias" in a && a.alias ? [a.alias].flat() : [];
      const alias = aliases.map((x) => (x.length === 1 ? `-${x}, ` : `--${x}, `)).join("");
      const hint = a.type === "string" || a.type === "enum" ? ` <${a.valueHint ?? n}>` : "";
      // A flag on by default is shown as its `--no-` form, so its words are what the `--no-` form does.
      const negated = a.type === "boolean" && a.default === true;
      const name = negated ? `no-${n}` : n;
      const words = negated && "negativeDescription" in a ? a.negativeDescription : a.description;
      lines.push(`  ${pad(`${alias}--${name}${hint}`, 28)}${words ?? ""}`);
    }
    lines.push("");
  }
  return lines.join("\n");
}

type Resolvable<T> = T | Promise<T> | (() => T) | (() => Promise<T>);

async function resolve<T>(v: Resolvable<T> | undefined): Promise<T | undefined> {
  if (v === undefined) return undefined;
  return typeof v === "function" ? await (v as () => T | Promise<T>)() : await v;
}
