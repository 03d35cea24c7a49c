import { describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ACTION_CLASSES } from "../../core/action.ts";
import { MemnoxError } from "../../core/errors.ts";
import type { VerbTable } from "../types.ts";
import { git as buildGit } from "./git.ts";
import {
  actionsOfClass,
  checkVerbTables,
  registeredNames,
  tableOf,
  verbTable,
  verbTables,
  verifyTable,
} from "./index.ts";
import { actionPattern, matchTable, renderAction, wild } from "./match.ts";

/** `UPDATE_FIXTURES=1 bun test src/resolve/tables` rewrites the fixture; the diff is the review. */
const FIXTURE = join(import.meta.dir, "..", "..", "..", "fixtures", "resolve", "verb-classes.json");

/** Per CLI, per class, the action names (patterns for templated entries) a rule can name. */
function classes(tables: readonly VerbTable[]): Record<string, Record<string, string[]>> {
  const out: Record<string, Record<string, string[]>> = {};
  for (const t of tables) {
    const byClass: Record<string, string[]> = {};
    for (const cls of ACTION_CLASSES) {
      const names = t.verbs.filter((e) => e.class === cls).map((e) => actionPattern(e));
      if (names.length > 0) byClass[cls] = [...new Set(names)].sort();
    }
    out[t.cli] = byClass;
  }
  return out;
}

describe("the compiled-in verb tables", () => {
  test("the nineteen CLIs the spec names, each with its help entry", () => {
    const names = verbTables().map((t) => t.cli);
    expect(names.sort()).toEqual(
      "aws az docker fly gcloud gh git heroku kubectl mongosh mysql netlify npm playwright psql railway stripe terraform vercel"
        .split(" ")
        .sort(),
    );
    for (const t of verbTables()) {
      expect(t.verbs.some((e) => e.action === `${t.cli}.help`)).toBe(true);
      for (const e of t.verbs) expect(e.action.startsWith(`${t.cli}.`), e.action).toBe(true);
    }
  });

  test("every table matches its recorded checksum", () => {
    const bad = checkVerbTables().filter((r) => !r.ok);
    expect(bad.map((r) => `${r.cli}: record ${r.actual}`)).toEqual([]);
  });

  test("a table changed without its checksum refuses to load, naming the table and the fix", () => {
    const git = buildGit();
    const quietlyMoved: VerbTable = {
      ...git,
      verbs: git.verbs.map((e) => (e.action === "git.reset-hard" ? { ...e, class: "read" as const } : e)),
    };
    expect(() => verifyTable(quietlyMoved)).toThrow(MemnoxError);
    expect(() => verifyTable(quietlyMoved)).toThrow(/verb table for `git` does not match its recorded checksum/);
    expect(() => verifyTable(git)).not.toThrow();
  });

  test("the classes each table holds, so a review sees any class move (fixtures/resolve/verb-classes.json)", () => {
    const now = classes(verbTables());
    if (process.env.UPDATE_FIXTURES) writeFileSync(FIXTURE, `${JSON.stringify(now, null, 2)}\n`);
    const recorded = JSON.parse(readFileSync(FIXTURE, "utf8")) as unknown;
    expect(now).toEqual(recorded as Record<string, Record<string, string[]>>);
  });

  test("the destructive and communication names a baseline is generated from", () => {
    const destructive = actionsOfClass("destructive");
    const outward = actionsOfClass("communication");
    for (const n of [
      "git.push-force",
      "git.reset-hard",
      "psql.drop",
      "aws.*-delete-*",
      "kubectl.delete",
      "gh.repo-delete",
    ]) {
      expect(destructive).toContain(n);
    }
    for (const n of ["gh.pr-merge", "git.push", "vercel.deploy-prod", "railway.up", "npm.publish"])
      expect(outward).toContain(n);
    expect(destructive.some((n) => outward.includes(n))).toBe(false);
    expect(actionsOfClass("read").some((n) => destructive.includes(n))).toBe(false);
  });

  test("aliases find their table", () => {
    expect(verbTable("flyctl")?.cli).toBe("fly");
    expect(verbTable("mongo")?.cli).toBe("mongosh");
    expect(verbTable("tofu")?.cli).toBe("terraform");
    expect(verbTable("frobnicate")).toBeUndefined();
  });

  test("the registry answers to exactly each table's own name and aliases", () => {
    for (const [t, names] of registeredNames()) expect(names).toEqual([t.cli, ...(t.aliases ?? [])]);
  });

  test("a table is built once, on first use, and the same table is returned after", () => {
    expect(verbTable("heroku")).toBe(verbTable("heroku") as VerbTable);
    // git's own reader imports its builder: it gets the registry's copy, not a second unchecked one.
    expect(tableOf(buildGit)).toBe(verbTable("git") as VerbTable);
  });
});

describe("the word matcher", () => {
  const lit = (text: string) => ({ text, static: true, glob: false });
  const match = (cli: string, line: string) => {
    const t = verbTable(cli);
    return t ? matchTable(t, line.split(" ").map(lit))?.action : undefined;
  };

  test("the most specific path wins, then options, then the heavier class", () => {
    expect(match("aws", "s3 rm s3://b")).toBe("aws.s3-rm");
    expect(match("aws", "iam delete-user --user-name x")).toBe("aws.iam-delete-user");
    expect(match("stripe", "refunds create")).toBe("stripe.refunds-create");
    expect(match("stripe", "customers create")).toBe("stripe.customers-create");
    expect(match("git", "clean -n -f")).toBe("git.clean");
  });

  test("`**` absorbs group words and the earliest verb wins", () => {
    expect(match("gcloud", "compute instances delete list-vm")).toBe("gcloud.compute-instances-delete");
    expect(match("gcloud", "run services list")).toBe("gcloud.run-services-list");
  });

  test("a word unfit for an action name is not a name", () => {
    expect(renderAction("aws.{1}-{2}", ["s3", "rm"])).toBe("aws.s3-rm");
    expect(renderAction("aws.{1}-{2}", ["$(x)", "rm"])).toBeUndefined();
    expect(actionPattern({ action: "aws.{1}-{2}", path: ["*", "delete-*"] })).toBe("aws.*-delete-*");
    expect(actionPattern({ action: "gcloud.{path}", path: ["**", "delete"] })).toBe("gcloud.*-delete");
  });

  test("wildcards", () => {
    expect(wild("delete-*", "delete-user")).toBe(true);
    expect(wild("delete-*", "describe-user")).toBe(false);
    expect(wild("*source=/,*", "type=bind,source=/,target=/h")).toBe(true);
    expect(wild("a*b*c", "aXbYc")).toBe(true);
    expect(wild("a*b*c", "aXcYb")).toBe(false);
  });
});
