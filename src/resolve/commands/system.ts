// Processes and services: signals, cron, systemd/launchd units.

import { holdsSecretValue } from "../../core/secrets.ts";
import type { Call } from "../call.ts";
import { absolutePath } from "../paths.ts";

type Handler = (call: Call) => void;

const kill: Handler = (call) => {
  const args = call.args.slice(1);
  if (args.some((a) => a.text === "-l" || a.text === "-L" || a.text === "--list")) return;
  // `kill %1` names a job of this very shell: a child the agent started itself, never the guard or a person's work.
  const targets = args.filter((a) => !a.text.startsWith("-")).map((a) => a.text);
  if (call.args[0]?.text === "kill" && targets.length > 0 && targets.every((t) => /^%(\d+|[%+-])$/.test(t))) return;
  call.emit({ name: "signal.kill", class: "write", targets });
};

/** The command of each crontab line: what follows the five time fields, or `@reboot`-style shorthand. */
function cronCommands(table: string): string[] {
  const out: string[] = [];
  for (const line of table.split("\n")) {
    const t = line.trim();
    if (t === "" || t.startsWith("#") || /^[A-Za-z_][A-Za-z0-9_]*\s*=/.test(t)) continue;
    const m = /^(?:@\w+|(?:\S+\s+){4}\S+)\s+(.+)$/.exec(t);
    if (m?.[1]) out.push(m[1].replace(/%.*$/, ""));
  }
  return out;
}

const crontab: Handler = (call) => {
  const args = call.args.slice(1).map((a) => a.text);
  if (args.includes("-l")) return;
  const remove = args.includes("-r");
  call.emit({
    name: "system.crontab",
    class: remove ? "destructive" : "write",
    targets: args.filter((a) => !a.startsWith("-") || a === "-"),
  });
  // A table given on stdin: each line's command runs later, unattended, and is resolved now.
  const fromStdin = !remove && (args.includes("-") || args.every((a) => a.startsWith("-")));
  if (fromStdin && call.stdin?.kind === "data" && call.stdin.text !== undefined)
    for (const cmd of cronCommands(call.stdin.text)) call.engine.shell(cmd, call);
};

const SERVICE_READS = new Set(
  (
    "status show cat list-units list-unit-files list-timers list-jobs list-sockets list-dependencies " +
    "is-active is-enabled is-failed is-system-running get-default help --version list print blame"
  ).split(" "),
);

/** systemctl, service, launchctl: looking is a read, anything else changes what runs on this machine. */
function serviceManager(verbAt: (words: readonly string[]) => string | undefined): Handler {
  return (call) => {
    const words = call.args.slice(1).map((a) => a.text);
    const verb = verbAt(words);
    if (verb === undefined || SERVICE_READS.has(verb)) return;
    const targets = words.filter((w) => !w.startsWith("-") && w !== verb);
    call.emit({
      name: "system.service",
      class: "write",
      targets: targets.map((t) => (t.includes("/") ? absolutePath(t, call.scope.cwd, call.scope.home) : t)),
    });
  };
}

const firstWord = (words: readonly string[]) => words.find((w) => !w.startsWith("-"));

const KEYCHAIN_READS = /^(find-(generic|internet)-password|dump-keychain|export|find-certificate|find-identity)$/;

/** macOS `security`: reading a saved password or the whole keychain is a secret read, whatever file holds it. */
const security: Handler = (call) => {
  const verb = firstWord(call.args.slice(1).map((a) => a.text));
  if (verb && KEYCHAIN_READS.test(verb)) return call.emit({ name: "keychain.read", class: "read", targets: [verb] });
  call.emit({ name: "security.run", class: "unknown", targets: verb ? [verb] : [] });
  call.unknown("security");
};

/** setcap gives a program powers (cap_setuid: become root) that it keeps on every later run: a privilege change. */
const setcap: Handler = (call) => {
  const args = call.args.slice(1).filter((a) => !a.text.startsWith("-"));
  if (args.length === 0) return;
  const files = args.slice(1).map((a) => (a.static ? absolutePath(a.text, call.scope.cwd, call.scope.home) : a.text));
  call.emit({ name: "privilege.escalate", class: "unknown", targets: files });
};

/** `printenv GITHUB_TOKEN`: a named credential printed; other names (PATH, HOME) are a look. */
const printenv: Handler = (call) => {
  const named = call.args.slice(1).filter((a) => !a.text.startsWith("-") && holdsSecretValue(a.text));
  if (named.length > 0)
    call.emit({ name: "environment.secret-print", class: "read", targets: named.map((a) => a.text) });
};

const GPG_SECRET_EXPORTS = /^--export-secret-(keys?|subkeys?)$|^--export-ssh-key$/;

/** gpg exporting a secret key prints what ~/.gnupg keeps: the same read, refused as reading the folder is. */
const gpg: Handler = (call) => {
  if (call.args.slice(1).some((a) => GPG_SECRET_EXPORTS.test(a.text.split("=")[0] ?? "")))
    call.emit({ name: "filesystem.read", class: "read", targets: [`${call.scope.home}/.gnupg/private-keys-v1.d/**`] });
};

export const SYSTEM_HANDLERS: Readonly<Record<string, Handler>> = {
  printenv,
  gpg,
  gpg2: gpg,
  setcap,
  kill,
  pkill: kill,
  killall: kill,
  crontab,
  security,
  systemctl: serviceManager(firstWord),
  launchctl: serviceManager(firstWord),
  service: serviceManager((w) => w.filter((x) => !x.startsWith("-"))[1] ?? (w.length === 0 ? undefined : "status")),
};
