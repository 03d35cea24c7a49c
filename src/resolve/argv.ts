// A small getopt: which words are options (and their values) and which are operands, per command spec.
import type { Arg } from "./call.ts";

export interface OptSpec {
  /** Short options without a value, e.g. `"rfiv"`. */
  readonly flags?: string;
  /** Short options that take a value, attached (`-n5`) or as the next word (`-n 5`). */
  readonly values?: string;
  /** Short options whose value can only be attached (`xargs -i{}`). */
  readonly optional?: string;
  readonly long?: readonly string[];
  readonly longValues?: readonly string[];
  /** Long options whose value can only be attached with `=`. */
  readonly longOptional?: readonly string[];
  /** Options end at the first operand (wrappers: everything after is the command). */
  readonly posix?: boolean;
  /** `-5` is an option (`nice -5`, `head -5`), not an operand. */
  readonly numeric?: boolean;
}

interface Opt {
  /** `-r` or `--force`. */
  readonly name: string;
  readonly value?: Arg;
}

export interface Parsed {
  readonly opts: readonly Opt[];
  readonly operands: readonly Arg[];
  /** Options the spec does not know. */
  readonly unknown: readonly string[];
  /** A `--` ended the options. */
  readonly dashdash: boolean;
}

/** Unicode dashes an agent (or an attacker) may type for `-`; read as `-` so `‐‐hard` is `--hard`. */
export function asciiDashes(text: string): string {
  return text.replace(/^[\u2010-\u2015\u2212\ufe58\ufe63\uff0d]+/, (m) => "-".repeat(m.length));
}

export function parseOpts(args: readonly Arg[], spec: OptSpec): Parsed {
  const opts: Opt[] = [];
  const operands: Arg[] = [];
  const unknown: string[] = [];
  let dashdash = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = asciiDashes(a.text);
    if (dashdash || t === "-" || !t.startsWith("-") || !a.static) {
      if (spec.posix && !dashdash) return finish(opts, [...operands, ...args.slice(i)], unknown, dashdash);
      operands.push(a);
      continue;
    }
    if (t === "--") {
      dashdash = true;
      if (spec.posix) return finish(opts, args.slice(i + 1), unknown, true);
      continue;
    }
    if (t.startsWith("--")) {
      i = readLong(args, i, t, spec, opts, unknown);
      continue;
    }
    if (spec.numeric && /^-\d+$/.test(t)) {
      opts.push({ name: t });
      continue;
    }
    i = readShort(args, i, t, spec, opts, unknown);
  }
  return finish(opts, operands, unknown, dashdash);
}

function finish(opts: Opt[], operands: readonly Arg[], unknown: string[], dashdash: boolean): Parsed {
  return { opts, operands, unknown, dashdash };
}

function readLong(args: readonly Arg[], i: number, t: string, spec: OptSpec, opts: Opt[], unknown: string[]): number {
  const eq = t.indexOf("=");
  const name = eq < 0 ? t : t.slice(0, eq);
  const attached = eq < 0 ? undefined : { ...(args[i] as Arg), text: t.slice(eq + 1) };
  const bare = name.slice(2);
  if (spec.longValues?.includes(bare)) {
    if (attached) opts.push({ name, value: attached });
    else {
      const next = args[i + 1];
      opts.push(next ? { name, value: next } : { name });
      return i + 1;
    }
    return i;
  }
  if (!spec.long?.includes(bare) && !spec.longOptional?.includes(bare)) unknown.push(name);
  opts.push(attached ? { name, value: attached } : { name });
  return i;
}

function readShort(args: readonly Arg[], i: number, t: string, spec: OptSpec, opts: Opt[], unknown: string[]): number {
  for (let j = 1; j < t.length; j++) {
    const ch = t[j] ?? "";
    const name = `-${ch}`;
    const rest = t.slice(j + 1);
    if (spec.values?.includes(ch)) {
      if (rest !== "") {
        opts.push({ name, value: { ...(args[i] as Arg), text: rest } });
        return i;
      }
      const next = args[i + 1];
      opts.push(next ? { name, value: next } : { name });
      return i + 1;
    }
    if (spec.optional?.includes(ch)) {
      opts.push(rest !== "" ? { name, value: { ...(args[i] as Arg), text: rest } } : { name });
      return i;
    }
    if (!spec.flags?.includes(ch)) unknown.push(name);
    opts.push({ name });
  }
  return i;
}

export function has(p: Parsed, ...names: string[]): boolean {
  return p.opts.some((o) => names.includes(o.name));
}

export function optValue(p: Parsed, ...names: string[]): Arg | undefined {
  let found: Arg | undefined;
  for (const o of p.opts) if (names.includes(o.name) && o.value) found = o.value;
  return found;
}

export function optValues(p: Parsed, ...names: string[]): Arg[] {
  const out: Arg[] = [];
  for (const o of p.opts) if (names.includes(o.name) && o.value) out.push(o.value);
  return out;
}

/** `--help` or `--version` anywhere before `--`: GNU tools print and exit without acting. */
export function asksForHelp(args: readonly Arg[]): boolean {
  for (const a of args) {
    if (a.text === "--") return false;
    if (a.text === "--help" || a.text === "--version") return true;
  }
  return false;
}
