// Inline code scanned (not parsed) for the files it deletes, writes or reads, the commands it runs, the hosts it calls.

export type Effect =
  | { readonly kind: "delete" | "write" | "read"; readonly target?: string }
  | { readonly kind: "shell"; readonly text: string }
  | { readonly kind: "argv"; readonly argv: readonly string[] }
  | { readonly kind: "http"; readonly host?: string; readonly sends: boolean }
  /** Code that builds what it runs or touches (an eval, decoded bytes, a computed command): nothing here can read it. */
  | { readonly kind: "opaque"; readonly why: string };

export type Lang = "python" | "node" | "perl" | "ruby" | "php" | "other";

const DELETES = [
  /\bshutil\.rmtree\s*\(/g,
  /\bos\.(?:remove|unlink|rmdir|removedirs)\s*\(/g,
  /\.(?:unlink|rmdir)(?:Sync)?\s*\(/g,
  /\b(?:fs|fsp|promises)\.rm(?:Sync)?\s*\(/g,
  /\brmSync\s*\(/g,
  /\brimraf(?:\.sync)?\s*\(/g,
  /\bFileUtils\.(?:rm|rm_r|rm_rf|rm_f|remove|remove_dir|remove_entry|remove_file|rmtree|rmdir)\b\s*\(?/g,
  /\b(?:File|Dir)\.(?:delete|unlink|rmdir)\s*\(/g,
  /\bDeno\.remove(?:Sync)?\s*\(/g,
  /\b(?:unlink|rmtree|remove_tree|rmdir)\b\s*\(?/g,
  /\bsend2trash\s*\(/g,
  /\bshutil\.move\s*\(/g,
];

const WRITES = [
  /\bopen\s*\(\s*(?:r|b|f|rb|fr)?(['"])[^'"]*\1\s*,\s*(?:mode\s*=\s*)?['"][^'"]*[wax+]/g,
  /\.write_(?:text|bytes)\s*\(/g,
  /\bshutil\.(?:copy|copyfile|copy2|copytree|move)\s*\(/g,
  /\bos\.(?:rename|replace|makedirs|mkdir|chmod|chown|truncate|symlink|link)\s*\(/g,
  /\b(?:writeFile|appendFile|copyFile|rename|mkdir|chmod|truncate|symlink|cp)(?:Sync)?\s*\(/g,
  /\bcreateWriteStream\s*\(/g,
  /\bDeno\.(?:writeTextFile|writeFile|mkdir|rename|copyFile)(?:Sync)?\s*\(/g,
  /\bBun\.write\s*\(/g,
  /\b(?:File|IO)\.(?:write|binwrite)\s*\(/g,
  /\bFile\.open\s*\([^)]*,\s*['"][wa]/g,
  /\bFileUtils\.(?:cp|cp_r|mv|mkdir|mkdir_p|touch|ln|ln_s|install|chmod)\b/g,
  /\bopen\s*\(?\s*(?:my\s+)?\$?\w*\s*,\s*['"](?:>|\+<)/g,
  /\bfile_put_contents\s*\(/g,
  /\bfopen\s*\([^)]*,\s*['"][wax]/g,
];

const READS = [
  /\bopen\s*\(\s*(?:r|b|f|rb|fr)?(['"])(?!-)/g,
  /\.read_(?:text|bytes)\s*\(/g,
  /\breadFile(?:Sync)?\s*\(/g,
  /\b(?:File|IO)\.(?:read|readlines|binread)\s*\(/g,
  /\bfile_get_contents\s*\(/g,
  /\bDeno\.readTextFile(?:Sync)?\s*\(/g,
];

const SHELLS = [
  /\bos\.(?:system|popen)\s*\(/g,
  /\bsubprocess\.(?:run|call|check_call|check_output|Popen|getoutput|getstatusoutput)\s*\(/g,
  /\b(?:commands\.getoutput|pty\.spawn)\s*\(/g,
  /\b(?:execSync|exec|spawnSync|spawn|execFileSync|execFile)\s*\(/g,
  /\b(?:system|shell_exec|passthru|proc_open|popen)\s*\(?/g,
  /\bIO\.popen\s*\(/g,
  /\bOpen3\.\w+\s*\(/g,
  /\bqx\s*[({[/]/g,
  /%x\s*[({[]/g,
  /\bDeno\.(?:run|Command)\s*\(/g,
  /\bBun\.(?:spawn|spawnSync|\$)\s*[(`]/g,
  // Perl's and Ruby's `exec "cmd"`, `exec { "sh" } …`, `spawn "cmd"` take no parentheses; Lua's os.execute, io.popen.
  /(?<![.\w$])(?:Kernel\.)?(?:exec|spawn)\s+(?=['"{[])/g,
  /\bProcess\.(?:spawn|exec)\s*\(?/g,
  /\bos\.execute\s*\(?/g,
  /\bio\.popen\s*\(?/g,
  /\bpcntl_exec\s*\(/g,
];

// Constructs that turn data into code or into a name looked up at run time: what they do cannot be read here.
const OPAQUE: readonly (readonly [RegExp, string])[] = [
  [/(?<![.\w$])(?:eval|compile|execfile|create_function)\s*\(|\b(?:instance|class|module)_eval\b/, "an eval"],
  [/\bnew\s+Function\b|\bFunction\s*\(/, "an eval"],
  [
    /\b(?:__import__|importlib|getattr|setattr|__builtins__|globals|locals|__send__|public_send)\b|\.send\s*\(/,
    "a name looked up at run time",
  ],
  [
    /\b(?:base64|b64decode|b32decode|a85decode|decode_base64|base64_decode|atob|fromhex|unhexlify|fromCharCode|codecs|marshal|pickle|zlib|gzip\.decompress|rot13|str_rot13|unpack|pack)\b/i,
    "decoded bytes",
  ],
  [/\bchr\s*\(\s*\d+\s*\)\s*[+.]/, "characters put together at run time"],
  [
    /\b(?:ctypes|cffi|dlopen|ffi|process\.binding|process\.dlopen|vm\.\w+|Reflect\.|Proxy\s*\()/,
    "native code or reflection",
  ],
  [/\bos\.(?:exec\w*|spawn\w*|fork|posix_spawn\w*)\s*\(/, "a program started directly"],
  [/\brequire\s*\(\s*[^'"`\s)]|\bimport\s*\(\s*[^'"`\s)]/, "a module named at run time"],
];

/** A literal that names a file: absolute, home-relative, relative with a slash, or a dotfile. */
const PATH_LITERAL = /^(?:~\/|\/|\.{1,2}\/|\.[\w-][\w.-]*$|[\w.-]+\/[\w./-]*$)[^\s'"`]*$/;

const NETWORK =
  /\b(?:requests|urllib|httpx|http\.client|aiohttp|fetch|axios|https?\.(?:get|request)|Net::HTTP|LWP|HTTP::Tiny|curl_init|socket)\b/;
const SENDS =
  /\.(?:post|put|patch|delete)\s*\(|method\s*[:=]\s*['"](?:POST|PUT|PATCH|DELETE)|\bdata\s*=|\bjson\s*=|urlopen\s*\([^)]*data/i;

/** The string literal (or list of literals) that is the first argument after `from`. */
function firstArgument(code: string, from: number): string | string[] | undefined {
  const rest = code.slice(from, from + 2000).replace(/^\s*\(?\s*/, "");
  const list = /^\[((?:\s*(['"])(?:(?!\2).)*\2\s*,?)+)\]/.exec(rest);
  if (list?.[1]) return [...list[1].matchAll(/(['"])((?:(?!\1).)*)\1/g)].map((m) => m[2] ?? "");
  const str = /^[rbf]{0,2}(?:'((?:\\.|[^\\'])*)'|"((?:\\.|[^\\"])*)")/.exec(rest);
  const body = str?.[1] ?? str?.[2];
  if (body !== undefined) return body.replace(/\\(["'\\])/g, "$1");
  const glob = /^glob\s*\(\s*(['"])((?:(?!\1).)*)\1/.exec(rest);
  return glob?.[2];
}

function pathArgument(code: string, from: number): string | undefined {
  const a = firstArgument(code, from);
  return typeof a === "string" ? a : undefined;
}

function scanAll(code: string, patterns: readonly RegExp[], each: (end: number, match: string) => void): void {
  for (const re of patterns) {
    re.lastIndex = 0;
    for (const m of code.matchAll(re)) each((m.index ?? 0) + m[0].length, m[0]);
  }
}

/**
 * Every string literal that names a file is something the code may read; where a write or delete of an unread
 * target is seen, it may be written or deleted too (`open(os.path.expanduser("~/.bashrc"), "a")`).
 */
function literalPaths(code: string, out: Effect[]): void {
  const literals = [...code.matchAll(/(['"`])((?:\\.|(?!\1).)*)\1/g)]
    .map((m) => m[2] ?? "")
    .filter((t) => t.length > 1 && PATH_LITERAL.test(t) && !/^\/\//.test(t));
  if (literals.length === 0) return;
  const named = new Set(out.flatMap((e) => ("target" in e && e.target !== undefined ? [e.target] : [])));
  const blind = (kind: "write" | "delete") => out.some((e) => e.kind === kind && e.target === undefined);
  const writes = blind("write") || /\bopen\s*\([^)]*,\s*['"][^'"]*[wax+]/.test(code);
  const deletes = blind("delete");
  for (const target of new Set(literals)) {
    if (named.has(target)) continue;
    out.push({ kind: "read", target });
    if (writes) out.push({ kind: "write", target });
    if (deletes) out.push({ kind: "delete", target });
  }
}

export function scanCode(code: string, lang: Lang): Effect[] {
  const out: Effect[] = [];
  scanAll(code, DELETES, (end, match) => {
    const target = pathArgument(code, end);
    out.push(target === undefined ? { kind: "delete" } : { kind: "delete", target });
    if (match.includes("shutil.move")) out.push({ kind: "write" });
  });
  scanAll(code, WRITES, (end, match) => {
    const target = match.startsWith("open") ? /(['"])([^'"]*)\1/.exec(match)?.[2] : pathArgument(code, end);
    out.push(target === undefined ? { kind: "write" } : { kind: "write", target });
  });
  scanAll(code, READS, (end, match) => {
    const target = match.startsWith("open")
      ? pathArgument(code, end - match.length + match.indexOf("(") + 1)
      : pathArgument(code, end);
    if (target !== undefined && !out.some((e) => e.kind === "write" && e.target === target))
      out.push({ kind: "read", target });
  });
  scanAll(code, SHELLS, (end) => {
    const arg = firstArgument(code, end);
    if (typeof arg === "string") out.push({ kind: "shell", text: arg });
    else if (arg) out.push({ kind: "argv", argv: arg });
    else out.push({ kind: "opaque", why: "a command computed at run time" });
  });
  for (const [re, why] of OPAQUE) if (re.test(code)) out.push({ kind: "opaque", why });
  // Python's `exec(…)` evaluates code; JavaScript's, Perl's, Ruby's and PHP's start a program, a shell call seen above.
  if ((lang === "python" || lang === "other") && /(?<![.\w$])exec\s*\(/.test(code))
    out.push({ kind: "opaque", why: "an eval" });
  // Perl's `open(F, "cmd |")` and `open(F, "-|", …)` run a command and read what it prints.
  if (lang === "perl" && /\bopen\s*\(?[^;]*['"](?:[^'"]*\|\s*|\s*\|[^'"]*|-\||\|-)['"]/.test(code))
    out.push({ kind: "opaque", why: "a command opened as a pipe" });
  literalPaths(code, out);
  if (lang === "ruby" || lang === "perl" || lang === "php") {
    for (const m of code.matchAll(/`([^`]*)`/g)) out.push({ kind: "shell", text: m[1] ?? "" });
  }
  if (NETWORK.test(code)) {
    const sends = SENDS.test(code);
    const hosts = [...code.matchAll(/https?:\/\/([a-z0-9.-]+)/gi)].map((m) => (m[1] ?? "").toLowerCase());
    if (hosts.length === 0) out.push({ kind: "http", sends });
    for (const host of new Set(hosts)) out.push({ kind: "http", host, sends });
  }
  return out;
}
