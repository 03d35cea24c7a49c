// THE shell quoting: a word sh reads back as exactly itself.

/** Single-quoted whatever it holds (a value written into a script or an env file). */
export function shellQuote(s: string): string {
  return `'${s.replaceAll("'", `'\\''`)}'`;
}

/** Bare when it is plain, else single-quoted (a command line shown to a person or written into a hook entry). */
export function shellWord(w: string): string {
  return /^[\w@%+=:,./-]+$/.test(w) ? w : shellQuote(w);
}
