// The actions the resolver names outside the verb tables, with their classes, for explain and the baseline.
import type { ActionClass } from "../core/action.ts";
import { SQL_VERBS } from "./tables/sql.ts";

interface BuiltinAction {
  /** An action name, or a pattern with `*` for a family (`*.run`). */
  readonly action: string;
  /** The heaviest class it is given; `http.request` and `network.copy` are read when nothing leaves. */
  readonly class: ActionClass;
  readonly description: string;
}

export const BUILTIN_ACTIONS: readonly BuiltinAction[] = [
  {
    action: "shell.execute",
    class: "read",
    description: "the command line itself; its class is the heaviest inside it",
  },
  { action: "shell.unknown", class: "unknown", description: "a line that could not be parsed, or nested too deep" },
  { action: "shell.dynamic", class: "unknown", description: "a command or script computed at run time" },
  { action: "shell.script", class: "unknown", description: "a shell running a script file" },
  { action: "shell.source", class: "unknown", description: "source or . of a file" },
  { action: "shell.stdin", class: "unknown", description: "a shell running whatever a pipe delivers" },
  { action: "shell.interactive", class: "unknown", description: "an interactive shell, including sudo -s and su" },
  { action: "filesystem.read", class: "read", description: "files read, absolute" },
  { action: "filesystem.write", class: "write", description: "files created or overwritten, absolute" },
  {
    action: "filesystem.delete",
    class: "destructive",
    description: "files removed: rm, rmdir, unlink, shred, mv sources, find -delete",
  },
  {
    action: "disk.write",
    class: "destructive",
    description: "a block device rewritten: mkfs, dd of=/dev/…, partitioners",
  },
  { action: "http.request", class: "communication", description: "an HTTP call to a host; read when it sends nothing" },
  { action: "network.ssh", class: "communication", description: "an ssh session or remote command" },
  {
    action: "network.copy",
    class: "communication",
    description: "scp, rsync, sftp with a remote side; read when only fetching",
  },
  { action: "network.connect", class: "communication", description: "a raw connection: nc, socat, telnet" },
  { action: "network.listen", class: "communication", description: "a raw listener: nc -l, socat …-LISTEN" },
  { action: "network.lookup", class: "read", description: "dig, nslookup, host, ping" },
  { action: "signal.kill", class: "write", description: "kill, pkill, killall" },
  {
    action: "environment.inject",
    class: "unknown",
    description: "a variable that loads code (LD_PRELOAD, NODE_OPTIONS, MEMNOX_*)",
  },
  { action: "system.crontab", class: "destructive", description: "crontab edits (write) and crontab -r (destructive)" },
  { action: "system.service", class: "write", description: "systemctl, launchctl, service changing what runs" },
  { action: "privilege.escalate", class: "unknown", description: "sudo, doas, su, pkexec: running as another user" },
  { action: "keychain.read", class: "read", description: "macOS security reading saved passwords or keys" },
  { action: "*.eval", class: "unknown", description: "inline code: python -c, node -e, perl -e, ruby -e, heredocs" },
  { action: "*.run", class: "unknown", description: "a program or script nothing here knows" },
  { action: "*.unknown", class: "unknown", description: "a verb a CLI's table does not list" },
  { action: "*.help", class: "read", description: "a CLI asked for help or its version" },
  ...SQL_VERBS.map(([verb, cls, when]) => ({
    action: `database.${verb}`,
    class: cls,
    description: `any database CLI: ${when}`,
  })),
];
