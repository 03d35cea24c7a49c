// echo and printf: they touch nothing, but what they print is known, and a shell or `at` reading it runs it.

import { holdsSecretValue } from "../../core/secrets.ts";
import type { Arg, Call } from "../call.ts";
import { DATA, evaluatedIn, nameRef, seenOf } from "../evaluate.ts";
import { setVar } from "../vars.ts";

type Handler = (call: Call) => void;

const ESCAPES: Readonly<Record<string, string>> = { n: "\n", t: "\t", r: "\r", "\\": "\\", a: "", b: "", f: "", v: "" };

/** Backslash escapes as echo -e and printf's format read them; undefined for one that is not plain (`\0NNN`, `\x`). */
function unescaped(text: string): string | undefined {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] ?? "";
    if (ch !== "\\") {
      out += ch;
      continue;
    }
    const next = text[++i];
    if (next === undefined) return out + ch;
    const known = ESCAPES[next];
    if (known === undefined) return next === "'" || next === '"' ? out + next : undefined;
    out += known;
  }
  return out;
}

/** `echo $GITHUB_TOKEN`: a credential's variable printed is the same secret as `printenv GITHUB_TOKEN`. */
function secretVariables(call: Call, args: readonly Arg[]): void {
  const named = args.flatMap((a) =>
    a.static ? [] : [...a.text.matchAll(/\$\{?([A-Za-z_][A-Za-z0-9_]*)/g)].map((m) => m[1] ?? ""),
  );
  const secret = named.filter(holdsSecretValue);
  if (secret.length > 0) call.emit({ name: "environment.secret-print", class: "read", targets: secret });
}

const echo: Handler = (call) => {
  const args = call.args.slice(1);
  secretVariables(call, args);
  let i = 0;
  let newline = true;
  let escapes = false;
  for (; i < args.length && /^-[neE]+$/.test(args[i]?.text ?? ""); i++) {
    const t = args[i]?.text ?? "";
    if (t.includes("n")) newline = false;
    if (t.includes("e")) escapes = true;
    if (t.includes("E")) escapes = false;
  }
  const words = args.slice(i);
  if (!words.every((a) => a.static)) return;
  const joined = words.map((a) => a.text).join(" ");
  const text = escapes ? unescaped(joined) : joined;
  if (text !== undefined) call.prints?.({ text: newline ? `${text}\n` : text });
};

/** `printf FORMAT` with no conversions but `%%`, or `printf '%s\n' words…`; `-v NAME` sets NAME instead. */
const printf: Handler = (call) => {
  secretVariables(call, call.args.slice(1));
  const given = call.args.slice(1);
  const v = given[0]?.text === "-v" ? given[1] : undefined;
  if (v) return printfInto(call, v);
  const [format, ...rest] = given;
  if (!format?.static || format.text.startsWith("-") || !rest.every((a: Arg) => a.static)) return;
  const f = format.text;
  if (rest.length === 0 && !/%[^%]/.test(f.replace(/%%/g, ""))) {
    const text = unescaped(f.replace(/%%/g, "%"));
    if (text !== undefined) call.prints?.({ text });
    return;
  }
  const each = /^%s(\\n)?$/.exec(f);
  if (each) call.prints?.({ text: rest.map((a) => a.text + (each[1] ? "\n" : "")).join("") });
};

/** `printf -v NAME …`: NAME's subscript is evaluated (`printf -v 'a[$(cmd)]' x` runs cmd); its value is unknown. */
function printfInto(call: Call, name: Arg): void {
  evaluatedIn(call, nameRef(seenOf(name), call.scope), call.args.map((a) => a.text).join(" "));
  if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(name.text))
    setVar(call.scope, name.text, { text: `$${name.text}`, static: false, glob: false, seen: DATA });
}

export const PRINT_HANDLERS: Readonly<Record<string, Handler>> = { echo, printf };
