// Settings and variables whose value git (or an editor- or pager-using program) runs as a command, judged by the
// value: a plain program name is the local loop; a shell line, a `!` alias or a destructive subcommand is not.
import { basename } from "../paths.ts";

/** What a setting does when it is not plain; `runs` is the command line it hands a shell, to resolve as well. */
interface CodeSetting {
  readonly why: string;
  readonly runs?: string;
}

/** Keys whose value is a command git runs (through a shell): lowercase, subsections as `*`. */
const COMMAND_KEYS =
  /^(core\.(fsmonitor|pager|editor|sshcommand|askpass|gitproxy)|pager\.[^.]+|sequence\.editor|diff\.external|diff\..+\.(command|textconv)|merge\..+\.driver|filter\..+\.(clean|smudge|process)|credential\.(.+\.)?helper|gpg\.(.+\.)?program|sendemail\.(.+\.)?(tocmd|cccmd|sendmailcmd|smtpserver)|web\.browser|(browser|difftool|mergetool|man)\..+\.(cmd|path)|remote\..+\.(receivepack|uploadpack)|uploadpack\.packobjectshook|interactive\.difffilter)$/;

/** Keys that load code or settings from somewhere else, whatever their value. */
const LOADS_CODE = /^(core\.hookspath|include\.path|includeif\..+\.path|init\.templatedir|protocol\.(ext\.)?allow)$/;

/** How long git keeps what only a reflog or nothing at all still reaches: shortened, work is beyond rewind sooner. */
const DROPS_HISTORY = /^gc\.(.+\.)?(reflogexpire|reflogexpireunreachable|pruneexpire|worktreepruneexpire)$/;

const BOOLEAN = /^(true|false|yes|no|on|off|1|0|)$/i;

/** Characters that make a value a shell line rather than a program and its arguments. */
const SHELL_LINE = /[;&|<>$`(){}\n!*?"'\\#]/;

/** Programs that run other commands, or destroy or send things: never a plain editor, pager or helper. */
const RUNS_OTHERS = new Set(
  (
    "sh bash zsh dash ksh mksh ash fish csh tcsh rbash yash posh env sudo doas su pkexec runuser sg xargs parallel " +
    "eval exec nohup setsid timeout nice ionice time watch flock script tmux screen at batch systemd-run unshare " +
    "chroot nsenter expect tclsh wish unbuffer perl ruby php lua luajit node nodejs bun deno osascript pwsh " +
    "powershell rm rmdir unlink mv dd shred truncate chmod chown chgrp cp ln install tee curl wget nc ncat netcat " +
    "socat telnet scp sftp rsync kill pkill killall crontab git gh npm npx pnpm yarn bunx make find tar zip 7z " +
    "docker kubectl aws gcloud az terraform gdb strace"
  ).split(" "),
);

function firstWord(value: string): string {
  return basename(value.trim().split(/\s+/)[0] ?? "").toLowerCase();
}

/** `vim`, `less -FRX`, `code --wait`, `delta`, `cat`: a program and plain arguments, nothing a shell reads. */
function plainProgram(value: string): boolean {
  const v = value.trim();
  if (v === "" || SHELL_LINE.test(v)) return false;
  const first = firstWord(v);
  if (/^(python|pypy|perl|ruby|php|lua)[0-9.]*$/.test(first)) return false;
  // ssh reads a command from -o ProxyCommand/LocalCommand, so only a plain `ssh -i key` is plain.
  if (first === "ssh") return !/(^|\s)-o|command/i.test(v);
  return !RUNS_OTHERS.has(first);
}

/**
 * Whether setting `key` to `value` makes git run code or force a push later, and what; undefined when it is
 * the local loop. `aliasRuns` judges a non-`!` alias's words as a git subcommand (true: it destroys or forces).
 */
export function codeSetting(
  rawKey: string,
  value: string,
  aliasRuns: (words: string) => boolean,
): CodeSetting | undefined {
  const key = rawKey.toLowerCase();
  if (key.startsWith("alias.")) {
    const v = value.trim();
    if (v.startsWith("!")) return { why: `the alias runs a shell command`, runs: v.slice(1) };
    if (v.startsWith("-")) return { why: "the alias changes git's own options" };
    return aliasRuns(v) ? { why: "the alias stands for a subcommand that destroys work or forces a push" } : undefined;
  }
  if (/^remote\..+\.push$/.test(key)) {
    const v = value.trim();
    return v.startsWith("+") || v.startsWith(":")
      ? { why: "a plain `git push` then forces (or deletes) what this refspec names" }
      : undefined;
  }
  if (/^remote\..+\.mirror$/.test(key))
    return BOOLEAN.test(value.trim()) && !/^(false|no|off|0|)$/i.test(value.trim())
      ? { why: "a plain `git push` then mirrors: every remote branch is forced to match, and missing ones deleted" }
      : undefined;
  if (DROPS_HISTORY.test(key) || (key === "core.logallrefupdates" && /^(false|no|off|0)$/i.test(value.trim())))
    return { why: "git then drops what only a reflog or an unreachable object still holds, on its next gc" };
  if (LOADS_CODE.test(key)) {
    if (key.startsWith("protocol.") && /^(never|user)$/i.test(value.trim())) return undefined;
    return { why: "git then loads hooks, settings or transports from there" };
  }
  if (!COMMAND_KEYS.test(key)) return undefined;
  if ((key === "core.fsmonitor" || key.startsWith("pager.")) && BOOLEAN.test(value.trim())) return undefined;
  if (plainProgram(value)) return undefined;
  return { why: "git runs this value as a command", runs: value };
}

/** Variables whose value a program runs as a command (an editor, a pager, an ssh or askpass program). */
const COMMAND_VARS = new Set([
  "EDITOR",
  "VISUAL",
  "PAGER",
  "MANPAGER",
  "SYSTEMD_PAGER",
  "BAT_PAGER",
  "DELTA_PAGER",
  "BROWSER",
  "GIT_EDITOR",
  "GIT_SEQUENCE_EDITOR",
  "GIT_PAGER",
  "GIT_SSH",
  "GIT_SSH_COMMAND",
  "GIT_ASKPASS",
  "SSH_ASKPASS",
  "SUDO_ASKPASS",
  "GIT_EXTERNAL_DIFF",
  "GIT_PROXY_COMMAND",
  "LESSOPEN",
  "LESSCLOSE",
]);

export function isCommandVar(name: string): boolean {
  return COMMAND_VARS.has(name);
}

/** A command variable's value judged like a setting: a plain program is fine, a shell line runs code. */
export function commandVarValue(name: string, value: string): CodeSetting | undefined {
  if (!COMMAND_VARS.has(name)) return undefined;
  const v = name.startsWith("LESS") ? value.replace(/^\|+/, "").replace(/%s/g, "f") : value;
  return plainProgram(v) ? undefined : { why: `${name} is run as a command`, runs: v };
}

/** `GIT_CONFIG_PARAMETERS`: `'key=value' 'key2=value2'`, as git writes it for `-c`. */
export function configParameters(text: string): [string, string][] {
  const out: [string, string][] = [];
  for (const m of text.matchAll(/'((?:[^']|'\\'')*)'/g)) {
    const item = (m[1] ?? "").replace(/'\\''/g, "'");
    const eq = item.indexOf("=");
    out.push(eq < 0 ? [item, ""] : [item.slice(0, eq), item.slice(eq + 1)]);
  }
  return out;
}
