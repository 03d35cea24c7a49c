// `$'…'` strings: bash's backslash escapes decoded (\n, \t, \xHH, \uHHHH, \NNN, \cX).
const SIMPLE_ESCAPES: Record<string, string> = {
  n: "\n",
  t: "\t",
  r: "\r",
  a: "\x07",
  b: "\b",
  f: "\f",
  v: "\v",
  e: "\x1b",
  E: "\x1b",
  "\\": "\\",
  "'": "'",
  '"': '"',
  "?": "?",
};

export function ansiC(s: string): string {
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const ch = s[i] ?? "";
    if (ch !== "\\" || i + 1 >= s.length) {
      out += ch;
      continue;
    }
    const n = s[i + 1] ?? "";
    const simple = SIMPLE_ESCAPES[n];
    if (simple !== undefined) {
      out += simple;
      i++;
    } else if (n === "x" || n === "u" || n === "U") {
      const max = n === "x" ? 2 : n === "u" ? 4 : 8;
      const hex = /^[0-9a-fA-F]+/.exec(s.slice(i + 2, i + 2 + max))?.[0] ?? "";
      out += hex ? String.fromCodePoint(Math.min(Number.parseInt(hex, 16), 0x10ffff)) : `\\${n}`;
      i += 1 + hex.length;
    } else if (n >= "0" && n <= "7") {
      const oct = /^[0-7]{1,3}/.exec(s.slice(i + 1))?.[0] ?? "0";
      out += String.fromCharCode(Number.parseInt(oct, 8) & 0xff);
      i += oct.length;
    } else if (n === "c" && i + 2 < s.length) {
      out += String.fromCharCode((s.charCodeAt(i + 2) & 0x1f) >>> 0);
      i += 2;
    } else {
      out += `\\${n}`;
      i++;
    }
  }
  return out;
}
