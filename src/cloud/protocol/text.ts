// What text may cross between a machine and its workspace: no control character (C0 but tab, newline and carriage
// return, DEL, C1, a surrogate without its pair), and on one line none of those three either, nor a direction control
// that makes a name display as another. The server refuses such a field; the machine escapes it before sending.

export const CONTROL =
  // biome-ignore lint/suspicious/noControlCharactersInRegex: finding control characters is the point
  /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F]|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
export const LINE_CONTROL = /[\t\n\r\u200E\u200F\u202A-\u202E\u2066-\u2069]/;

const ALL_CONTROL = new RegExp(`${CONTROL.source}|${LINE_CONTROL.source}`, "g");
const MULTILINE_CONTROL = new RegExp(CONTROL.source, "g");

/** `text` with each control character written out as `\u0000`, so a path holding one still travels, readably. */
export function escapeControls(text: string, multiline = false): string {
  return text.replace(multiline ? MULTILINE_CONTROL : ALL_CONTROL, (ch) => {
    const code = ch.codePointAt(0) ?? 0;
    return `\\u${code.toString(16).padStart(4, "0")}`;
  });
}
