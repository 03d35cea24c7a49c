// Programs that run a command line somewhere else: a recorded terminal (script), a terminal multiplexer's server
// (tmux, screen), a queue (at, batch), the service manager (systemd-run). What they run is resolved here, because
// it may run where no interceptor stands; a command they will run that cannot be read asks.
import { has, optValue, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { emitWrite, pathOf } from "./fs-emit.ts";
import { runLine, schedule, unreadable } from "./launchers.ts";

type Handler = (call: Call) => void;

function shellStarted(call: Call, name: string): void {
  call.emit({ name: "shell.interactive", class: "unknown", targets: [name] });
  call.unknown(`${name} starting a shell`);
}

/** util-linux `script [opts] [file]` with `-c cmd`; BSD `script [opts] [file [cmd args]]`. */
const script: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), {
    flags: "aeEfqkprFd",
    values: "cTtBIOmEF",
    optional: "t",
    long: ["append", "return", "flush", "force", "quiet", "echo", "logging-format", "help", "version"],
    longValues: ["command", "log-in", "log-out", "log-io", "log-timing", "logging-format", "output-limit", "echo"],
    posix: true,
  });
  const line = optValue(p, "-c", "--command");
  const [file, ...cmd] = p.operands;
  if (file && file.text !== "/dev/null") emitWrite(call, [pathOf(call, file)]);
  if (line) return runLine(call, line, "script");
  if (cmd.length > 0) return call.engine.run(cmd, call);
  shellStarted(call, "script");
};

/** tmux commands that run a shell command (their operands), with their options. */
const TMUX_RUNS: Readonly<Record<string, { values: string; flags: string }>> = {
  "new-session": { values: "cefFnstxy", flags: "AdDEPX" },
  "new-window": { values: "cefFnt", flags: "abdkPS" },
  "split-window": { values: "cefFlt", flags: "bdfhIvPZ" },
  "respawn-pane": { values: "cet", flags: "k" },
  "respawn-window": { values: "cet", flags: "k" },
  "run-shell": { values: "dt", flags: "bCE" },
  "pipe-pane": { values: "t", flags: "IOo" },
  "display-popup": { values: "bcdehsStTwxy", flags: "BCE" },
};

/** tmux's short names for the same commands. */
const TMUX_ALIASES: Readonly<Record<string, string>> = {
  new: "new-session",
  neww: "new-window",
  splitw: "split-window",
  respawnp: "respawn-pane",
  respawnw: "respawn-window",
  run: "run-shell",
  pipep: "pipe-pane",
  popup: "display-popup",
  send: "send-keys",
  if: "if-shell",
  source: "source-file",
};

/** Keys a shell in a pane would read as a line: the words joined, key names for Enter dropped. */
function typedLine(keys: readonly Arg[]): Arg | undefined {
  if (!keys.every((a) => a.static)) return { text: keys.map((a) => a.text).join(" "), static: false, glob: false };
  const text = keys
    .map((a) => a.text)
    .filter((t) => !/^(Enter|C-m|KPEnter|C-j)$/.test(t))
    .join(" ");
  return text.trim() === "" ? undefined : { text, static: true, glob: false };
}

/** One tmux command (`new -d 'cmd'`, `send-keys -t x 'cmd' Enter`), as tmux reads it. */
function tmuxCommand(call: Call, words: readonly Arg[]): void {
  const [given, ...rest] = words;
  if (!given) return;
  const cmd = { ...given, text: TMUX_ALIASES[given.text] ?? given.text };
  const runs = TMUX_RUNS[cmd.text];
  if (runs) {
    const p = parseOpts(rest, { ...runs, posix: true });
    if (p.unknown.length > 0) unreadable(call, `tmux ${cmd.text} ${p.unknown.join(" ")}`);
    if (p.operands.length === 0) return;
    const line = p.operands.length === 1 ? p.operands[0] : undefined;
    if (line) runLine(call, line, "tmux");
    else call.engine.run(p.operands, call);
    return;
  }
  if (cmd.text === "send-keys") {
    const p = parseOpts(rest, { values: "Nt", flags: "FHKlMRX", posix: true });
    if (has(p, "-X")) return;
    runLine(call, typedLine(p.operands), "tmux send-keys");
    return;
  }
  if (cmd.text === "if-shell") {
    const p = parseOpts(rest, { values: "t", flags: "bF", posix: true });
    const [test, ...then] = p.operands;
    if (!has(p, "-F")) runLine(call, test, "tmux if-shell");
    for (const t of then)
      if (t.static)
        tmuxCommands(
          call,
          t.text.split(/\s+/).map((w) => ({ ...t, text: w })),
        );
    return;
  }
  if (cmd.text === "source-file") unreadable(call, "tmux source-file");
}

/** tmux commands joined by `;` (written `\;` in a shell) each read on its own. */
function tmuxCommands(call: Call, args: readonly Arg[]): void {
  let start = 0;
  for (let i = 0; i <= args.length; i++) {
    const t = args[i]?.text;
    if (i === args.length || t === ";" || t === "\\;") {
      tmuxCommand(call, args.slice(start, i));
      start = i + 1;
    }
  }
}

const tmux: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { flags: "2CDhlNuvV", values: "cfLST", posix: true });
  const line = optValue(p, "-c");
  if (line) return runLine(call, line, "tmux -c");
  tmuxCommands(call, p.operands);
};

/** `screen [opts] [cmd args]`; `-X cmd` sends a screen command to a running session (`stuff` types into it). */
const screen: Handler = (call) => {
  const args = call.args.slice(1);
  const x = args.findIndex((a) => a.text === "-X");
  if (x >= 0) {
    const [sub, ...rest] = args.slice(x + 1);
    if (sub?.text === "stuff") return runLine(call, typedLine(rest), "screen -X stuff");
    if (sub?.text === "exec" || sub?.text === "screen")
      return call.engine.run(
        rest.filter((a) => !a.text.startsWith("-")),
        call,
      );
    return;
  }
  const p = parseOpts(args, {
    flags: "aAdDfiklLmOqrRUwx",
    values: "cehpsStTX",
    long: ["version", "help"],
    posix: true,
  });
  if (has(p, "-r", "-R", "-x", "-ls", "-list") || args.some((a) => a.text === "-ls" || a.text === "-list")) return;
  if (p.operands.length > 0) call.engine.run(p.operands, call);
};

/** `at [-f file] TIME` / `batch`: the job is read from stdin or a file and runs later, unattended. */
function queue(name: string): Handler {
  return (call) => {
    const p = parseOpts(call.args.slice(1), { flags: "mMlrdcvbV", values: "qft", long: ["help", "version"] });
    if (has(p, "-l", "-r", "-d", "-c", "-V") || p.opts.some((o) => o.name === "--help")) return;
    schedule(call, name);
    const file = optValue(p, "-f");
    if (file) {
      call.emit({ name: "shell.script", class: "unknown", targets: [pathOf(call, file)] });
      return call.unknown(`an ${name} job read from ${file.text}`);
    }
    const stdin = call.stdin;
    if (stdin?.kind === "data") {
      if (stdin.text === undefined) return unreadable(call, `an ${name} job computed at run time`);
      return runLine(call, lit(stdin.text), name);
    }
    if (stdin?.kind === "file") {
      call.emit({ name: "shell.script", class: "unknown", targets: [stdin.path] });
      return call.unknown(`an ${name} job read from ${stdin.path}`);
    }
    call.emit({ name: "shell.stdin", class: "unknown", targets: [name] });
    call.unknown(`an ${name} job read from a pipe`);
  };
}

function lit(text: string): Arg {
  return { text, static: true, glob: false };
}

export const DETACHED_HANDLERS: Readonly<Record<string, Handler>> = {
  script,
  tmux,
  screen,
  at: queue("at"),
  batch: queue("batch"),
};
