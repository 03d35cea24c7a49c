// The CLI's contract, kept once for every command: the words are checked against the command's own flags before it
// runs (an unknown flag or a stray word is an error naming the nearest valid one, never ignored), an error under
// `--json` is a JSON object on stdout, and what is printed carries no escape codes unless a terminal reads it.
import type { ArgDef, ArgsDef, CommandDef } from "citty";
import { describeError, type ErrorCode, isMemnoxError, MemnoxError } from "../../core/errors.ts";
import { colourAllowed, withoutEscapes } from "../../core/plain.ts";
import type { Env, Stdio } from "../../ports/index.ts";
import { colourise } from "./colour.ts";
import { wrapText } from "./wrap.ts";

type Lazy<T> = T | Promise<T> | (() => T | Promise<T>);
export const value = async <T>(v: Lazy<T> | undefined): Promise<T | undefined> =>
  typeof v === "function" ? await (v as () => T | Promise<T>)() : await v;

/** One command's words: the definition they go to and the words themselves. */
export interface Segment {
  readonly def: CommandDef;
  readonly words: readonly string[];
  /** `memnox …` up to this command, for the messages. */
  readonly trail: readonly string[];
}

interface Flag {
  readonly name: string;
  readonly def: ArgDef;
  /** Every spelling that reaches it: `--dry-run`, `--dryRun`, `-f`. */
  readonly spellings: readonly string[];
}

const kebab = (s: string) => s.replace(/([a-z0-9])([A-Z])/g, "$1-$2").toLowerCase();
const camel = (s: string) => s.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());

function flagsOf(args: ArgsDef): Flag[] {
  const out: Flag[] = [];
  for (const [name, def] of Object.entries(args)) {
    if (def.type === "positional") continue;
    const aliases = "alias" in def && def.alias ? [def.alias].flat() : [];
    const long = [...new Set([name, kebab(name), camel(name), ...aliases.filter((a) => a.length > 1)])];
    const spellings = [
      ...long.map((l) => `--${l}`),
      ...aliases.filter((a) => a.length === 1).map((a) => `-${a}`),
      // citty reads `--no-x` as x = false; only a switch can be switched off.
      ...(def.type === "boolean" ? long.map((l) => `--no-${l}`) : []),
    ];
    out.push({ name, def, spellings });
  }
  return out;
}

/** The flag names a person would type, for suggestions: `--fail-on`, and `--no-x` where x is on by default. */
function suggestible(flags: readonly Flag[]): string[] {
  return flags.flatMap((f) => [
    `--${kebab(f.name)}`,
    ...(f.def.type === "boolean" && f.def.default === true ? [`--no-${kebab(f.name)}`] : []),
  ]);
}

/** Edit distance (insert, delete, substitute, swap two neighbours). */
function distance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) (d[0] as number[])[j] = j;
  for (let i = 1; i <= a.length; i++) {
    const row = d[i] as number[];
    const prev = d[i - 1] as number[];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let best = Math.min((prev[j] as number) + 1, (row[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        best = Math.min(best, ((d[i - 2] as number[])[j - 2] as number) + 1);
      }
      row[j] = best;
    }
  }
  return (d[a.length] as number[])[b.length] as number;
}

/** The candidate closest to `word`, when it is close enough to be what was meant. */
export function nearest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = Number.POSITIVE_INFINITY;
  for (const c of candidates) {
    const dist = distance(word, c);
    if (dist < bestD) {
      best = c;
      bestD = dist;
    }
  }
  const bare = word.replace(/^-+/, "");
  const prefix = candidates.find((c) => bare.length >= 3 && c.replace(/^-+/, "").startsWith(bare));
  if (bestD <= Math.max(2, Math.floor(bare.length / 3))) return best;
  return prefix;
}

function usageError(code: ErrorCode, message: string, trail: readonly string[], suggestion?: string): MemnoxError {
  const help = `memnox help ${trail.slice(1).join(" ")} lists its flags`;
  return new MemnoxError(code, message, suggestion ? `did you mean \`${suggestion}\`? ${help}` : help);
}

interface CheckOptions {
  /** Words after `--` belong to the command (`memnox run -- claude -p …`), not to memnox. */
  readonly rest?: boolean;
}

/** Refuses what the command would otherwise ignore: an unknown flag, a flag missing its value, a stray word. */
export async function checkWords(seg: Segment, opts: CheckOptions = {}): Promise<void> {
  const args: ArgsDef = (await value(seg.def.args)) ?? {};
  const flags = flagsOf(args);
  const bySpelling = new Map<string, Flag>();
  for (const f of flags) for (const s of f.spellings) bySpelling.set(s, f);
  const positionals = Object.values(args).filter((a) => a.type === "positional").length;
  const command = seg.trail.join(" ");
  let given = 0;
  const stray = (word: string) => {
    given += 1;
    if (given <= positionals) return;
    const takes =
      positionals === 0 ? "takes no argument" : `takes ${positionals} argument${positionals > 1 ? "s" : ""}`;
    const asFlag = nearest(`--${word}`, suggestible(flags));
    throw usageError("unexpected_argument", `${command} ${takes}; \`${word}\` was given`, seg.trail, asFlag);
  };
  for (let i = 0; i < seg.words.length; i++) {
    const word = seg.words[i] ?? "";
    if (word === "--") {
      if (opts.rest) return;
      for (const w of seg.words.slice(i + 1)) stray(w);
      return;
    }
    if (!word.startsWith("-") || word === "-" || /^-\d/.test(word)) {
      stray(word);
      continue;
    }
    const eq = word.indexOf("=");
    const spelled = eq > 0 ? word.slice(0, eq) : word;
    const inline = eq > 0 ? word.slice(eq + 1) : undefined;
    const flag = bySpelling.get(spelled);
    if (!flag) {
      throw usageError(
        "unknown_flag",
        `unknown flag \`${spelled}\` for ${command}`,
        seg.trail,
        nearest(spelled, suggestible(flags)),
      );
    }
    const type = flag.def.type;
    if (type === "boolean") {
      if (inline !== undefined && !/^(true|false)$/.test(inline)) {
        throw usageError("invalid_value", `\`${spelled}\` is a switch; it takes no value \`${inline}\``, seg.trail);
      }
      continue;
    }
    if (spelled.startsWith("--no-")) {
      throw usageError("unknown_flag", `\`${spelled}\` is not a switch for ${command}`, seg.trail);
    }
    let v = inline;
    if (v === undefined) {
      const next = seg.words[i + 1];
      if (next === undefined || next === "--" || bySpelling.has(next.split("=")[0] ?? next)) {
        throw usageError("missing_value", `\`${spelled}\` needs a value`, seg.trail);
      }
      v = next;
      i += 1;
    }
    const options = type === "enum" && "options" in flag.def ? (flag.def.options ?? []) : [];
    if (options.length > 0 && !options.includes(v)) {
      throw usageError(
        "invalid_value",
        `\`${spelled} ${v}\` is not one of ${options.join(", ")}`,
        seg.trail,
        nearest(v, options),
      );
    }
  }
}

/** The subcommands a word can name under `def`, for the error when it names none. */
export async function subcommandNames(def: CommandDef): Promise<string[]> {
  const subs = await value(def.subCommands);
  return subs ? Object.keys(subs) : [];
}

export function unknownSubcommand(word: string, trail: readonly string[], names: readonly string[]): MemnoxError {
  const near = nearest(word, names);
  const top = trail.length === 1;
  return new MemnoxError(
    "unknown_command",
    `unknown command \`${word}\`${top ? "" : ` for ${trail.join(" ")}`}`,
    `${near ? `did you mean \`${near}\`? ` : ""}${top ? "memnox help --all lists every command" : `one of ${names.join(", ")}`}`,
  );
}

/** `--json` among the words memnox reads (before a `--`). */
export function wantsJson(words: readonly string[]): boolean {
  for (const w of words) {
    if (w === "--") return false;
    if (w === "--json" || w === "--json=true") return true;
  }
  return false;
}

/** What an error is under `--json`: the contract scripts read, with a code that does not change with the wording. */
export function errorObject(e: unknown): {
  error: { code: ErrorCode; message: string; hint?: string; exitCode: number };
} {
  if (isMemnoxError(e)) {
    return {
      error: { code: e.code, message: e.message, ...(e.hint ? { hint: e.hint } : {}), exitCode: e.exitCode },
    };
  }
  return { error: { code: "internal", message: describeError(e), exitCode: 70 } };
}

/** Thrown by a write to a reader that went away (`memnox timeline --export json | head`): the command stops quietly. */
export class ReaderGone extends Error {
  constructor() {
    super("the reader of stdout went away");
    this.name = "ReaderGone";
  }
}

/**
 * The stdio every command writes through: escape codes stripped unless the stream is a terminal and NO_COLOR is
 * unset, and a closed pipe on stdout turned into one quiet stop instead of an EPIPE report.
 */
export function contractStdio(io: Stdio, env: Env, opts: { readonly wrap?: boolean } = {}): Stdio {
  // Human output only (wrap is off for JSON): verdicts and severities get their colour where colour is allowed.
  const outColour = colourAllowed(io.stdoutIsTTY, env);
  // A person's terminal gets lines cut at spaces; a pipe, a file and JSON get them as they are.
  const width = opts.wrap && io.stdoutIsTTY ? terminalWidth(io, env) : undefined;
  const errColour = colourAllowed(io.stderrIsTTY, env);
  let gone = false;
  return {
    stdinIsTTY: io.stdinIsTTY,
    stdoutIsTTY: io.stdoutIsTTY,
    stderrIsTTY: io.stderrIsTTY,
    out(text) {
      if (gone) throw new ReaderGone();
      try {
        const shown = outColour ? (opts.wrap ? colourise(text) : text) : withoutEscapes(text);
        io.out(width ? wrapText(shown, width) : shown);
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EPIPE") throw e;
        gone = true;
        throw new ReaderGone();
      }
    },
    err(text) {
      try {
        io.err(errColour ? text : withoutEscapes(text));
      } catch (e) {
        if ((e as NodeJS.ErrnoException).code !== "EPIPE") throw e;
      }
    },
    readAll: () => io.readAll(),
    columns: () => width ?? io.columns?.(),
  };
}

/** The terminal's width: what the terminal says, else COLUMNS. */
function terminalWidth(io: Stdio, env: Env): number | undefined {
  const n = io.columns?.() ?? Number(env.COLUMNS);
  return Number.isInteger(n) && n > 0 ? n : undefined;
}
