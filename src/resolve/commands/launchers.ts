// Programs that start another command in a changed setting (a namespace, a root, a scheduler, a tracer, a tool's
// environment): each one's own options read, then what it starts resolved; one that cannot be read asks.
import { has, type OptSpec, optValue, optValues, type Parsed, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { renderArg } from "../shell/render.ts";
import { emitWrite, pathOf } from "./fs-emit.ts";

type Handler = (call: Call) => void;

/** A launcher whose command line cannot be told apart from its options: nothing it starts is known, so it asks. */
export function unreadable(call: Call, what: string): void {
  call.emit({ name: "shell.dynamic", class: "unknown", targets: [what] });
  call.unknown(`a command started by ${what} that cannot be read`);
}

/** No command given: the launcher starts an interactive shell. */
function shellStarted(call: Call, name: string): void {
  call.emit({ name: "shell.interactive", class: "unknown", targets: [name] });
  call.unknown(`${name} starting a shell`);
}

/** A command line handed over as one string (`sg grp 'cmd'`, `nix-shell --run 'cmd'`): resolved as a line. */
export function runLine(call: Call, line: Arg | undefined, name: string): void {
  if (!line) return;
  if (line.static) call.engine.shell(line.text, call);
  else unreadable(call, name);
}

/** The words after the options as a command; several words given to a program that runs them by shell, joined. */
function runWords(call: Call, words: readonly Arg[]): void {
  if (words.length > 0) call.engine.run(words, call);
}

interface Prefix {
  readonly opts: OptSpec;
  /** Operands before the command: chroot's NEWROOT, chrt's priority, taskset's mask, faketime's time. */
  readonly skip?: number;
  /** Options whose value is a command line (`runuser -c`). */
  readonly lineOpts?: readonly string[];
  /** Options that mean no command runs (`-p PID`: it acts on a running process). */
  readonly noCommand?: readonly string[];
  /** With no command it starts a shell. */
  readonly shellIfNone?: boolean;
  /** An action of its own beside what it starts (`system.schedule` for a transient unit). */
  readonly also?: (call: Call, p: Parsed) => void;
}

function prefix(name: string, spec: Prefix): Handler {
  return (call) => {
    const args = call.args.slice(1);
    if (args.length === 1 && (args[0]?.text === "--help" || args[0]?.text === "--version")) return;
    const p = parseOpts(args, { ...spec.opts, posix: true });
    spec.also?.(call, p);
    if (p.unknown.length > 0) unreadable(call, `${name} ${p.unknown.join(" ")}`);
    const line = spec.lineOpts ? optValue(p, ...spec.lineOpts) : undefined;
    if (line) return runLine(call, line, name);
    if (spec.noCommand && has(p, ...spec.noCommand)) return;
    const rest = p.operands.slice(spec.skip ?? 0);
    if (rest.length === 0) {
      if (spec.shellIfNone && p.operands.length >= (spec.skip ?? 0)) shellStarted(call, name);
      return;
    }
    runWords(call, rest);
  };
}

/**
 * Where the command starts after a launcher's options: the first word that is not one (`--` ends them too),
 * `values(option)` saying how many words an option takes after it.
 */
export function afterOptions(args: readonly Arg[], values: (option: string) => number, prefix = "-"): readonly Arg[] {
  let i = 0;
  for (; i < args.length; i++) {
    const t = args[i]?.text ?? "";
    if (t === "--") return args.slice(i + 1);
    if (!t.startsWith(prefix) || !args[i]?.static) break;
    i += values(t);
  }
  return args.slice(i);
}

/** Options of the form `--name` or `--name=value` only (firejail, valgrind, prlimit): skipped up to the command. */
function attachedOnly(shortValues = ""): Handler {
  return (call) => {
    const takes = (t: string) => (t.length === 2 && shortValues.includes(t[1] ?? "") ? 1 : 0);
    runWords(call, afterOptions(call.args.slice(1), takes));
  };
}

const schedule = (call: Call, what: string) => call.emit({ name: "system.schedule", class: "write", targets: [what] });

/** bubblewrap: each option takes a fixed number of values. */
const BWRAP_ARITY: Readonly<Record<string, number>> = Object.fromEntries([
  ...[
    "--bind",
    "--bind-try",
    "--ro-bind",
    "--ro-bind-try",
    "--dev-bind",
    "--dev-bind-try",
    "--symlink",
    "--setenv",
    "--file",
    "--bind-data",
    "--ro-bind-data",
    "--chmod",
  ].map((o) => [o, 2]),
  ...[
    "--args",
    "--unsetenv",
    "--lock-file",
    "--sync-fd",
    "--chdir",
    "--tmpfs",
    "--proc",
    "--dev",
    "--mqueue",
    "--dir",
    "--remount-ro",
    "--uid",
    "--gid",
    "--hostname",
    "--seccomp",
    "--add-seccomp-fd",
    "--cap-add",
    "--cap-drop",
    "--perms",
    "--size",
    "--exec-label",
    "--file-label",
    "--block-fd",
    "--userns-block-fd",
    "--info-fd",
    "--json-status-fd",
    "--userns",
    "--userns2",
    "--pidns",
    "--argv0",
  ].map((o) => [o, 1]),
]);

const bwrap: Handler = (call) =>
  runWords(
    call,
    afterOptions(call.args.slice(1), (t) => BWRAP_ARITY[t] ?? 0, "--"),
  );

/** `X run [options] cmd args` (poetry, pipenv, uv, pdm, hatch, rye, pixi, conda, bundle exec, rustup run…). */
function toolRun(name: string, verbs: readonly string[], values: readonly string[], skip = 0): Handler {
  return (call) => {
    const [verb, ...rest] = call.args.slice(1);
    if (!verb || !verbs.includes(verb.text)) {
      call.emit({ name: `${name}.run`, class: "unknown", targets: call.args.slice(1).map((a) => a.text) });
      return call.unknown(`${name} ${verb?.text ?? ""}`.trim());
    }
    runWords(call, afterOptions(rest, (t) => (values.includes(t) ? 1 : 0)).slice(skip));
  };
}

/** Programs whose operands (and some options) are each a command line: hyperfine, concurrently, watchexec. */
function linesRunner(name: string, spec: OptSpec, lineOpts: readonly string[], joined: boolean): Handler {
  return (call) => {
    const p = parseOpts(call.args.slice(1), spec);
    for (const line of optValues(p, ...lineOpts)) runLine(call, line, name);
    const operands = p.operands.filter((a) => !/^npm:/.test(a.text));
    if (joined && operands.length > 0) {
      if (operands.every((a) => a.static)) call.engine.shell(operands.map((a) => a.text).join(" "), call);
      else unreadable(call, name);
      return;
    }
    for (const line of operands) runLine(call, line, name);
  };
}

/** Terminal emulators: `-e cmd args` (xterm, konsole, alacritty) or everything after `--`. */
const terminal: Handler = (call) => {
  const args = call.args.slice(1);
  const dash = args.findIndex((a) => a.text === "--" || a.text === "-e" || a.text === "-x" || a.text === "--command");
  if (dash < 0) return;
  const rest = args.slice(dash + 1);
  if (rest.length === 1 && rest[0]?.static && /\s/.test(rest[0].text)) return runLine(call, rest[0], "a terminal");
  runWords(call, rest);
};

/** gdb: `-args prog args` runs the program; `-ex 'shell cmd'` runs a shell command; a command file is unread. */
const gdb: Handler = (call) => {
  const args = call.args.slice(1);
  for (let i = 0; i < args.length; i++) {
    const t = (args[i]?.text ?? "").replace(/^--/, "-");
    if (t === "-args") return runWords(call, args.slice(i + 1));
    const eq = t.indexOf("=");
    const name = eq > 0 ? t.slice(0, eq) : t;
    if (["-ex", "-iex", "-eval-command", "-init-eval-command"].includes(name)) {
      const v = eq > 0 ? { ...(args[i] as Arg), text: t.slice(eq + 1) } : args[++i];
      const m = v ? /^\s*(?:shell\b|!)\s*(.*)$/s.exec(v.text) : null;
      if (v && m) runLine(call, { ...v, text: m[1] ?? "" }, "gdb");
      else if (v && /^\s*(python|py|pi|source|guile|gu|pipe|\|)/.test(v.text)) unreadable(call, "gdb -ex");
    } else if (["-x", "-command", "-init-command", "-ix"].includes(name)) {
      if (eq < 0) i++;
      unreadable(call, "gdb -x");
    } else if (
      ["-p", "-pid", "-c", "-core", "-cd", "-d", "-directory", "-s", "-symbols", "-e", "-exec"].includes(name)
    ) {
      if (eq < 0) i++;
    }
  }
};

/** strace and ltrace: `-o file` is written; `-p PID` traces a process already running. */
function tracer(name: string): Handler {
  return prefix(name, {
    opts: { values: "eoOpsuEaAbIPSX", flags: "cCdDfFhikqrtTvVwxyzZn", longValues: ["output", "trace", "signal"] },
    noCommand: ["-p"],
    also: (call, p) => {
      const out = optValue(p, "-o", "--output");
      if (out) emitWrite(call, [pathOf(call, out)]);
    },
  });
}

const SYSTEMD_RUN: OptSpec = {
  flags: "tPqGdrS",
  values: "upEMH",
  long: [
    "user",
    "system",
    "scope",
    "pty",
    "pipe",
    "quiet",
    "wait",
    "collect",
    "same-dir",
    "no-block",
    "remain-after-exit",
    "send-sighup",
    "no-ask-password",
    "shell",
  ],
  longValues: [
    "unit",
    "property",
    "description",
    "slice",
    "setenv",
    "working-directory",
    "on-active",
    "on-boot",
    "on-startup",
    "on-unit-active",
    "on-unit-inactive",
    "on-calendar",
    "on-timezone-change",
    "on-clock-change",
    "uid",
    "gid",
    "nice",
    "machine",
    "host",
    "timer-property",
    "path-property",
    "socket-property",
    "service-type",
    "expand-environment",
  ],
};

export const PYTHON_RUN_VALUES = [
  "--with",
  "--python",
  "-p",
  "--project",
  "--directory",
  "--package",
  "--env-file",
  "--extra",
  "--group",
  "--index",
  "--index-url",
  "--from",
  "-e",
  "--environment",
  "-n",
  "--name",
  "--prefix",
  "--manifest-path",
  "--with-editable",
  "--with-requirements",
];

/** `NAME = value`, `NAME := value`, `NAME ?= value` at the top of a makefile (not in a recipe). */
const MAKE_ASSIGN = /^([A-Za-z_][A-Za-z0-9_.-]*)\s*(?:::?=|\?=|=)\s*(.*)$/;
const MAKE_REF = /\$(\([^)]*\)|\{[^}]*\}|[@<^?*%+|A-Za-z])/g;

/** The makefile's own plain variables, each with what it holds once the others it names are put in. */
function makeVariables(makefile: string): Map<string, string | undefined> {
  const raw = new Map<string, string>();
  for (const line of makefile.split("\n")) {
    const m = line.startsWith("\t") ? null : MAKE_ASSIGN.exec(line.trim());
    if (m?.[1]) raw.set(m[1], (m[2] ?? "").trim());
  }
  const out = new Map<string, string | undefined>();
  const value = (name: string, depth: number): string | undefined => {
    if (out.has(name)) return out.get(name);
    const v = raw.get(name);
    if (v === undefined || depth > 8) return undefined;
    let known = true;
    const text = v.replace(MAKE_REF, (ref) => {
      const inner = ref.slice(2, -1);
      const got = /^[A-Za-z_][A-Za-z0-9_.-]*$/.test(inner) ? value(inner, depth + 1) : undefined;
      if (got === undefined) known = false;
      return got ?? "";
    });
    out.set(name, known ? text : undefined);
    return out.get(name);
  };
  for (const name of raw.keys()) value(name, 0);
  return out;
}

/**
 * Recipe lines of a makefile: tab-indented lines and `target: deps ; recipe`; a `$(VAR)` the makefile sets plainly
 * is put in, any other (`$(CC)`, `$@`, `$(shell …)`) is left unknown.
 */
function recipes(makefile: string): string[] {
  const vars = makeVariables(makefile);
  const out: string[] = [];
  for (const line of makefile.split("\n")) {
    const rule = /^[^\t#=]*?[^:=]:{1,2}(?!=)[^;=]*;(.*)$/.exec(line);
    const body = line.startsWith("\t") ? line.slice(1) : rule ? (rule[1] ?? "") : undefined;
    if (body === undefined) continue;
    const cmd = body
      .replace(/^[\s@+-]+/, "")
      .split("$$")
      .map((part) =>
        part.replace(MAKE_REF, (ref) => {
          const known = ref.length > 3 ? vars.get(ref.slice(2, -1)) : undefined;
          return known !== undefined && !known.includes("$") ? known : '"$MAKE_VAR"';
        }),
      )
      .join("$");
    if (cmd.trim() !== "") out.push(cmd);
  }
  return out;
}

const MAKEFILES = ["GNUmakefile", "makefile", "Makefile"];

/** make: the project's Makefile is its own (its recipes meet the interceptors); one from stdin or --eval is read. */
const make: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "bBdeiknpqrRsStvwL",
    values: "CfIjlOoWE",
    long: ["always-make", "ignore-errors", "keep-going", "dry-run", "silent", "quiet", "touch", "print-directory"],
    longValues: [
      "directory",
      "file",
      "makefile",
      "include-dir",
      "jobs",
      "load-average",
      "output-sync",
      "eval",
      "old-file",
      "what-if",
      "new-file",
      "assume-old",
      "assume-new",
    ],
  });
  call.emit({ name: "make.run", class: "unknown", targets: call.args.slice(1).map((a) => a.text) });
  call.unknown("make");
  const fromStdin = optValues(p, "-f", "--file", "--makefile").some((f) => f.text === "-" || f.text === "/dev/stdin");
  const texts: (string | undefined)[] = optValues(p, "-E", "--eval").map((e) => (e.static ? e.text : undefined));
  if (fromStdin) texts.push(call.stdin?.kind === "data" ? call.stdin.text : undefined);
  for (const text of texts) {
    if (text === undefined) {
      unreadable(call, "make");
      continue;
    }
    for (const line of recipes(text)) call.engine.shell(line, call);
  }
  // The project's makefile (the one written a step earlier included): its recipes are the project's declared lines.
  const dir = optValue(p, "-C", "--directory");
  const cwd = dir ? pathOf(call, dir) : call.scope.cwd;
  const named = optValues(p, "-f", "--file", "--makefile").filter((f) => !fromStdin || f.text !== "-");
  const files = named.length > 0 ? named.map((f) => pathOf({ ...call, scope: { ...call.scope, cwd } }, f)) : [];
  if (!fromStdin && texts.length === 0) {
    const candidates = files.length > 0 ? files : MAKEFILES.map((f) => `${cwd}/${f}`);
    for (const path of candidates) {
      if (call.engine.madeHere(path)) {
        call.emit({ name: "shell.script", class: "unknown", targets: [path] });
        break;
      }
      const text = call.engine.source(path, call);
      if (text === undefined) continue;
      for (const line of recipes(text)) call.engine.lines(line, call, cwd);
      break;
    }
  }
  if (p.operands.some((a) => /^(SHELL|MAKESHELL|\.SHELLFLAGS)=/.test(a.text)))
    call.emit({ name: "environment.inject", class: "unknown", targets: ["SHELL"] });
};

export const LAUNCHER_HANDLERS: Readonly<Record<string, Handler>> = {
  unshare: prefix("unshare", {
    opts: {
      flags: "muinpUCTrfc",
      values: "RwSG",
      long: ["fork", "map-root-user", "map-current-user", "keep-caps", "monotonic", "boottime"],
      longOptional: ["mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "kill-child", "mount-proc"],
      longValues: ["propagation", "setgroups", "root", "wd", "map-user", "map-group", "map-users", "map-groups"],
    },
    shellIfNone: true,
  }),
  chroot: prefix("chroot", {
    opts: { long: ["skip-chdir"], longValues: ["userspec", "groups"] },
    skip: 1,
    shellIfNone: true,
  }),
  nsenter: prefix("nsenter", {
    opts: {
      flags: "aFZ",
      values: "tSG",
      optional: "muinpUCTrw",
      long: ["all", "preserve-credentials", "no-fork", "follow-context"],
      longValues: ["target", "setuid", "setgid"],
      longOptional: ["mount", "uts", "ipc", "net", "pid", "user", "cgroup", "time", "root", "wd"],
    },
    shellIfNone: true,
  }),
  runuser: (call) => {
    const p = parseOpts(call.args.slice(1), {
      flags: "lmpPf",
      values: "cgGsuw",
      long: ["login", "preserve-environment", "pty", "fast"],
      longValues: ["command", "group", "supp-group", "shell", "user", "session-command", "whitelist-environment"],
      posix: true,
    });
    call.emit({ name: "privilege.escalate", class: "unknown", targets: [optValue(p, "-u", "--user")?.text ?? "root"] });
    const line = optValue(p, "-c", "--command", "--session-command");
    if (line) return runLine(call, line, "runuser");
    if (optValue(p, "-u", "--user")) return runWords(call, p.operands);
    shellStarted(call, "runuser");
  },
  sg: (call) => {
    const words = call.args.slice(1).filter((a) => a.text !== "-");
    const [, maybeC, ...rest] = words;
    const line = maybeC?.text === "-c" ? rest : words.slice(1);
    if (line.length === 0) return shellStarted(call, "sg");
    if (line.length === 1) return runLine(call, line[0], "sg");
    runWords(call, line);
  },
  setpriv: prefix("setpriv", {
    opts: {
      flags: "d",
      long: ["keep-groups", "clear-groups", "init-groups", "nnp", "no-new-privs", "reset-env", "dump"],
      longValues: [
        "reuid",
        "regid",
        "ruid",
        "rgid",
        "euid",
        "egid",
        "groups",
        "inh-caps",
        "ambient-caps",
        "bounding-set",
        "securebits",
        "pdeathsig",
        "selinux-label",
        "apparmor-profile",
        "landlock-access",
        "landlock-rule",
        "seccomp-filter",
      ],
    },
  }),
  firejail: attachedOnly(),
  valgrind: attachedOnly(),
  prlimit: attachedOnly("po"),
  bwrap,
  proot: prefix("proot", { opts: { flags: "0", values: "rbmwqkRv" } }),
  fakeroot: prefix("fakeroot", {
    opts: { flags: "u", values: "lsib", long: ["unknown-is-real"], longValues: ["lib", "faked"] },
  }),
  faketime: prefix("faketime", { opts: { flags: "m", values: "f", long: ["exclude-monotonic"] }, skip: 1 }),
  chrt: prefix("chrt", { opts: { flags: "bdfiorRamv", values: "TPD" }, skip: 1, noCommand: ["-p", "-m"] }),
  taskset: prefix("taskset", { opts: { flags: "ac", long: ["all-tasks", "cpu-list"] }, skip: 1, noCommand: ["-p"] }),
  numactl: prefix("numactl", {
    opts: {
      flags: "lsHa",
      values: "imNCPpw",
      long: ["localalloc", "show", "hardware", "all"],
      longValues: [
        "interleave",
        "membind",
        "cpunodebind",
        "physcpubind",
        "preferred",
        "preferred-many",
        "weighted-interleave",
      ],
    },
  }),
  cgexec: prefix("cgexec", { opts: { values: "g", long: ["sticky"] } }),
  strace: tracer("strace"),
  ltrace: tracer("ltrace"),
  gdb,
  perf: (call) => {
    const [sub, ...rest] = call.args.slice(1);
    if (!sub || !["record", "stat", "trace", "top", "mem", "c2c", "lock", "sched"].includes(sub.text)) return;
    const cut = rest.findIndex((a) => a.text === "--");
    if (cut >= 0) return runWords(call, rest.slice(cut + 1));
    const p = parseOpts(rest, { values: "eptoCcFIjmuGxMr", flags: "aqvnsRdTPgBNiWkz", posix: true });
    if (has(p, "-p", "-t") && p.operands.length === 0) return;
    runWords(call, p.operands);
  },
  "dbus-run-session": prefix("dbus-run-session", { opts: { longValues: ["config-file", "dbus-daemon"] } }),
  "xvfb-run": prefix("xvfb-run", {
    opts: {
      flags: "al",
      values: "efnpsw",
      long: ["auto-servernum", "listen-tcp"],
      longValues: ["error-file", "auth-file", "server-num", "xauth-protocol", "server-args", "wait"],
    },
  }),
  unbuffer: prefix("unbuffer", { opts: { flags: "p" } }),
  caffeinate: prefix("caffeinate", { opts: { flags: "disum", values: "tw" } }),
  arch: (call) => {
    const args = call.args.slice(1);
    let i = 0;
    for (; i < args.length; i++) {
      const t = args[i]?.text ?? "";
      if (/^-(e|d)$/.test(t)) i++;
      else if (!/^-(x86_64|x86_64h|arm64e?|i386|ppc|32|64|c)$/.test(t)) break;
    }
    runWords(call, args.slice(i));
  },
  "sandbox-exec": prefix("sandbox-exec", { opts: { values: "fnpD" } }),
  ifne: prefix("ifne", { opts: { flags: "n" } }),
  chronic: prefix("chronic", { opts: { flags: "ev" } }),
  entr: (call) => {
    const p = parseOpts(call.args.slice(1), { flags: "acdnprsz", posix: true });
    if (has(p, "-s")) return runLine(call, p.operands[0], "entr");
    runWords(call, p.operands);
  },
  dtach: (call) => {
    const args = call.args.slice(1);
    if (!/^-[Acn]$/.test(args[0]?.text ?? "")) return;
    const p = parseOpts(args.slice(2), { flags: "Ez", values: "er", posix: true });
    runWords(call, p.operands);
  },
  abduco: (call) => {
    const args = call.args.slice(1);
    const at = args.findIndex((a) => /^-[cnA]$/.test(a.text));
    if (at >= 0) runWords(call, args.slice(at + 2));
  },
  "cross-env": (call) => {
    const args = call.args.slice(1);
    const i = args.findIndex((a) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(a.text));
    if (i >= 0) runWords(call, args.slice(i));
  },
  "env-cmd": prefix("env-cmd", {
    opts: {
      values: "fer",
      long: ["silent", "use-shell", "verbose", "recursive", "expand-envs", "no-override"],
      longValues: ["file", "environments", "rc-file"],
    },
  }),
  dotenv: (call) => {
    const args = call.args.slice(1);
    const cut = args.findIndex((a) => a.text === "--");
    if (cut >= 0) return runWords(call, args.slice(cut + 1));
    const p = parseOpts(args, { flags: "o", values: "ecvp", long: ["debug", "quiet"], posix: true });
    runWords(call, p.operands);
  },
  direnv: (call) => {
    const [sub, , ...rest] = call.args.slice(1);
    if (sub?.text === "exec") runWords(call, rest);
  },
  mise: (call) => {
    const [sub, ...rest] = call.args.slice(1);
    if (!sub || !["exec", "x"].includes(sub.text)) return;
    const p = parseOpts(rest, { values: "Cjc", longValues: ["cd", "jobs", "command"], long: ["raw"] });
    const line = optValue(p, "-c", "--command");
    if (line) return runLine(call, line, "mise");
    const cut = rest.findIndex((a) => a.text === "--");
    if (cut >= 0) runWords(call, rest.slice(cut + 1));
  },
  asdf: (call) => {
    const [sub, ...rest] = call.args.slice(1);
    if (sub?.text === "exec") runWords(call, rest);
  },
  "nix-shell": (call) => {
    const p = parseOpts(call.args.slice(1), {
      flags: "pEAIv",
      values: "Iv",
      long: ["pure", "impure", "keep-going"],
      longValues: ["run", "command", "packages", "attr", "arg", "argstr", "keep", "include", "option"],
    });
    runLine(call, optValue(p, "--run", "--command"), "nix-shell");
  },
  pixi: toolRun("pixi", ["run", "exec"], PYTHON_RUN_VALUES),
  conda: toolRun("conda", ["run"], PYTHON_RUN_VALUES),
  mamba: toolRun("mamba", ["run"], PYTHON_RUN_VALUES),
  rustup: toolRun("rustup", ["run"], [], 1),
  pyenv: toolRun("pyenv", ["exec"], []),
  rbenv: toolRun("rbenv", ["exec"], []),
  devbox: toolRun("devbox", ["run"], ["-c", "--config"]),
  hyperfine: linesRunner(
    "hyperfine",
    {
      values: "wrmMpcsLPSunoD",
      flags: "iN",
      longValues: [
        "warmup",
        "runs",
        "prepare",
        "setup",
        "cleanup",
        "conclude",
        "shell",
        "parameter-scan",
        "export-json",
        "export-markdown",
        "command-name",
        "output",
        "time-unit",
      ],
    },
    ["-p", "--prepare", "-s", "--setup", "-c", "--cleanup", "--conclude"],
    false,
  ),
  concurrently: linesRunner(
    "concurrently",
    {
      values: "ncpsmt",
      flags: "kri",
      longValues: [
        "names",
        "prefix-colors",
        "prefix",
        "success",
        "max-processes",
        "timestamp-format",
        "name-separator",
      ],
      long: ["kill-others", "kill-others-on-fail", "raw", "no-color", "hide", "group"],
    },
    [],
    false,
  ),
  watchexec: linesRunner(
    "watchexec",
    {
      values: "wefisdW",
      flags: "rcpnoNq",
      longValues: [
        "watch",
        "exts",
        "filter",
        "ignore",
        "signal",
        "debounce",
        "shell",
        "project-origin",
        "on-busy-update",
        "stop-signal",
        "workdir",
      ],
      long: ["restart", "clear", "postpone", "no-vcs-ignore", "no-default-ignore"],
    },
    [],
    true,
  ),
  nodemon: (call) => {
    const p = parseOpts(call.args.slice(1), {
      values: "xwei",
      longValues: ["exec", "watch", "ext", "ignore", "delay", "signal", "config"],
      flags: "VLq",
      long: ["legacy-watch", "verbose", "quiet", "no-stdin"],
    });
    runLine(call, optValue(p, "-x", "--exec"), "nodemon");
  },
  xterm: terminal,
  uxterm: terminal,
  konsole: terminal,
  alacritty: terminal,
  "gnome-terminal": terminal,
  tilix: terminal,
  "xfce4-terminal": terminal,
  kitty: (call) => {
    const p = parseOpts(call.args.slice(1), {
      values: "cdoT",
      longValues: ["config", "directory", "override", "title", "class", "name", "session"],
      long: ["hold", "detach"],
      posix: true,
    });
    runWords(call, p.operands);
  },
  toybox: (call) => {
    const rest = call.args.slice(1);
    if (rest.length > 0 && !rest[0]?.text.startsWith("-")) call.engine.run(rest, call);
  },
  coproc: (call) => runWords(call, call.args.slice(1)),
  make,
  gmake: make,
};

/** `systemd-run [opts] cmd`: a transient unit the service manager starts, outside this session and its PATH. */
export const systemdRun: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { ...SYSTEMD_RUN, posix: true });
  schedule(call, p.operands.map((a) => renderArg(a.text)).join(" ") || "a shell");
  if (p.unknown.length > 0) unreadable(call, `systemd-run ${p.unknown.join(" ")}`);
  if (p.operands.length === 0) return shellStarted(call, "systemd-run");
  runWords(call, p.operands);
};

export { schedule };
