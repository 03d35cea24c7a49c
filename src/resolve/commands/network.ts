// Programs that talk to other machines: the host is the target; sending data makes it communication.
import { isLoopbackHost } from "../../core/hosts.ts";
import { asksForHelp, has, optValue, optValues, type Parsed, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { basename } from "../paths.ts";
import { emitDelete, emitRead, emitWrite, pathOf, subtree } from "./fs-emit.ts";

type Handler = (call: Call) => void;

/** The host of a URL or `host:port`, without credentials; undefined when there is none to name. */
export function hostOf(url: string): string | undefined {
  const m = /^(?:[a-z][a-z0-9+.-]*:\/\/)?(?:[^@/\s]*@)?(\[[^\]]+\]|[^/:?#\s]+)/i.exec(url);
  const host = m?.[1];
  if (!host || host.startsWith("$") || host.startsWith("-")) return undefined;
  return host.toLowerCase();
}

/** A URL carrying a substitution or variable may carry data out in its path. */
function carriesData(a: Arg): boolean {
  return !a.static && /[$`]/.test(a.text.replace(/^[^/]*\/\/[^/]*/, ""));
}

/** curl's long options that take a value, so the value is never read as a URL. */
const CURL_VALUES = (
  "data data-raw data-binary data-urlencode data-ascii json form form-string upload-file request header output " +
  "user user-agent referer cookie cookie-jar config proxy url write-out max-time connect-timeout range cert key " +
  "cacert resolve retry dump-header output-dir limit-rate interface proxy-user oauth2-bearer aws-sigv4 variable " +
  "trace trace-ascii stderr unix-socket connect-to expect100-timeout max-filesize max-redirs time-cond"
).split(" ");

const SENDS = ["-d", "--data", "--data-raw", "--data-binary", "--data-urlencode", "--data-ascii", "--json"];
const FORMS = ["-F", "--form", "--form-string"];
const UPLOADS = ["-T", "--upload-file"];

const curl: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const p = parseOpts(args, {
    values: "dFTXHoubAecKxwmrEDyYzCU",
    flags: "sSLIkfviOJGN#gnqZ0123456",
    longValues: CURL_VALUES,
  });
  const urls = [...p.operands, ...optValues(p, "--url")];
  const method = optValue(p, "-X", "--request")?.text.toUpperCase();
  const fileData = [
    ...optValues(p, ...SENDS),
    ...optValues(p, ...FORMS).map((v) => ({ ...v, text: v.text.replace(/^[^=]*=/, "") })),
  ]
    .filter((v) => v.text.startsWith("@") && v.text !== "@-")
    .map((v) => ({ ...v, text: v.text.slice(1).replace(/;.*$/, "") }));
  emitRead(
    call,
    [...fileData, ...optValues(p, ...UPLOADS), ...optValues(p, "-K", "--config")].map((a) => pathOf(call, a)),
  );
  const sends =
    has(p, ...SENDS, ...FORMS, ...UPLOADS) ||
    (method !== undefined && !["GET", "HEAD", "OPTIONS"].includes(method)) ||
    urls.some(carriesData);
  request(call, urls, sends);
  const outputs = optValues(p, "-o", "--output", "-D", "--dump-header", "-c", "--cookie-jar").filter(
    (a) => a.text !== "-",
  );
  const remoteNames = has(p, "-O", "--remote-name")
    ? urls.map((u) => ({ ...u, text: basename(u.text.replace(/[?#].*$/, "")) || "index.html" }))
    : [];
  const saved = [...optValues(p, "-o", "--output").filter((a) => a.text !== "-"), ...remoteNames].map((a) =>
    pathOf(call, a),
  );
  emitWrite(
    call,
    [...outputs, ...remoteNames].map((a) => pathOf(call, a)),
  );
  if (urls.some((u) => isLoopbackHost(hostOf(u.text) ?? "localhost") === false))
    for (const f of saved) call.engine.fetched(f);
};

function request(call: Call, urls: readonly Arg[], sends: boolean): void {
  const hosts = [...new Set(urls.map((u) => hostOf(u.text)).filter((h): h is string => h !== undefined))];
  emitHttp(call, hosts, sends);
}

/** One request action per kind of host: this machine's own (`http.loopback`), every other (`http.request`). */
export function emitHttp(call: Call, hosts: readonly string[], sends: boolean): void {
  const cls = sends ? "communication" : "read";
  const local = hosts.filter(isLoopbackHost);
  const away = hosts.filter((h) => !isLoopbackHost(h));
  if (local.length > 0) call.emit({ name: "http.loopback", class: cls, targets: local });
  if (away.length > 0 || local.length === 0) call.emit({ name: "http.request", class: cls, targets: away });
}

const wget: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const p = parseOpts(args, {
    values: "OoaPUeitTwQlAR",
    flags: "qvdNcrkpmxnbSF46",
    long: ["spider", "quiet", "continue", "recursive", "mirror"],
    longValues: [
      "output-document",
      "output-file",
      "append-output",
      "directory-prefix",
      "user-agent",
      "execute",
      "input-file",
      "tries",
      "timeout",
      "wait",
      "post-data",
      "post-file",
      "body-data",
      "body-file",
      "method",
      "header",
      "user",
      "password",
      "http-user",
      "http-password",
      "load-cookies",
      "save-cookies",
      "accept",
      "reject",
      "level",
    ],
  });
  const method = optValue(p, "--method")?.text.toUpperCase();
  const sends =
    has(p, "--post-data", "--post-file", "--body-data", "--body-file") ||
    (method !== undefined && method !== "GET" && method !== "HEAD") ||
    p.operands.some(carriesData);
  emitRead(
    call,
    [...optValues(p, "--post-file", "--body-file", "-i", "--input-file")].map((a) => pathOf(call, a)),
  );
  request(call, p.operands, sends);
  if (has(p, "--spider")) return;
  const doc = optValue(p, "-O", "--output-document");
  const dir = optValue(p, "-P", "--directory-prefix");
  const base = dir ? pathOf(call, dir) : call.scope.cwd;
  const outputs = doc
    ? doc.text === "-"
      ? []
      : [pathOf(call, doc)]
    : p.operands.map((u) => `${base}/${basename(u.text.replace(/[?#].*$/, "")) || "index.html"}`);
  emitWrite(call, [
    ...outputs,
    ...optValues(p, "-o", "--output-file", "-a", "--append-output").map((a) => pathOf(call, a)),
  ]);
  if (p.operands.some((u) => isLoopbackHost(hostOf(u.text) ?? "localhost") === false))
    for (const f of outputs) call.engine.fetched(f);
};

/** httpie and xh: `http [METHOD] URL items…`; a data item or a writing method sends. */
const httpie: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const p = parseOpts(args, {
    values: "aAoplvb",
    flags: "fjdcFhIqSxv",
    longValues: ["auth", "auth-type", "output", "pretty", "style", "print", "verify", "session", "proxy"],
  });
  const words = [...p.operands];
  const method = words[0] && /^[A-Z]+$/.test(words[0].text) ? words.shift()?.text : undefined;
  const url = words.shift();
  const items = words.map((w) => w.text);
  const data = items.some((i) => /^[^:=@]+(:=|=|@|=@|:=@)/.test(i) && !/^[^=]+==/.test(i));
  const sends =
    data || (method !== undefined && !["GET", "HEAD", "OPTIONS"].includes(method)) || (url ? carriesData(url) : false);
  const files = items.filter((i) => /^[^@=]+=?@/.test(i)).map((i) => i.replace(/^[^@]+@/, ""));
  emitRead(
    call,
    files.map((f) => pathOf(call, { text: f, static: true, glob: false })),
  );
  // `:3000/health` and `:/x` are httpie's shorthand for localhost.
  const shorthand = url && /^:(\d|\/|$)/.test(url.text) ? { ...url, text: `localhost${url.text}` } : url;
  request(call, shorthand ? [shorthand] : [], sends);
  const out = optValue(p, "-o", "--output");
  if (out) emitWrite(call, [pathOf(call, out)]);
};

const SSH_VALUES = "bcDEeFIiJLlmOoPpQRSWwB";

/** `-o ProxyCommand=…` and `-o LocalCommand=…` run a command on this machine before anything connects. */
function localCommands(call: Call, p: Parsed): void {
  for (const o of optValues(p, "-o")) {
    const m = /^\s*(ProxyCommand|LocalCommand|KnownHostsCommand)\s*[= ]\s*(.+)$/i.exec(o.text);
    if (m?.[2] && o.static && m[2].toLowerCase() !== "none") call.engine.shell(m[2], call);
  }
}

const ssh: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { values: SSH_VALUES, flags: "46AaCfGgKkMNnqsTtVvXxYy", posix: true });
  if (has(p, "-V")) return;
  localCommands(call, p);
  const [dest, ...command] = p.operands;
  const host = dest ? hostOf(dest.text) : undefined;
  call.emit({ name: "network.ssh", class: "communication", targets: host ? [host] : [] });
  if (command.length > 0) call.unknown(`a command run on ${host ?? "another machine"}`);
};

/** `host:path`, `user@host:path` and `rsync://` operands are remote; anything else is a local path. */
function remoteHost(a: Arg): string | undefined {
  if (/^rsync:\/\//.test(a.text)) return hostOf(a.text);
  const m = /^(?:[^@/:\s]+@)?(\[[^\]]+\]|[^/:\s]+)::?(?!\/\/)/.exec(a.text);
  if (!m?.[1] || a.text.startsWith("/") || a.text.startsWith(".")) return undefined;
  return m[1].toLowerCase();
}

/** `recursive`: each local source is copied with everything under it (`scp -r`, `rsync -a`). */
function copyOut(call: Call, operands: readonly Arg[], deletes: boolean, recursive: boolean): void {
  if (operands.length === 0) return;
  const sources = operands.slice(0, -1);
  const dest = operands[operands.length - 1] as Arg;
  const destHost = remoteHost(dest);
  const hosts = operands.map(remoteHost).filter((h): h is string => h !== undefined);
  const localSources = sources.filter((s) => !remoteHost(s)).map((s) => pathOf(call, s));
  emitRead(call, recursive ? localSources.map(subtree) : localSources);
  if (hosts.length > 0) {
    call.emit({ name: "network.copy", class: destHost ? "communication" : "read", targets: [...new Set(hosts)] });
  }
  if (!destHost) emitWrite(call, [pathOf(call, dest)]);
  if (deletes && !destHost)
    call.emit({ name: "filesystem.delete", class: "destructive", targets: [pathOf(call, dest)] });
  if (deletes && destHost) call.emit({ name: "network.copy", class: "destructive", targets: [destHost] });
}

const scp: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { values: "cFiJlopPSDX", flags: "346ABCOpqRrTv" });
  localCommands(call, p);
  const program = optValue(p, "-S");
  if (program) call.engine.run([program], call, undefined);
  copyOut(call, p.operands, false, has(p, "-r"));
};

const rsync: Handler = (call) => {
  const args = call.args.slice(1);
  if (asksForHelp(args)) return;
  const p = parseOpts(args, {
    values: "eBfMT",
    flags: "vqcarRbudlLkKHpEAXogDtOJSnWxyz0hPiFCm",
    longValues: [
      "rsh",
      "exclude",
      "include",
      "filter",
      "exclude-from",
      "include-from",
      "files-from",
      "port",
      "password-file",
      "chmod",
      "log-file",
      "temp-dir",
      "partial-dir",
      "backup-dir",
      "suffix",
      "timeout",
      "bwlimit",
      "max-size",
      "min-size",
      "compare-dest",
      "link-dest",
      "copy-dest",
      "remote-option",
      "out-format",
      "chown",
      "usermap",
      "groupmap",
      "iconv",
      "info",
      "debug",
    ],
  });
  const deletes = p.opts.some((o) => o.name.startsWith("--delete"));
  for (const rsh of optValues(p, "-e", "--rsh")) if (rsh.static) call.engine.shell(rsh.text, call);
  copyOut(call, p.operands, deletes, has(p, "-r", "-a", "--recursive", "--archive"));
  if (has(p, "--remove-source-files")) {
    const sources = p.operands.slice(0, -1).filter((s) => !remoteHost(s));
    emitDelete(call, sources.map((s) => pathOf(call, s)).map(subtree));
  }
};

const sftp: Handler = (call) => {
  const p = parseOpts(call.args.slice(1), { values: "BbcDFiJloPRSs", flags: "46AaCfNpqrv" });
  localCommands(call, p);
  const host = p.operands[0] ? (remoteHost(p.operands[0]) ?? hostOf(p.operands[0].text)) : undefined;
  call.emit({ name: "network.copy", class: "communication", targets: host ? [host] : [] });
};

/** nc, socat, telnet: a raw connection (or a listener) that can carry anything. */
const connect: Handler = (call) => {
  const args = call.args.slice(1);
  const listen = args.some((a) => /^-[a-zA-Z]*l/.test(a.text) || /^(TCP|UDP)[46]?-LISTEN:/i.test(a.text));
  const hosts = args
    .map((a) => a.text)
    .filter((t) => !t.startsWith("-"))
    .map(
      (t) =>
        /^(?:TCP|UDP|SSL|OPENSSL)[46]?:([^:,]+)/i.exec(t)?.[1] ??
        (/^[a-z0-9.-]+\.[a-z]{2,}$|^\d+\.\d+\.\d+\.\d+$|^localhost$/i.test(t) ? t : undefined),
    )
    .filter((h): h is string => h !== undefined);
  call.emit({ name: listen ? "network.listen" : "network.connect", class: "communication", targets: hosts });
};

/** DNS and reachability lookups read; the name looked up is the target. */
const lookup: Handler = (call) => {
  const hosts = call.args
    .slice(1)
    .map((a) => a.text)
    .filter((t) => !t.startsWith("-") && !t.startsWith("@") && !t.startsWith("+") && /[a-z0-9]/i.test(t));
  call.emit({ name: "network.lookup", class: "read", targets: hosts.slice(0, 1) });
};

export const NETWORK_HANDLERS: Readonly<Record<string, Handler>> = {
  curl,
  wget,
  http: httpie,
  https: httpie,
  httpie,
  xh: httpie,
  xhs: httpie,
  ssh,
  scp,
  rsync,
  sftp,
  nc: connect,
  ncat: connect,
  netcat: connect,
  socat: connect,
  telnet: connect,
  dig: lookup,
  nslookup: lookup,
  host: lookup,
  ping: lookup,
  ping6: lookup,
  traceroute: lookup,
  whois: lookup,
};
