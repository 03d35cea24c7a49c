// SQL and Mongo shell text to statement verbs: `DROP TABLE users` is a drop of `users`.

export interface Statement {
  /** A verb of the database tables (`select`, `drop`…), or undefined when the statement is not recognised. */
  readonly verb: string | undefined;
  readonly objects: readonly string[];
  /** Shell commands the statement runs (`\! cmd`, `COPY … PROGRAM 'cmd'`). */
  readonly shell?: string;
  /** Files the statement writes (`\o file`, `\copy … to 'file'`). */
  readonly writes?: readonly string[];
  readonly text: string;
}

/** Statements split on `;` outside quotes, dollar quotes and comments; psql backslash commands end at a newline. */
export function splitStatements(sql: string): string[] {
  const out: string[] = [];
  let cur = "";
  let i = 0;
  const push = () => {
    if (cur.trim() !== "") out.push(cur.trim());
    cur = "";
  };
  while (i < sql.length) {
    const ch = sql[i] ?? "";
    if (ch === "-" && sql[i + 1] === "-") {
      const nl = sql.indexOf("\n", i);
      i = nl < 0 ? sql.length : nl;
    } else if (ch === "/" && sql[i + 1] === "*") {
      const end = sql.indexOf("*/", i + 2);
      i = end < 0 ? sql.length : end + 2;
    } else if (ch === "'" || ch === '"' || ch === "`") {
      const end = closingQuote(sql, i, ch);
      cur += sql.slice(i, end);
      i = end;
    } else if (ch === "$" && /^\$[A-Za-z_]*\$/.test(sql.slice(i, i + 64))) {
      const tag = /^\$[A-Za-z_]*\$/.exec(sql.slice(i))?.[0] ?? "$$";
      const end = sql.indexOf(tag, i + tag.length);
      const stop = end < 0 ? sql.length : end + tag.length;
      cur += sql.slice(i, stop);
      i = stop;
    } else if (ch === "\\" && cur.trim() === "") {
      push();
      const nl = sql.indexOf("\n", i);
      out.push(sql.slice(i, nl < 0 ? sql.length : nl).trim());
      i = nl < 0 ? sql.length : nl;
    } else if (ch === ";") {
      push();
      i++;
    } else {
      cur += ch;
      i++;
    }
  }
  push();
  return out;
}

function closingQuote(s: string, start: number, q: string): number {
  let i = start + 1;
  while (i < s.length) {
    if (s[i] === "\\" && q !== "`") i += 2;
    else if (s[i] === q && s[i + 1] === q) i += 2;
    else if (s[i] === q) return i + 1;
    else i++;
  }
  return s.length;
}

const FIRST: Readonly<Record<string, string>> = {
  SELECT: "select",
  SHOW: "select",
  DESCRIBE: "select",
  DESC: "select",
  TABLE: "select",
  VALUES: "select",
  HELP: "select",
  INSERT: "insert",
  REPLACE: "insert",
  LOAD: "insert",
  UPDATE: "update",
  MERGE: "update",
  UPSERT: "update",
  DELETE: "delete",
  TRUNCATE: "truncate",
  DROP: "drop",
  CREATE: "create",
  ALTER: "alter",
  RENAME: "alter",
  COMMENT: "alter",
  GRANT: "grant",
  REVOKE: "revoke",
  COPY: "copy",
  BEGIN: "session",
  START: "session",
  COMMIT: "session",
  END: "session",
  ROLLBACK: "session",
  SAVEPOINT: "session",
  RELEASE: "session",
  SET: "session",
  RESET: "session",
  USE: "session",
  LISTEN: "session",
  UNLISTEN: "session",
  DISCARD: "session",
  DEALLOCATE: "session",
  PREPARE: "session",
  LOCK: "session",
  VACUUM: "maintenance",
  ANALYZE: "maintenance",
  ANALYSE: "maintenance",
  REINDEX: "maintenance",
  CLUSTER: "maintenance",
  OPTIMIZE: "maintenance",
  REFRESH: "maintenance",
  CHECKPOINT: "maintenance",
  CALL: "call",
  DO: "call",
  EXECUTE: "call",
  EXEC: "call",
  SOURCE: "script",
};

const HEAVY = ["drop", "truncate", "delete", "update", "insert"];
const IDENT = `("[^"]+"|\`[^\`]+\`|[A-Za-z_][\\w$.]*)`;

function objectAfter(text: string, re: string): string[] {
  const m = new RegExp(re + IDENT, "i").exec(text.slice(0, 4096));
  return m?.[1] ? [m[1].replace(/^["`]|["`]$/g, "")] : [];
}

function objects(verb: string, text: string): string[] {
  const kinds =
    "(?:TABLE|DATABASE|SCHEMA|VIEW|MATERIALIZED VIEW|INDEX|SEQUENCE|FUNCTION|PROCEDURE|TRIGGER|TYPE|ROLE|USER|EXTENSION|COLLECTION)";
  switch (verb) {
    case "drop":
      return objectAfter(text, `\\b(?:DROP|ALTER)\\s+(?:\\w+\\s+)*?${kinds}\\s+(?:IF\\s+EXISTS\\s+)?`);
    case "delete":
      return objectAfter(text, "\\bDELETE\\s+FROM\\s+(?:ONLY\\s+)?");
    case "truncate":
      return objectAfter(text, "\\bTRUNCATE\\s+(?:TABLE\\s+)?(?:ONLY\\s+)?");
    case "update":
      return objectAfter(text, "\\bUPDATE\\s+(?:ONLY\\s+)?");
    case "insert":
      return objectAfter(text, "\\b(?:INSERT|REPLACE)\\s+(?:IGNORE\\s+)?INTO\\s+");
    case "select":
    case "copy":
      return objectAfter(text, verb === "copy" ? "\\bCOPY\\s+" : "\\bFROM\\s+");
    case "create":
    case "alter":
      return objectAfter(
        text,
        `\\b(?:CREATE|ALTER)\\s+(?:OR\\s+REPLACE\\s+)?(?:\\w+\\s+)*?${kinds}\\s+(?:IF\\s+(?:NOT\\s+)?EXISTS\\s+)?`,
      );
    default:
      return [];
  }
}

export function classifyStatement(text: string): Statement {
  if (text.startsWith("\\")) return meta(text);
  const words: readonly string[] = text.toUpperCase().match(/[A-Z_]+/g) ?? [];
  let verb = FIRST[words[0] ?? ""];
  if (words[0] === "EXPLAIN") {
    const inner = text.replace(/^\s*EXPLAIN\s+(?:\([^)]*\)\s*)?/i, "");
    if (/^ANALY[SZ]E\b/i.test(inner)) return classifyStatement(inner.replace(/^ANALY[SZ]E\s+(?:VERBOSE\s+)?/i, ""));
    verb = "select";
  }
  if (words[0] === "WITH") verb = HEAVY.find((h) => words.includes(h.toUpperCase())) ?? "select";
  if (words[0] === "ALTER" && words.includes("DROP")) verb = "drop";
  if (verb === "copy") {
    const program = /\bPROGRAM\s+'((?:''|[^'])*)'/i.exec(text)?.[1];
    if (program !== undefined) return { verb, objects: objects(verb, text), shell: program.replace(/''/g, "'"), text };
  }
  if (verb === undefined) return { verb, objects: [], text };
  return { verb, objects: objects(verb, text), text };
}

/** psql backslash commands: most only show; `\!` runs a shell, `\i` a file, `\o` and `\copy … to` write. */
function meta(text: string): Statement {
  const cmd = /^\\([a-zA-Z!?]+)/.exec(text)?.[1] ?? "";
  const arg = text.slice(cmd.length + 1).trim();
  if (cmd === "!") return { verb: "session", objects: [], ...(arg ? { shell: arg } : {}), text };
  if (cmd === "i" || cmd === "ir" || cmd === "include" || cmd === "include_relative")
    return { verb: "script", objects: [arg], text };
  if (cmd === "o" || cmd === "out") return { verb: "session", objects: [], ...(arg ? { writes: [arg] } : {}), text };
  if (cmd === "copy") {
    const to = /\bto\s+'([^']+)'/i.exec(arg)?.[1];
    return { verb: "copy", objects: objectAfter(arg, ""), ...(to ? { writes: [to] } : {}), text };
  }
  if (cmd === "gexec") return { verb: "call", objects: [], text };
  return { verb: "session", objects: [], text };
}

const MONGO_METHODS: Readonly<Record<string, string>> = {
  ...Object.fromEntries(
    "find findOne aggregate count countDocuments estimatedDocumentCount distinct getCollectionNames getCollectionInfos stats explain getIndexes listCollections hello isMaster serverStatus version getName"
      .split(" ")
      .map((m) => [m, "find"]),
  ),
  ...Object.fromEntries("insert insertOne insertMany save".split(" ").map((m) => [m, "insert"])),
  ...Object.fromEntries(
    "update updateOne updateMany replaceOne findOneAndUpdate findOneAndReplace findAndModify bulkWrite"
      .split(" ")
      .map((m) => [m, "update"]),
  ),
  ...Object.fromEntries("deleteOne deleteMany remove findOneAndDelete".split(" ").map((m) => [m, "delete"])),
  ...Object.fromEntries(
    "drop dropDatabase dropIndex dropIndexes dropUser dropAllUsers dropRole".split(" ").map((m) => [m, "drop"]),
  ),
  ...Object.fromEntries(
    "createCollection createIndex createIndexes createUser createRole createView".split(" ").map((m) => [m, "create"]),
  ),
  renameCollection: "alter",
  runCommand: "command",
  adminCommand: "command",
  eval: "command",
  load: "command",
};

/** Mongo shell calls (`db.users.drop()`), each a statement; `show` and `use` only look. */
export function classifyMongo(js: string): Statement[] {
  const out: Statement[] = [];
  for (const m of js.matchAll(/(?:\bdb\.(?:getCollection\(\s*['"]([^'"]+)['"]\s*\)|(\w+))\.)?\b(\w+)\s*\(/g)) {
    const method = m[3] ?? "";
    const verb = MONGO_METHODS[method];
    if (!verb) continue;
    const coll = m[1] ?? (m[2] && MONGO_METHODS[m[2]] === undefined ? m[2] : undefined);
    out.push({ verb, objects: coll ? [coll] : [], text: m[0] });
  }
  if (/^\s*(show|use)\b/m.test(js)) out.push({ verb: "find", objects: [], text: "show" });
  if (out.length === 0) out.push({ verb: undefined, objects: [], text: js });
  return out;
}
