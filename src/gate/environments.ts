// The environments a caller declared: MEMNOX_ENV names one, or several separated by commas (`memnox run --envs`). Pure.

/** Each name once, in the order declared; blanks dropped, so `a,,b` and ` a , b ` mean `a,b`. */
export function environmentsOf(raw: string | undefined): string[] {
  const names = (raw ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  return [...new Set(names)];
}

/** MEMNOX_ENV for a declared list: every name, so a narrower value inherited from the shell cannot stand. */
export function environmentVariable(envs: readonly string[]): string | undefined {
  const names = environmentsOf(envs.join(","));
  return names.length > 0 ? names.join(",") : undefined;
}
