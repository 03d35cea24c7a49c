// psql, mysql and mongosh: each statement they are given becomes `<cli>.<verb>` and `database.<verb>`.
import { has, type OptSpec, optValue, optValues, type Parsed, parseOpts } from "../argv.ts";
import type { Arg, Call } from "../call.ts";
import { verbTable } from "../tables/index.ts";
import { MONGO_TO_SQL } from "../tables/sql.ts";
import type { VerbTable } from "../types.ts";
import { emitRead, emitWrite, pathOf } from "./fs-emit.ts";
import { hostOf } from "./network.ts";
import { classifyMongo, classifyStatement, type Statement, splitStatements } from "./sql-classify.ts";
import { emitNamed, unknownVerb } from "./table.ts";

type Handler = (call: Call) => void;

interface DbSpec {
  readonly cli: string;
  readonly opts: OptSpec;
  readonly code: readonly string[];
  readonly files: readonly string[];
  readonly db: readonly string[];
  readonly host: readonly string[];
  readonly output: readonly string[];
  readonly mongo?: boolean;
}

const PSQL: DbSpec = {
  cli: "psql",
  opts: {
    flags: "AabeEHlnqsStwWxXz01?V",
    values: "cdfhpUvoLFRPT",
    longValues: ["command", "dbname", "file", "host", "port", "username", "set", "variable", "output", "log-file"],
  },
  code: ["-c", "--command"],
  files: ["-f", "--file"],
  db: ["-d", "--dbname"],
  host: ["-h", "--host"],
  output: ["-o", "--output", "-L", "--log-file"],
};

const MYSQL: DbSpec = {
  cli: "mysql",
  opts: {
    flags: "BbCcEfGHiKNnqrstVvwXx",
    values: "eDhPuSAOT",
    optional: "p",
    longValues: ["execute", "database", "host", "port", "user", "socket", "defaults-file", "tee"],
    longOptional: ["password"],
  },
  code: ["-e", "--execute"],
  files: [],
  db: ["-D", "--database"],
  host: ["-h", "--host"],
  output: ["--tee"],
};

const MONGOSH: DbSpec = {
  cli: "mongosh",
  opts: {
    flags: "",
    values: "fup",
    long: ["quiet", "nodb", "norc", "shell", "tls", "verbose"],
    longValues: [
      "eval",
      "file",
      "host",
      "port",
      "username",
      "password",
      "authenticationDatabase",
      "authenticationMechanism",
    ],
  },
  code: ["--eval"],
  files: ["-f", "--file"],
  db: [],
  host: ["--host"],
  output: [],
  mongo: true,
};

function database(spec: DbSpec): Handler {
  return (call) => {
    const table = verbTable(spec.cli) as VerbTable;
    const args = call.args.slice(1);
    if (args.some((a) => ["--help", "--version", "-V", "-?"].includes(a.text)))
      return emitNamed(table, call, `${spec.cli}.help`, []);
    const p = parseOpts(args, spec.opts);
    const where = connection(spec, p);
    emitWrite(
      call,
      optValues(p, ...spec.output).map((a) => pathOf(call, a)),
    );
    const code = optValues(p, ...spec.code);
    const files = [
      ...optValues(p, ...spec.files),
      ...(spec.mongo ? p.operands.filter((a) => a.text.endsWith(".js")) : []),
    ];
    if (spec.cli === "psql" && has(p, "-l", "--list"))
      statements(spec, table, call, [{ verb: "select", objects: [], text: "\\l" }], where);
    for (const c of code) fromText(spec, table, call, c, where);
    for (const f of files) script(spec, table, call, where, pathOf(call, f));
    if (code.length > 0 || files.length > 0 || has(p, "-l", "--list")) return;
    const stdin = call.stdin;
    if (stdin?.kind === "data" && stdin.text !== undefined)
      return fromText(spec, table, call, { text: stdin.text, static: true, glob: false }, where);
    if (stdin?.kind === "file") return script(spec, table, call, where, stdin.path, false);
    if (stdin) return script(spec, table, call, where);
    emitNamed(table, call, `${spec.cli}.interactive`, where);
  };
}

/** The database and host the client connects to, credentials left out. */
function connection(spec: DbSpec, p: Parsed): string[] {
  const out: string[] = [];
  const host = optValue(p, ...spec.host);
  if (host) out.push(host.text);
  const db = optValue(p, ...spec.db) ?? p.operands.find((a) => !a.text.endsWith(".js"));
  if (db) {
    const uri = /^[a-z+]+:\/\//i.test(db.text);
    if (uri) {
      const h = hostOf(db.text);
      const name = /^[a-z+]+:\/\/[^/]+\/([^?#]+)/i.exec(db.text)?.[1];
      if (h) out.push(h);
      if (name) out.push(name);
    } else out.push(db.text);
  }
  return out;
}

/** Statements from a file or a pipe: unknown; a file named by an option is also a read (a redirect already is). */
function script(
  spec: DbSpec,
  table: VerbTable,
  call: Call,
  where: readonly string[],
  file?: string,
  read = true,
): void {
  if (file && read) emitRead(call, [file]);
  emitNamed(table, call, `${spec.cli}.script`, file ? [file, ...where] : [...where]);
}

function fromText(spec: DbSpec, table: VerbTable, call: Call, code: Arg, where: readonly string[]): void {
  if (!code.static) {
    script(spec, table, call, where);
    return;
  }
  const stmts = spec.mongo ? classifyMongo(code.text) : splitStatements(code.text).map(classifyStatement);
  statements(spec, table, call, stmts, where);
}

function statements(
  spec: DbSpec,
  table: VerbTable,
  call: Call,
  stmts: readonly Statement[],
  where: readonly string[],
): void {
  for (const s of stmts) {
    if (s.shell) call.engine.shell(s.shell, call);
    if (s.writes)
      emitWrite(
        call,
        s.writes.map((w) => pathOf(call, { text: w, static: true, glob: false })),
      );
    if (s.verb === undefined) {
      unknownVerb(table, call, [{ text: s.text.slice(0, 40), static: true, glob: false }]);
      continue;
    }
    const verb = s.verb;
    const targets = [...s.objects, ...where];
    emitNamed(table, call, `${spec.cli}.${verb}`, targets);
    const generic = spec.mongo ? MONGO_TO_SQL[verb] : verb;
    const cls = table.verbs.find((e) => e.action === `${spec.cli}.${verb}`)?.class;
    if (generic && cls) call.emit({ name: `database.${generic}`, class: cls, targets });
  }
}

const SQLITE_VALUES = new Set(
  "-cmd -init -separator -nullvalue -newline -vfs -maxsize -mmap -pagecache -lookaside -heap -escape -A".split(" "),
);

/**
 * sqlite3 FILE [SQL…]: the file is read, and written too unless every statement only selects (or `-readonly`):
 * `sqlite3 ~/.memnox/memnox.db 'drop trigger …'` is a write of memnox's ledger, whatever SQL it spells.
 */
const sqlite3: Handler = (call) => {
  const args = call.args.slice(1);
  if (args.some((a) => ["--help", "-help", "-version", "--version"].includes(a.text))) return;
  const operands: Arg[] = [];
  const code: Arg[] = [];
  let readonly = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i] as Arg;
    const flag = a.text.replace(/^--/, "-");
    if (flag === "-readonly") readonly = true;
    if (SQLITE_VALUES.has(flag)) {
      const v = args[++i];
      if (v && flag === "-cmd") code.push(v);
      continue;
    }
    if (!flag.startsWith("-")) operands.push(a);
  }
  const [file, ...sql] = operands;
  if (!file || file.text === ":memory:") return;
  const db = pathOf(call, file);
  const texts = [...code, ...sql];
  const fromStdin = texts.length === 0 && call.stdin !== undefined;
  const reads =
    readonly ||
    (!fromStdin &&
      texts.length > 0 &&
      texts.every((t) => t.static && splitStatements(t.text).every((st) => classifyStatement(st).verb === "select")));
  emitRead(call, [db]);
  if (!reads) emitWrite(call, [db]);
};

export const SQL_HANDLERS: Readonly<Record<string, Handler>> = {
  sqlite3,
  sqlite: sqlite3,
  psql: database(PSQL),
  mysql: database(MYSQL),
  mariadb: database(MYSQL),
  mongosh: database(MONGOSH),
  mongo: database(MONGOSH),
};
