// Transparent prefixes (env, sudo, nice, timeout, xargs…): strip them, resolve what they run.
import { type OptSpec, optValue, type Parsed, parseOpts } from "../argv.ts";
import { type Arg, type Call, forkScope, lit, type Scope } from "../call.ts";
import { absolutePath } from "../paths.ts";
import { parseScript } from "../shell/parse.ts";
import { literalText } from "../shell/words.ts";
import { type Assignment, assignmentEffects, assignmentOf } from "./assignments.ts";
import { runParallel, runXargs } from "./fanout.ts";

type Handler = (call: Call) => void;

/** An option the wrapper does not know: it may not run anything, or run it differently; ask. */
function ambiguous(call: Call, name: string, p: Parsed): void {
  call.emit({ name: `${name}.run`, class: "unknown", targets: p.unknown });
  call.unknown(`${name} ${p.unknown.join(" ")}`);
}

/** Resolve the wrapped command, with a changed directory when the wrapper sets one. */
function runRest(call: Call, rest: readonly Arg[], cwd?: Arg): void {
  if (rest.length === 0) return;
  if (!cwd) {
    call.engine.run(rest, call);
    return;
  }
  const scope: Scope = forkScope(call.scope, {
    cwd: cwd.static ? absolutePath(cwd.text, call.scope.cwd, call.scope.home) : cwd.text,
  });
  call.engine.run(rest, { ...call, scope });
}

/** Leading `NAME=value` words, checked for variables that load or run code; returns what follows them. */
function stripAssignments(call: Call, args: readonly Arg[]): readonly Arg[] {
  const pairs: Assignment[] = [];
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    const pair = a && !a.text.includes("+=") ? assignmentOf(a) : undefined;
    if (!pair) break;
    pairs.push(pair);
  }
  if (pairs.length > 0) assignmentEffects(call, pairs);
  return args.slice(i);
}

function simpleWrapper(name: string, spec: OptSpec, check?: (p: Parsed) => boolean): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (args[0]?.text === "--help" || args[0]?.text === "--version") return;
    const p = parseOpts(args, { ...spec, posix: true });
    if (p.unknown.length > 0 || (check && !check(p))) ambiguous(call, name, p);
    runRest(call, p.operands);
  };
}

const INT = /^[+-]?\d+$/;
const DURATION = /^\d+(\.\d+)?[smhd]?$/;
const BUFMODE = /^(L|\d+[KMGTPEZY]?B?)$/i;

const env: Handler = (call) => {
  const spec: OptSpec = {
    flags: "i0v",
    values: "uCSP",
    long: ["ignore-environment", "null", "debug"],
    longValues: ["unset", "chdir", "split-string"],
    longOptional: ["default-signal", "ignore-signal", "block-signal", "list-signal-handling"],
    posix: true,
  };
  let args: readonly Arg[] = call.args.slice(1);
  if (args[0]?.text === "--help" || args[0]?.text === "--version") return;
  const p = parseOpts(args, spec);
  if (p.unknown.length > 0) ambiguous(call, "env", p);
  args = p.operands[0]?.text === "-" ? p.operands.slice(1) : p.operands;
  const split = optValue(p, "-S", "--split-string");
  if (split) args = [...splitString(split), ...args];
  runRest(call, stripAssignments(call, args), optValue(p, "-C", "--chdir"));
};

/** `env -S 'A=1 cmd args'`: the string is split into words the way env does, quotes honoured. */
function splitString(a: Arg): Arg[] {
  if (!a.static) return [a];
  try {
    const script = parseScript(a.text);
    const cmd = script[0]?.pipelines[0]?.commands[0];
    if (cmd?.type !== "simple") return [];
    return [...cmd.assigns, ...cmd.words].map((w) => {
      const t = literalText(w);
      return t === undefined ? { text: w.raw, static: false, glob: false } : lit(t);
    });
  } catch {
    return a.text.split(/\s+/).filter(Boolean).map(lit);
  }
}

/** Running as somebody else (root by default) is its own action, whatever runs under it. */
function escalate(call: Call, user: string | undefined): void {
  call.emit({ name: "privilege.escalate", class: "unknown", targets: [user ?? "root"] });
}

const pkexec: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "",
    values: "",
    longValues: ["user"],
    long: ["disable-internal-agent", "keep-cwd"],
    posix: true,
  });
  escalate(call, optValue(p, "--user")?.text);
  if (p.operands.length === 0) {
    call.emit({ name: "shell.interactive", class: "unknown", targets: ["root"] });
    return call.unknown("pkexec shell");
  }
  runRest(call, p.operands);
};

const sudo: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "AbEeHiKklnPSsVv",
    values: "CDghpRrTtUu",
    long: ["askpass", "background", "edit", "help", "login", "remove-timestamp", "reset-timestamp", "list"],
    longValues: ["user", "group", "host", "prompt", "chdir", "close-from", "role", "type", "other-user", "chroot"],
    longOptional: ["preserve-env"],
    posix: true,
  });
  if (p.unknown.length > 0) ambiguous(call, "sudo", p);
  escalate(call, optValue(p, "-u", "--user")?.text);
  const rest = stripAssignments(call, p.operands);
  const edit = p.opts.some((o) => o.name === "-e" || o.name === "--edit");
  if (edit) {
    const targets = rest.map((a) => (a.static ? absolutePath(a.text, call.scope.cwd, call.scope.home) : a.text));
    return call.emit({ name: "filesystem.write", class: "write", targets });
  }
  const shellFlag = p.opts.some((o) => ["-i", "-s", "--login", "--shell"].includes(o.name));
  if (rest.length === 0 && shellFlag) {
    call.emit({ name: "shell.interactive", class: "unknown", targets: ["root"] });
    call.unknown("sudo shell");
    return;
  }
  runRest(call, rest, optValue(p, "-D", "--chdir"));
};

const doas: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "Lns", values: "Cu", posix: true });
  if (p.unknown.length > 0) ambiguous(call, "doas", p);
  escalate(call, optValue(p, "-u")?.text);
  if (p.operands.length === 0 && p.opts.some((o) => o.name === "-s")) {
    call.emit({ name: "shell.interactive", class: "unknown", targets: ["root"] });
    return call.unknown("doas shell");
  }
  runRest(call, p.operands);
};

const su: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "lmpP",
    values: "cgGsw",
    long: ["login", "preserve-environment", "pty"],
    longValues: ["command", "group", "shell", "session-command", "supp-group", "whitelist-environment"],
    posix: true,
  });
  escalate(call, p.operands.find((a) => a.text !== "-")?.text);
  const cmd = optValue(p, "-c", "--command", "--session-command");
  if (cmd?.static) return call.engine.shell(cmd.text, call);
  call.emit({ name: "shell.interactive", class: "unknown", targets: p.operands.map((a) => a.text) });
  call.unknown("su");
};

const time: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "pvaq",
    values: "fo",
    long: ["portability", "verbose", "append", "quiet"],
    longValues: ["format", "output"],
    posix: true,
  });
  const out = optValue(p, "-o", "--output");
  if (out)
    call.emit({
      name: "filesystem.write",
      class: "write",
      targets: [absolutePath(out.text, call.scope.cwd, call.scope.home)],
    });
  if (p.unknown.length > 0) ambiguous(call, "time", p);
  runRest(call, p.operands);
};

const command: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "pvV", posix: true });
  if (p.opts.some((o) => o.name === "-v" || o.name === "-V")) {
    if (p.unknown.length > 0) ambiguous(call, "command", p);
    return;
  }
  if (p.unknown.length > 0) ambiguous(call, "command", p);
  runRest(call, p.operands);
};

const exec: Handler = simpleWrapper("exec", { flags: "cl", values: "a" });

const nice: Handler = simpleWrapper("nice", { values: "n", longValues: ["adjustment"], numeric: true }, (p) =>
  p.opts.every((o) => !o.value || INT.test(o.value.text)),
);

const timeout: Handler = (call) => {
  const args = call.args.slice(1);
  if (args[0]?.text === "--help" || args[0]?.text === "--version") return;
  const p = parseOpts(args, {
    flags: "v",
    values: "ks",
    long: ["foreground", "preserve-status", "verbose"],
    longValues: ["kill-after", "signal"],
    posix: true,
  });
  const [duration, ...rest] = p.operands;
  if (p.unknown.length > 0 || !duration || !DURATION.test(duration.text)) {
    ambiguous(call, "timeout", { ...p, unknown: [...p.unknown, duration?.text ?? "no duration"] });
    return runRest(call, duration && !DURATION.test(duration.text) ? p.operands : rest);
  }
  runRest(call, rest);
};

const stdbuf: Handler = simpleWrapper("stdbuf", { values: "ioe", longValues: ["input", "output", "error"] }, (p) =>
  p.opts.every((o) => o.value !== undefined && BUFMODE.test(o.value.text)),
);

const ionice: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "t",
    values: "cnpPu",
    long: ["ignore"],
    longValues: ["class", "classdata", "pid", "pgid", "uid"],
    posix: true,
  });
  if (p.unknown.length > 0) ambiguous(call, "ionice", p);
  if (p.opts.some((o) => ["-p", "-P", "-u", "--pid", "--pgid", "--uid"].includes(o.name))) return;
  runRest(call, p.operands);
};

const setsid: Handler = simpleWrapper("setsid", { flags: "cfw", long: ["ctty", "fork", "wait"] });
const nohup: Handler = simpleWrapper("nohup", {});
const builtin: Handler = (call) => runRest(call, call.args.slice(1));

const busybox: Handler = (call) => {
  const rest = call.args.slice(1);
  if (rest.length === 0 || rest[0]?.text.startsWith("-")) return;
  call.engine.run(rest, call);
};

const watch: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "bdegtcpxrwC",
    values: "nq",
    long: ["beep", "errexit", "chgexit", "no-title", "color", "exec", "precise", "no-wrap"],
    longValues: ["interval", "equexit"],
    longOptional: ["differences"],
    posix: true,
  });
  if (p.operands.length === 0) return;
  if (p.opts.some((o) => o.name === "-x" || o.name === "--exec")) return runRest(call, p.operands);
  const text = p.operands.map((a) => a.text).join(" ");
  if (p.operands.every((a) => a.static)) call.engine.shell(text, call);
  else call.engine.run(p.operands, call);
};

/** `flock [opts] FILE cmd…` or `flock [opts] FILE -c 'cmd'`; `flock FD` alone only locks. */
const flock: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "sxunoFhV",
    values: "wEc",
    long: ["shared", "exclusive", "unlock", "nonblock", "close", "no-fork", "verbose"],
    longValues: ["timeout", "wait", "conflict-exit-code", "command"],
    posix: true,
  });
  const [, ...rest] = p.operands;
  const script = optValue(p, "-c", "--command") ?? (rest[0]?.text === "-c" ? rest[1] : undefined);
  if (script) return script.static ? call.engine.shell(script.text, call) : call.engine.run([script], call);
  runRest(call, rest);
};

export const WRAPPER_HANDLERS: Readonly<Record<string, Handler>> = {
  env,
  sudo,
  pkexec,
  doas,
  su,
  time,
  command,
  exec,
  nice,
  timeout,
  stdbuf,
  ionice,
  setsid,
  nohup,
  builtin,
  busybox,
  watch,
  flock,
  xargs: runXargs,
  parallel: runParallel,
};
