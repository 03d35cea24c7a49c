// Server arguments and URLs can carry tokens; what memnox prints of them has the values masked.

/** Option and variable names that carry a credential. */
export const SECRET_FLAG =
  /(?:token|secret|passw(?:or)?d|api[-_]?key|apikey|auth|credential|private[-_]?key|access[-_]?key)/i;
const SECRET_SHAPE =
  /^(?:sk-[A-Za-z0-9_-]{8,}|gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,}|xox[abposr]-[A-Za-z0-9-]{8,}|glpat-[A-Za-z0-9_-]{16,}|AKIA[0-9A-Z]{16}|AIza[0-9A-Za-z_-]{30,}|eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]*)$/;

export const MASK = "***";

/** The arguments with anything that looks like a credential replaced by `***`. */
export function maskArgs(args: readonly string[]): string[] {
  const out: string[] = [];
  let maskNext = false;
  for (const arg of args) {
    if (maskNext && !arg.startsWith("-")) {
      out.push(MASK);
      maskNext = false;
      continue;
    }
    maskNext = false;
    const eq = /^(--?[^=\s]+)=(.*)$/.exec(arg);
    if (eq?.[1] && SECRET_FLAG.test(eq[1])) out.push(`${eq[1]}=${MASK}`);
    else if (/^--?[A-Za-z]/.test(arg) && SECRET_FLAG.test(arg)) {
      out.push(arg);
      maskNext = true;
    } else out.push(maskValue(arg));
  }
  return out;
}

/** One value: a credential-shaped token, a URL's password or secret-looking query values, or `KEY=secret`. */
export function maskValue(value: string): string {
  if (SECRET_SHAPE.test(value)) return MASK;
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value)) return maskUrl(value);
  const kv = /^([A-Za-z_][A-Za-z0-9_]*)=(.+)$/.exec(value);
  if (kv?.[1] && SECRET_FLAG.test(kv[1])) return `${kv[1]}=${MASK}`;
  const bearer = /^(bearer\s+)\S+$/i.exec(value);
  if (bearer?.[1]) return `${bearer[1]}${MASK}`;
  return value;
}

export function maskUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  let changed = false;
  if (url.password) {
    url.password = MASK;
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_FLAG.test(key) || /^(?:key|sig|signature|code)$/i.test(key)) {
      url.searchParams.set(key, MASK);
      changed = true;
    }
  }
  return changed ? url.toString().replaceAll("%2A%2A%2A", MASK) : raw;
}
