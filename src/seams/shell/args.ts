// Reading a shell's own argv the way bash does: options first, and with -c the command is the first operand.

interface ShellArgs {
  /** The command string given with -c, if any. */
  readonly command?: string;
  /** Rebuild the argv for the real shell with this command string in place of the original. */
  withCommand(text: string): string[];
}

export function parseShellArgs(args: readonly string[]): ShellArgs {
  let i = 0;
  let hasC = false;
  while (i < args.length) {
    const a = args[i] ?? "";
    if (a === "--") {
      i++;
      break;
    }
    if (!/^[-+]/.test(a) || a === "-" || a === "+") break;
    if (/^-[a-zA-Z]*c[a-zA-Z]*$/.test(a)) hasC = true;
    // -o/+o and -O/+O take a value
    if (/^[-+][oO]$/.test(a)) i++;
    i++;
  }
  if (!hasC || i >= args.length) return { withCommand: () => [...args] };
  const at = i;
  return {
    command: args[at] ?? "",
    withCommand: (text) => [...args.slice(0, at), text, ...args.slice(at + 1)],
  };
}
