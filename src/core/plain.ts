// Text for a reader that is not a terminal: no escape sequences (colour, cursor moves, titles), whoever wrote them.

// CSI (`ESC [ … final`), OSC (`ESC ] … BEL|ST`), the other two-byte escapes, and a lone ESC or 8-bit CSI.
// biome-ignore lint/suspicious/noControlCharactersInRegex: escape sequences are exactly what is matched.
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)?|\u001b[@-Z\\-_]|\u001b|\u009b/g;

export function withoutEscapes(text: string): string {
  return text.includes("\u001b") || text.includes("\u009b") ? text.replace(ESCAPES, "") : text;
}

/** Whether colour may be written to a stream: only to a terminal, and never when NO_COLOR is set (no-color.org). */
export function colourAllowed(isTTY: boolean, env: Readonly<Record<string, string | undefined>>): boolean {
  return isTTY && !env.NO_COLOR && env.TERM !== "dumb";
}
