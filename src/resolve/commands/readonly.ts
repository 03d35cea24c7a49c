// Programs that only look: they print, test or wait, and touch no file a rule would name.
import type { Call } from "../call.ts";

type Handler = (call: Call) => void;

const LOOK_ONLY = (
  "pwd true false : date cal ncal whoami id groups uname uptime w who users which type whereis " +
  "man help info apropos whatis sleep basename dirname seq yes logname tty locale nproc " +
  "free vmstat iostat lscpu lsblk lsusb lspci ps top htop pgrep pidof lsof ss netstat arch getconf expr bc " +
  "dc factor clear tput set shift jobs fg bg times ulimit umask history " +
  "shopt dirs disown caller compgen complete exit return break continue logout " +
  "df env-update tldr"
).split(" ");

const nothing: Handler = () => {};

/** hostname with an operand sets the name: not a read. */
const hostname: Handler = (call) => {
  const operand = call.args.slice(1).find((a) => !a.text.startsWith("-"));
  if (!operand) return;
  call.emit({ name: "hostname.run", class: "unknown", targets: [operand.text] });
  call.unknown("hostname");
};

export const READONLY_HANDLERS: Readonly<Record<string, Handler>> = {
  ...Object.fromEntries(LOOK_ONLY.map((n) => [n, nothing])),
  hostname,
};
