// Interpreters: inline code is never a read; what it visibly deletes, writes, runs or calls is resolved too.
import type { Arg, Call } from "../call.ts";
import { type Effect, type Lang, scanCode } from "./code-scan.ts";
import { emitFetched, isRemote } from "./fetched.ts";
import { emitRead, emitWrite, pathOf, paths } from "./fs-emit.ts";
import { emitHttp, hostOf } from "./network.ts";
import { bunManager } from "./packages.ts";
import { pythonModule } from "./toolchain.ts";

type Handler = (call: Call) => void;

interface Spec {
  readonly lang: Lang;
  /** Action prefix: `python.eval`, `node.run`. */
  readonly name: string;
  /** Options whose value is code. */
  readonly code: readonly string[];
  /** Other options that take a separate value. */
  readonly values: readonly string[];
  /** The option that runs a module instead of a file (`python -m`). */
  readonly module?: string;
  /** `-i` edits the named files in place (perl, ruby). */
  readonly inPlace?: boolean;
}

const SPECS: Readonly<Record<string, Spec>> = {
  python: { lang: "python", name: "python", code: ["-c"], values: ["-W", "-X", "-Q"], module: "-m" },
  node: {
    lang: "node",
    name: "node",
    code: ["-e", "--eval", "-p", "--print"],
    values: ["-r", "--require", "--import", "--loader", "--input-type", "-C", "--conditions"],
  },
  perl: { lang: "perl", name: "perl", code: ["-e", "-E"], values: ["-I", "-M", "-m", "-x"], inPlace: true },
  ruby: { lang: "ruby", name: "ruby", code: ["-e"], values: ["-I", "-r", "-C", "-E"], inPlace: true },
  php: { lang: "php", name: "php", code: ["-r"], values: ["-c", "-d", "-z"] },
  lua: { lang: "other", name: "lua", code: ["-e"], values: ["-l"] },
  rscript: { lang: "other", name: "rscript", code: ["-e"], values: [] },
  osascript: { lang: "other", name: "osascript", code: ["-e"], values: ["-l"] },
};

const BUN: Spec = {
  lang: "node",
  name: "bun",
  code: ["-e", "--eval", "-p", "--print"],
  values: ["-r", "--preload", "--cwd"],
};

const ALIASES: readonly (readonly [RegExp, string])[] = [
  [/^(python[0-9.]*|pypy[0-9.]*)$/, "python"],
  [/^(node|nodejs)$/, "node"],
  [/^perl[0-9.]*$/, "perl"],
  [/^ruby[0-9.]*$/, "ruby"],
  [/^php[0-9.]*$/, "php"],
  [/^(lua[0-9.]*|luajit)$/, "lua"],
  [/^rscript$/, "rscript"],
  [/^osascript$/, "osascript"],
  [/^bun$/, "bun"],
  [/^deno$/, "deno"],
  [/^(pwsh|powershell)(-preview)?$/, "powershell"],
];

interface Invocation {
  readonly code: Arg[];
  readonly module?: Arg;
  readonly operands: readonly Arg[];
  readonly inPlace: boolean;
  readonly version: boolean;
}

/** Options in clusters (`perl -pi -e`, `python -Sc`), code options collected, the rest left as operands. */
function invocation(spec: Spec, args: readonly Arg[]): Invocation {
  const code: Arg[] = [];
  let inPlace = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const t = a.text;
    if (t === "--") return { code, operands: args.slice(i + 1), inPlace, version: false };
    if (!t.startsWith("-") || t === "-" || !a.static) return { code, operands: args.slice(i), inPlace, version: false };
    if (["--version", "-V", "-v", "--help", "-h"].includes(t) && code.length === 0 && args.length === 1) {
      return { code, operands: [], inPlace, version: true };
    }
    if (spec.code.includes(t) || (t.startsWith("--") && spec.code.includes(t.split("=")[0] ?? ""))) {
      const inline = t.includes("=") ? { ...a, text: t.slice(t.indexOf("=") + 1) } : args[++i];
      if (inline) code.push(inline);
      if (code.length > 0 && spec.lang !== "perl" && spec.lang !== "ruby")
        return { code, operands: args.slice(i + 1), inPlace, version: false };
      continue;
    }
    if (spec.module && t.startsWith(spec.module)) {
      const mod = t.length > spec.module.length ? { ...a, text: t.slice(spec.module.length) } : args[i + 1];
      return mod
        ? { code, module: mod, operands: args.slice(i + 2), inPlace, version: false }
        : { code, operands: [], inPlace, version: false };
    }
    if (spec.values.includes(t)) {
      i++;
      continue;
    }
    if (!t.startsWith("--")) {
      // `-pe1`, `-Sc'code'`: a code flag in a cluster takes the rest of it, or else the next word.
      const cluster = t.slice(1);
      const at = codeFlagAt(spec, cluster);
      if (spec.inPlace && cluster.slice(0, at < 0 ? undefined : at).includes("i")) inPlace = true;
      if (at >= 0) {
        const attached = cluster.slice(at + 1);
        const inline = attached !== "" ? { ...a, text: attached } : args[++i];
        if (inline) code.push(inline);
        if (spec.lang !== "perl" && spec.lang !== "ruby")
          return { code, operands: args.slice(i + 1), inPlace, version: false };
      }
    }
  }
  return { code, operands: [], inPlace, version: false };
}

/** Where a code flag stands in an option cluster; a flag taking a value (`-MData::Dumper`) ends the cluster first. */
function codeFlagAt(spec: Spec, cluster: string): number {
  for (let j = 0; j < cluster.length; j++) {
    const flag = `-${cluster[j]}`;
    if (spec.code.includes(flag)) return j;
    if (spec.values.includes(flag) || flag === "-i") return -1;
  }
  return -1;
}

function interpreter(spec: Spec): Handler {
  return (call) => {
    const inv = invocation(spec, call.args.slice(1));
    if (inv.version) return;
    if (inv.code.length > 0) {
      evalCode(call, spec, inv.code);
      if (inv.inPlace) emitWrite(call, paths(call, inv.operands));
      else if (spec.lang === "perl" || spec.lang === "ruby") emitRead(call, paths(call, inv.operands));
      return;
    }
    if (inv.module) {
      if (spec.lang === "python" && pythonModule(call, inv.module.text, inv.operands)) return;
      return run(call, spec, inv.module.text);
    }
    const file = inv.operands[0];
    if (file && file.text !== "-") return run(call, spec, pathOf(call, file));
    fromStdin(call, spec);
  };
}

function fromStdin(call: Call, spec: Spec): void {
  const stdin = call.stdin;
  if (stdin?.kind === "data" && stdin.text !== undefined) {
    evalCode(call, spec, [{ text: stdin.text, static: true, glob: false }]);
    return;
  }
  if (stdin?.kind === "file") {
    run(call, spec, stdin.path);
    return;
  }
  evalCode(call, spec, []);
}

/**
 * A script file: what its text visibly runs, deletes, writes or reads is ruled as inline code's would be (the gate
 * hands the text in); what it computes at run time meets the interceptors. One this very line writes has no text yet.
 */
function run(call: Call, spec: Spec, target: string): void {
  call.emit({ name: `${spec.name}.run`, class: "unknown", targets: [target] });
  if (!target.startsWith("/")) return;
  if (call.engine.madeHere(target)) {
    call.emit({ name: "shell.script", class: "unknown", targets: [target] });
    return;
  }
  const text = call.engine.source(target, call);
  if (text !== undefined) applyEffects(call, scanCode(text, spec.lang).filter(seenInFile));
}

/** What a file's text says for certain; a project's own HTTP calls and computed paths are left to the run itself. */
function seenInFile(e: Effect): boolean {
  if (e.kind === "shell" || e.kind === "argv") return true;
  if (e.kind === "opaque" || e.kind === "http") return false;
  return e.target !== undefined;
}

/** `./tool.py` whose first line names an interpreter: run as that interpreter would run the file. */
export function interpretedFile(call: Call, shebang: string, path: string): boolean {
  const words = shebang.slice(2).trim().split(/\s+/);
  const head = words[0]?.split("/").pop() === "env" ? words.slice(1).find((w) => !w.startsWith("-")) : words[0];
  const name = head?.split("/").pop() ?? "";
  for (const [re, key] of ALIASES) {
    const spec = re.test(name) ? SPECS[key] : undefined;
    if (spec) {
      run(call, spec, path);
      return true;
    }
  }
  return false;
}

/**
 * Inline code, read: what it visibly reads, writes, deletes and calls is ruled on its own. The eval is a read or a
 * write by what it does; it is unknown when the code comes from elsewhere, builds code or names at run time, or starts
 * another program (a second command line inside the first, which could have been typed directly).
 */
function evalCode(call: Call, spec: Spec, code: readonly Arg[]): void {
  const effects: Effect[] = code.length === 0 ? [{ kind: "opaque", why: "code read from elsewhere" }] : [];
  for (const c of code) {
    if (!c.static) effects.push({ kind: "opaque", why: "code computed at run time" });
    else effects.push(...scanCode(c.text, spec.lang), ...shellShaped(c.text));
  }
  const runs = effects.some((e) => e.kind === "shell" || e.kind === "argv" || e.kind === "opaque");
  const writes = effects.some((e) => e.kind === "write" || e.kind === "delete");
  call.emit({ name: `${spec.name}.eval`, class: runs ? "unknown" : writes ? "write" : "read", targets: [] });
  applyEffects(
    call,
    effects.filter((e) => e.kind !== "opaque" || code.length > 0),
  );
}

/** `node -e "rm -rf /"`: code that reads as a command line (a word, then an option or a path) is read as one. */
function shellShaped(code: string): Effect[] {
  return /^\s*[a-z][\w.+-]*\s+(?:-{1,2}\w|\/|~|\.{1,2}\/)/.test(code) ? [{ kind: "shell", text: code.trim() }] : [];
}

function applyEffects(call: Call, effects: readonly Effect[]): void {
  for (const e of effects) {
    if (e.kind === "shell") call.engine.shell(e.text, call);
    else if (e.kind === "argv")
      call.engine.run(
        e.argv.map((text) => ({ text, static: true, glob: false })),
        call,
        undefined,
      );
    else if (e.kind === "opaque")
      call.emit({ name: "shell.dynamic", class: "unknown", targets: [`inline code with ${e.why}`] });
    else if (e.kind === "http") {
      const host = e.host ? hostOf(e.host) : undefined;
      emitHttp(call, host ? [host] : [], e.sends);
    } else {
      const targets =
        e.target === undefined ? [] : [pathOf(call, { text: e.target, static: !/[*?$]/.test(e.target), glob: false })];
      if (e.kind === "delete") call.emit({ name: "filesystem.delete", class: "destructive", targets });
      else if (e.kind === "write") call.emit({ name: "filesystem.write", class: "write", targets });
      else emitRead(call, targets);
    }
  }
}

const DENO: Spec = { lang: "node", name: "deno", code: [], values: [] };

/** `deno eval CODE` and `bun -e`/`bun x`: the runtimes whose subcommands decide. */
const deno: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  if (sub?.text === "eval") return evalCode(call, DENO, rest.filter((a) => !a.text.startsWith("-")).slice(0, 1));
  if (!sub || sub.text === "--version" || sub.text === "-V" || sub.text === "--help") return;
  call.emit({ name: "deno.run", class: "unknown", targets: rest.map((a) => a.text) });
  call.unknown(`deno ${sub.text}`);
  // `deno run https://…`, `npm:x`, `jsr:x`: a module fetched and run, not the project's own file.
  const module = ["run", "install", "x", "serve", "test"].includes(sub.text)
    ? rest.find((a) => !a.text.startsWith("-"))
    : undefined;
  if (module && (isRemote(module.text) || /^(npm|jsr):/.test(module.text))) emitFetched(call, module.text);
};

const bun: Handler = (call) => {
  const [sub, ...rest] = call.args.slice(1);
  if (sub?.text === "x") return call.engine.run([{ text: "npx", static: true, glob: false }, ...rest], call);
  const spec = BUN;
  const inv = invocation(spec, call.args.slice(1));
  if (inv.version) return;
  if (inv.code.length > 0) return evalCode(call, spec, inv.code);
  bunManager(call);
};

// PowerShell runs on Linux and macOS too; its parameters are case-insensitive, shortened, and may start with `/`.
const PWSH_CODE = /^[-/](c|com\w*|e|ec|en\w*)$/i;
const PWSH_INFO = /^(--?|\/)(v|version|h|help|\?)$/i;
const PWSH_FILE = /^[-/](f|file)$/i;

/** Inline or encoded PowerShell is code nothing here reads; a script file is run. */
const powershell: Handler = (call) => {
  const args = call.args.slice(1);
  if (args.length === 1 && PWSH_INFO.test(args[0]?.text ?? "")) return;
  if (args.some((a) => PWSH_CODE.test(a.text)))
    return call.emit({ name: "powershell.eval", class: "unknown", targets: [] });
  const named = args.findIndex((a) => PWSH_FILE.test(a.text));
  const file = named >= 0 ? args[named + 1] : args[0]?.text.startsWith("-") ? undefined : args[0];
  call.emit({ name: "powershell.run", class: "unknown", targets: file ? [pathOf(call, file)] : [] });
};

const HANDLERS: Readonly<Record<string, Handler>> = {
  ...Object.fromEntries(Object.entries(SPECS).map(([k, spec]) => [k, interpreter(spec)])),
  deno,
  bun,
  powershell,
};

/** The interpreter behind a program name (`python3.12`, `nodejs`), if it is one. */
export function interpreterFor(name: string): Handler | undefined {
  for (const [re, key] of ALIASES) if (re.test(name)) return HANDLERS[key];
  return undefined;
}
