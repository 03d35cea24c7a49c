// psql, mysql and mongosh: the statement decides, so the "subcommand" is the statement's verb.
import type { ActionClass } from "../../core/action.ts";
import type { VerbEntry, VerbTable } from "../types.ts";
import { decided, help } from "./entry.ts";

/** Statement verbs shared by every database CLI, and by the generic `database.*` actions. */
export const SQL_VERBS: readonly (readonly [string, ActionClass, string])[] = [
  ["select", "read", "SELECT, SHOW, EXPLAIN, DESCRIBE, TABLE, VALUES"],
  ["insert", "write", "INSERT, REPLACE, LOAD DATA"],
  ["update", "write", "UPDATE, MERGE, UPSERT"],
  ["delete", "destructive", "DELETE"],
  ["truncate", "destructive", "TRUNCATE"],
  ["drop", "destructive", "DROP, or ALTER … DROP"],
  ["create", "write", "CREATE"],
  ["alter", "write", "ALTER, RENAME, COMMENT"],
  ["grant", "write", "GRANT"],
  ["revoke", "write", "REVOKE"],
  ["copy", "write", "COPY, \\copy"],
  ["session", "read", "BEGIN, COMMIT, ROLLBACK, SET, USE, and meta-commands that only show"],
  ["maintenance", "write", "VACUUM, ANALYZE, REINDEX, CLUSTER, OPTIMIZE"],
  ["call", "unknown", "CALL, DO, EXECUTE: code the statement does not show"],
  ["script", "unknown", "statements read from a file or a pipe"],
  ["interactive", "unknown", "a session with no statement given"],
];

const MONGO_VERBS: readonly (readonly [string, ActionClass, string])[] = [
  ["find", "read", "find, findOne, aggregate, count, distinct, show, use"],
  ["insert", "write", "insertOne, insertMany, insert"],
  ["update", "write", "updateOne, updateMany, replaceOne, findOneAndUpdate, bulkWrite"],
  ["delete", "destructive", "deleteOne, deleteMany, remove, findOneAndDelete"],
  ["drop", "destructive", "drop, dropDatabase, dropIndex, dropUser"],
  ["create", "write", "createCollection, createIndex, createUser"],
  ["alter", "write", "renameCollection, collMod"],
  ["command", "unknown", "runCommand, adminCommand, eval"],
  ["script", "unknown", "a script file or a pipe"],
  ["interactive", "unknown", "a session with no --eval"],
];

function entries(cli: string, verbs: readonly (readonly [string, ActionClass, string])[]): VerbEntry[] {
  return verbs.map(([verb, cls, when]) => decided(verb, `${cli}.${verb}`, cls, when));
}

export const psql = (): VerbTable => ({
  cli: "psql",
  description: "PostgreSQL client: classed by the SQL it is given",
  verbs: [help("psql"), ...entries("psql", SQL_VERBS)],
});

export const mysql = (): VerbTable => ({
  cli: "mysql",
  description: "MySQL/MariaDB client: classed by the SQL it is given",
  aliases: ["mariadb"],
  verbs: [help("mysql"), ...entries("mysql", SQL_VERBS)],
});

export const mongosh = (): VerbTable => ({
  cli: "mongosh",
  description: "MongoDB shell: classed by the calls in --eval",
  aliases: ["mongo"],
  verbs: [help("mongosh"), ...entries("mongosh", MONGO_VERBS)],
});

/** What `database.<verb>` means for a Mongo verb, so one rule covers every database CLI. */
export const MONGO_TO_SQL: Readonly<Record<string, string>> = {
  find: "select",
  insert: "insert",
  update: "update",
  delete: "delete",
  drop: "drop",
  create: "create",
  alter: "alter",
  command: "call",
  script: "script",
  interactive: "interactive",
};
