// THE masker: one table of detectors for credential values, used wherever text is stored, printed or exported. Pure.
//
// A detector finds a span (the value, or the whole match when the shape itself is the secret); overlapping finds keep
// the one that starts first (the longer on a tie, the earlier detector after that). Values never take a backslash or
// a quote, so masking the text of a JSON document leaves it valid JSON.

import type { Action } from "./action.ts";

export const MASK = "***";

/** Which detectors apply: `records` everywhere memnox stores or prints, `memory` the memex write-boundary catalog. */
type Catalog = "records" | "memory";

interface SecretSpan {
  readonly kind: string;
  readonly start: number;
  readonly end: number;
}

interface Detector {
  readonly kind: string;
  /** Global, with indices (`dg`); the named group `v`, when present, is the secret and the rest stays. */
  readonly re: RegExp;
  /** Both catalogs (a credential shape), only records (a value known by where it stands), or only memory. */
  readonly in: "both" | "records" | "memory";
  /** A further check on the named group `k` (the key or flag the value belongs to) or on the value. */
  readonly accept?: (groups: Readonly<Record<string, string | undefined>>) => boolean;
}

// Words that make a name (an option, a variable, a key) a credential's name.
const WORD =
  "passw(?:or)?d|passphrase|pass(?![a-z])|[-_.]pwd(?![a-z])|secret|token|api[-_.]?key|apikey|access[-_.]?key|private[-_.]?key|signing[-_.]?key|session[-_.]?key|master[-_.]?key|[-_.]key(?![a-z])|credentials?(?![a-z])|auth(?![a-z])|otp(?![a-z])";
const SECRET_NAME = new RegExp(`(?:${WORD})`, "i");
const NAME = `[A-Za-z0-9_.-]*(?:${WORD})[A-Za-z0-9_.-]*`;

/** Whether an option, variable or key name names a credential (`GITHUB_TOKEN`, `--api-key`, `db.password`). */
export function isSecretName(name: string): boolean {
  return SECRET_NAME.test(name.replace(/^-+/, ""));
}

/** Names that say where a credential is rather than holding it (`SSH_AUTH_SOCK`, `GOOGLE_..._FILE`, `TOKEN_URL`). */
const WHERE_NOT_WHAT = /_(SOCK|SOCKET|PATH|FILE|DIR|URL|URI|HOST|PORT|ENDPOINT)$/i;

/** Whether a variable's value is the credential its name names: printing it prints the secret itself. */
export function holdsSecretValue(name: string): boolean {
  return isSecretName(name) && !WHERE_NOT_WHAT.test(name);
}

// A value as a command line writes it: quoted (also inside a JSON string), or bare up to the next separator.
const VALUE = `(?:'[^'\\n]*'|"[^"\\\\\\n]*"|\\\\"[^"\\\\\\n]*\\\\"|[^\\s'"\\\\;&|<>()]+)`;
const BARE_VALUE = `(?:'[^'\\n]*'|"[^"\\\\\\n]*"|\\\\"[^"\\\\\\n]*\\\\"|[^\\s'"\\\\;&|<>()-][^\\s'"\\\\;&|<>()]*)`;
const SAME_COMMAND = "[^|;&\\n]*?";

const re = (source: string, flags = "") => new RegExp(source, `dg${flags}`);
const mixed = (v: string) => /[0-9]/.test(v) && /[A-Za-z]/.test(v);

/**
 * Whether what stands after a credential's name and a spaced `=` is a value rather than code or a reference: quoted,
 * holding a digit, or long; never a path, a variable (`$TOKEN`), a literal (`null`) or a call (`getToken(`).
 */
function looksLikeValue(v: string): boolean {
  const bare = v.replace(/^\\?["']|\\?["']$/g, "");
  if (bare === "" || /^(?:true|false|null|none|nil|undefined|\*\*\*)$/i.test(bare) || /^[~.]?\//.test(bare))
    return false;
  if (/^[$%]/.test(bare)) return false;
  return bare !== v || /[0-9]/.test(bare) || bare.length >= 8;
}

// Compiled on first use: most texts fail MAYBE first, and compiling them all costs every hook milliseconds at start.
let compiled: readonly Detector[] | undefined;
function detectors(): readonly Detector[] {
  compiled ??= [
    // Shapes: the text itself is the credential, wherever it stands.
    {
      kind: "private_key",
      in: "both",
      re: re("-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----[\\s\\S]*?-----END [A-Z0-9 ]*PRIVATE KEY-----"),
    },
    { kind: "private_key", in: "both", re: re("-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----(?:[A-Za-z0-9+/=\\s]|\\\\n)*") },
    { kind: "anthropic_key", in: "both", re: re("\\bsk-ant-[A-Za-z0-9_-]{8,}") },
    // The legacy form (`sk-` and 20+ letters and digits, nothing after): memex names it apart from the newer keys.
    { kind: "openai_legacy_key", in: "both", re: re("sk-[A-Za-z0-9]{20,}(?![A-Za-z0-9_-])") },
    {
      kind: "openai_key",
      in: "both",
      re: re("\\bsk-(?<b>(?:proj-|svcacct-|admin-|live-|test-)?[A-Za-z0-9_-]{8,})"),
      accept: (g) => (g.b ?? "").length >= 20 || /[0-9]/.test(g.b ?? ""),
    },
    { kind: "github_token", in: "both", re: re("\\b(?:gh[pousr]_[A-Za-z0-9]{20,}|github_pat_[A-Za-z0-9_]{20,})") },
    { kind: "gitlab_token", in: "both", re: re("\\bglpat-[A-Za-z0-9_-]{20,}") },
    { kind: "slack_token", in: "both", re: re("\\b(?:xox[abeoprs]|xapp)-[A-Za-z0-9-]{10,}") },
    { kind: "slack_webhook", in: "both", re: re("hooks\\.slack\\.com/services/(?<v>[A-Za-z0-9_/-]{16,})") },
    { kind: "aws_key_id", in: "both", re: re("\\b(?:AKIA|ASIA)[0-9A-Z]{16}\\b") },
    { kind: "google_api_key", in: "both", re: re("\\bAIza[0-9A-Za-z_-]{30,}") },
    { kind: "stripe_key", in: "both", re: re("\\b(?:sk|rk)_(?:live|test)_[A-Za-z0-9]{10,}") },
    { kind: "npm_token", in: "both", re: re("\\bnpm_[A-Za-z0-9]{20,}") },
    // memnox's own: a control plane token or agent credential (`mnx_<kind>_`), a route's delivery secret (`whsec_`).
    { kind: "memnox_token", in: "both", re: re("\\bmnx_[a-z]_[A-Za-z0-9_-]{20,}") },
    { kind: "webhook_secret", in: "both", re: re("\\bwhsec_[A-Za-z0-9+/_-]{20,}={0,2}") },
    { kind: "jwt", in: "both", re: re("\\beyJ[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]{5,}\\.[A-Za-z0-9_-]*") },
    // memex's catalog names a database URL whole.
    {
      kind: "db_url",
      in: "memory",
      re: re("\\b(?:postgres(?:ql)?|mysql|mariadb|mongodb(?:\\+srv)?|redis|rediss|amqps?)://[^\\s\"'<>]+"),
    },
    // Where it stands: a URL's password, a header, an option or a variable named for a credential.
    {
      kind: "url_password",
      in: "records",
      re: re("\\b[a-z][a-z0-9+.-]*://[^/\\s:@'\"\\\\]*:(?<v>[^@\\s/'\"\\\\]+)@", "i"),
    },
    {
      kind: "url_token",
      in: "records",
      re: re("\\bhttps?://(?<v>[^/\\s:@'\"\\\\]{16,})@", "i"),
      accept: (g) => mixed(g.v ?? ""),
    },
    {
      kind: "url_query",
      in: "records",
      re: re("[?&](?<k>[A-Za-z0-9_.-]+)=(?<v>[^&\\s'\"#\\\\]+)"),
      accept: (g) =>
        isSecretName(g.k ?? "") || /^(?:key|sig|signature|x-amz-signature|x-amz-credential)$/i.test(g.k ?? ""),
    },
    {
      kind: "auth_header",
      in: "records",
      re: re(
        "\\b(?:proxy-authorization|authorization|x-api-key|api-key|apikey|private-token|x-auth-token|x-access-token|x-goog-api-key|x-amz-security-token)\\s*:\\s*(?:(?:bearer|basic|token|digest|bot)\\s+)?(?<v>[^\\s'\"\\\\]+)",
        "i",
      ),
    },
    { kind: "cookie", in: "records", re: re("\\b(?:set-)?cookie\\s*:\\s*(?<v>[^'\"\\\\\\n\\r]+)", "i") },
    {
      kind: "bearer",
      in: "records",
      re: re("\\bbearer\\s+(?<v>[A-Za-z0-9._~+/-]+=*)", "i"),
      accept: (g) => (g.v ?? "").length >= 6 && /[0-9._~+/=-]/.test(g.v ?? ""),
    },
    {
      kind: "user_password",
      in: "records",
      re: re("(?:^|\\s)(?:-u|--user|--proxy-user|-U)(?:=|\\s+)['\"]?[^\\s:'\"\\\\]+:(?<v>[^\\s'\"\\\\]+)"),
    },
    {
      kind: "secret_body",
      in: "records",
      re: re(`\\bsecrets?\\s+set\\b${SAME_COMMAND}\\s(?:--body|-b)(?:=|\\s+)(?<v>${VALUE})`),
    },
    {
      kind: "secret_stdin",
      in: "records",
      re: re(
        `\\b(?:echo|printf)\\s+(?:-[A-Za-z]+\\s+)*(?:(?:'%[^']*'|"%[^"]*")\\s+)?(?<v>${VALUE})\\s*\\|${SAME_COMMAND}\\bsecrets?\\s+(?:set|put|create)\\b`,
      ),
    },
    {
      kind: "secret_stdin",
      in: "records",
      re: re(`\\bsecrets?\\s+(?:set|put)\\b${SAME_COMMAND}<<<\\s*(?<v>${VALUE})`),
    },
    {
      kind: "config_value",
      in: "records",
      re: re(`\\bconfig(?:ure)?\\b${SAME_COMMAND}\\s(?<k>${NAME})\\s+(?<v>${BARE_VALUE})`, "i"),
      accept: (g) => isSecretName(g.k ?? ""),
    },
    { kind: "terraform_var", in: "records", re: re(`(?<![\\w-])-var(?:=|\\s+)['"]?[A-Za-z0-9_]+=(?<v>${VALUE})`) },
    { kind: "terraform_var", in: "records", re: re(`\\bTF_VAR_[A-Za-z0-9_]+=(?<v>${VALUE})`) },
    { kind: "literal", in: "records", re: re(`--from-literal(?:=|\\s+)['"]?[A-Za-z0-9_.-]+=(?<v>${VALUE})`) },
    {
      kind: "mysql_password",
      in: "records",
      re: re(`\\b(?:mysql|mysqldump|mysqladmin|mariadb|mysqlsh)\\b${SAME_COMMAND}\\s-p(?<v>[^\\s'"\\\\;&|]+)`),
    },
    { kind: "login_password", in: "records", re: re(`\\b(?:sshpass|login)\\b${SAME_COMMAND}\\s-p\\s*(?<v>${VALUE})`) },
    {
      kind: "flag",
      in: "records",
      re: re(`(?<![\\w-])(?<k>--?${NAME})(?:=|\\s+)(?<v>${BARE_VALUE})`, "i"),
      accept: (g) => isSecretName(g.k ?? "") && !/(?:-file|-path|-stdin|-env|-command|-cmd|-helper)$/i.test(g.k ?? ""),
    },
    {
      kind: "assignment",
      in: "records",
      re: re(`(?<![\\w.-])(?<k>${NAME})=(?<v>${VALUE})`, "i"),
      accept: (g) => isSecretName(g.k ?? ""),
    },
    {
      // A config file's line (ini, TOML, .env, PowerShell, code): `aws_secret_access_key = wJalr…`, `:=`, `=>`.
      kind: "assignment",
      in: "records",
      re: re(`(?<![\\w.-])(?<k>${NAME})(?:\\?["'])?[ \\t]*(?::=|=>|=)[ \\t]*(?<v>${VALUE})(?![(\\w])`, "i"),
      accept: (g) => isSecretName(g.k ?? "") && looksLikeValue(g.v ?? ""),
    },
    // A .netrc line: `machine host login me password V`.
    {
      kind: "netrc",
      in: "records",
      re: re(`\\bmachine\\s+\\S+(?:\\s+login\\s+\\S+)?\\s+password\\s+(?<v>${VALUE})`),
    },
    // An XML element named for a credential: `<password>V</password>`, `<apiKey>V</apiKey>`.
    {
      kind: "keyed",
      in: "records",
      re: re(`<(?<k>${NAME})>(?<v>[^<\\s]{3,})</\\k<k>>`, "i"),
      accept: (g) => isSecretName(g.k ?? ""),
    },
    {
      kind: "keyed",
      in: "records",
      re: re(`(?<![\\w.-])(?<k>${NAME})(?:\\\\?["'])?\\s*:\\s*(?:\\\\?(?<q>["']))?(?<v>[^\\s"',}\\\\]{4,})`, "i"),
      // A quoted value (JSON, YAML), one with a digit or a long one, never a path (`credential: ~/.aws/credentials`).
      accept: (g) =>
        isSecretName(g.k ?? "") &&
        !/^(?:true|false|null|\*\*\*)$|^[~.]?\//.test(g.v ?? "") &&
        (g.q !== undefined || /[0-9]/.test(g.v ?? "") || (g.v ?? "").length >= 12),
    },
  ];
  return compiled;
}

// A command that sets every `K=V` it is given as a config value or secret (`heroku config:set K=V`).
const SETS_PAIRS =
  /\b(?:config:set|config:add|secrets:set|secrets\s+set|secrets\s+import|env:set|env\s+set|env\s+add|variables\s+set|set-env)\b[^|;&\n]*/dg;
const PAIR = new RegExp(`(?<![\\w.-])[A-Za-z_][A-Za-z0-9_.-]*=(?<v>${VALUE})`, "dg");

interface Found extends SecretSpan {
  readonly order: number;
}

function pairSpans(text: string, out: Found[]): void {
  for (const m of text.matchAll(SETS_PAIRS)) {
    const at = m.index ?? 0;
    for (const p of m[0].matchAll(PAIR)) {
      const v = p.indices?.groups?.v;
      if (v) out.push({ kind: "config_value", start: at + v[0], end: at + v[1], order: detectors().length });
    }
  }
}

// Text holding none of these can hold no credential any detector finds: most paths, hosts and names stop here.
const MAYBE =
  /[=:@]|-----BEGIN|sk[-_]|rk_|gh[pousr]_|github_pat_|glpat-|xox|xapp-|AKIA|ASIA|AIza|npm_|mnx_|whsec_|eyJ|bearer|secret|config|-p|pass|pwd|token|key|credential|auth|otp/i;

/** Every credential span in `text`, left to right, none overlapping. */
export function findSecrets(text: string, catalog: Catalog = "records"): SecretSpan[] {
  if (!MAYBE.test(text)) return [];
  const found: Found[] = [];
  detectors().forEach((d, order) => {
    if (d.in !== "both" && d.in !== catalog) return;
    for (const m of text.matchAll(d.re)) {
      if (d.accept && !d.accept(m.groups ?? {})) continue;
      const v = m.indices?.groups?.v;
      const start = v ? v[0] : (m.index ?? 0);
      const end = v ? v[1] : start + m[0].length;
      if (end > start) found.push({ kind: d.kind, start, end, order });
    }
  });
  if (catalog === "records") pairSpans(text, found);
  found.sort((a, b) => a.start - b.start || b.end - a.end || a.order - b.order);
  const kept: SecretSpan[] = [];
  let reach = -1;
  for (const s of found) {
    if (s.start < reach) continue;
    kept.push({ kind: s.kind, start: s.start, end: s.end });
    reach = s.end;
  }
  return kept;
}

interface MaskOptions {
  readonly catalog?: Catalog;
  /** Values already known to be credentials (found in the raw call this text came from), masked wherever they occur. */
  readonly known?: readonly string[];
  /** What a span becomes; `***` unless told. */
  readonly render?: (kind: string) => string;
}

/** The text with every credential replaced. */
export function maskSecrets(text: string, opts: MaskOptions = {}): string {
  const known = opts.known && opts.known.length > 0 ? maskKnown(text, opts.known) : text;
  const spans = findSecrets(known, opts.catalog ?? "records");
  if (spans.length === 0) return known;
  const render = opts.render ?? (() => MASK);
  let out = "";
  let at = 0;
  for (const s of spans) {
    out += known.slice(at, s.start) + render(s.kind);
    at = s.end;
  }
  return out + known.slice(at);
}

/** The kinds of credential in `text`, in order, each once. */
export function secretKinds(text: string, catalog: Catalog = "records"): string[] {
  return [...new Set(findSecrets(text, catalog).map((s) => s.kind))];
}

/**
 * The kinds of credential whose shape alone makes them one (a private key block, a GitHub or AWS key), each once:
 * what a payload carries whatever it stands beside, the notice layer's test of a send.
 */
export function credentialShapes(text: string): string[] {
  if (!MAYBE.test(text)) return [];
  const kinds = new Set<string>();
  for (const d of detectors()) {
    if (d.in !== "both") continue;
    for (const m of text.matchAll(d.re)) if (!d.accept || d.accept(m.groups ?? {})) kinds.add(d.kind);
  }
  return [...kinds];
}

/** The credential values in a raw call, unquoted: what its targets must not carry once stored. */
export function secretValues(text: string): string[] {
  const out = new Set<string>();
  for (const s of findSecrets(text)) {
    const v = unquote(text.slice(s.start, s.end));
    if (v.length >= 3 && v !== MASK) out.add(v);
  }
  return [...out];
}

function unquote(v: string): string {
  if (v.length >= 4 && v.startsWith('\\"') && v.endsWith('\\"')) return v.slice(2, -2);
  if (v.length >= 2 && (v[0] === "'" || v[0] === '"') && v.endsWith(v[0])) return v.slice(1, -1);
  return v;
}

/** `text` with each known value masked: a very short one only when it stands alone (it would match too much). */
function maskKnown(text: string, known: readonly string[]): string {
  let out = text;
  for (const v of known) {
    if (out === v) return MASK;
    if (v.length >= 4 && out.includes(v)) out = out.split(v).join(MASK);
  }
  return out;
}

/** Every string inside a JSON-shaped value masked; the shape is kept. */
export function maskDeep<T>(value: T, opts: MaskOptions = {}): T {
  if (typeof value === "string") return maskSecrets(value, opts) as T;
  if (Array.isArray(value)) return value.map((v) => maskDeep(v, opts)) as T;
  if (value !== null && typeof value === "object") {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[k] = maskDeep(v, opts);
    return out as T;
  }
  return value;
}

/** An argv masked element by element, each value judged by the option before it (`--password hunter2`). */
export function maskArgv(argv: readonly string[]): string[] {
  const known = secretValues(argv.join(" "));
  return argv.map((a) => maskSecrets(a, { known }));
}

/** How much of a raw call is searched for credential values: a target (a path, a host, a ref) is never longer. */
const RAW_SEARCHED = 16_384;

/** The actions with `shown` set where a target carries a credential of the raw call it came from, or one by shape. */
export function withShownTargets(actions: readonly Action[], raw: string): Action[] {
  let known: string[] | undefined;
  return actions.map((a) => {
    known ??= secretValues(raw.length > RAW_SEARCHED ? raw.slice(0, RAW_SEARCHED) : raw);
    const opts = { known };
    const shown = a.targets.map((t) => maskSecrets(t, opts));
    return shown.some((t, i) => t !== a.targets[i]) ? { ...a, shown } : a;
  });
}
