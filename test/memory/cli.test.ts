import { afterAll, describe, expect, test } from "bun:test";
import { cpSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { MemnoxError } from "../../src/core/errors.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, runBinary, testContext } from "../support/index.ts";
import { FIXTURES } from "./helpers.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

async function cli(args: string[], env: Record<string, string> = {}, stdin?: string) {
  const { ctx, io } = testContext(home, { args, env, ...(stdin !== undefined ? { stdin } : {}) });
  const code = await run(ctx);
  return { code, out: io.stdout(), err: io.stderr() };
}

async function json<T>(args: string[], env: Record<string, string> = {}): Promise<T> {
  const r = await cli([...args, "--json"], env);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as T;
}

describe("memnox memory", () => {
  test("the default store is ~/.memnox/memory; --dir before or after the subcommand, or MEMNOX_MEMORY_DIR, moves it", async () => {
    const w = await json<{ file_path: string }>([
      "memory",
      "write",
      "--type",
      "preference",
      "--title",
      "Deploy on Fridays",
      "--body",
      "Fridays only.",
      "--tags",
      "deploy",
    ]);
    expect(w.file_path).toBe(join(home.memnoxHome, "memory/docs/global/preferences/deploy-on-fridays.md"));
    const other = home.join("elsewhere");
    await json(["memory", "--dir", other, "write", "--type", "entity", "--title", "Kafka", "--body", "Queue."]);
    const a = await json<{ hits: { slug: string }[] }>(["memory", "recall", "kafka", "--dir", other]);
    const b = await json<{ hits: { slug: string }[] }>(["memory", "recall", "kafka"], { MEMNOX_MEMORY_DIR: other });
    const c = await json<{ hits: { slug: string }[] }>(["memory", "recall", "kafka"]);
    expect([a.hits.length, b.hits.length, c.hits.length]).toEqual([1, 1, 0]);
  });

  test("help names every subcommand with a space before its description, however long the name", async () => {
    const r = await cli(["help", "memory"]);
    expect(r.code).toBe(0);
    for (const name of ["remember", "ingest-transcript", "clear-transcripts", "serve-mcp"])
      expect(r.out).toMatch(new RegExp(`^  ${name} +[a-z]`, "m"));
  });

  test("backlinks answers what mentions a page", async () => {
    const dir = home.join("links-store");
    await json(["memory", "--dir", dir, "write", "--type", "entity", "--title", "Postgres", "--body", "The database."]);
    const body = "Migrations run against [[postgres]].";
    await json(["memory", "--dir", dir, "write", "--type", "procedure", "--title", "Migrate", "--body", body]);
    const r = await json<{ backlinks: { slug: string; rel: string }[] }>([
      "memory",
      "--dir",
      dir,
      "backlinks",
      "postgres",
    ]);
    expect(r.backlinks.map((b) => [b.slug, b.rel])).toEqual([["migrate", "mentions"]]);
  });

  test("a refused operation is an error with its remedy, exit 1, and nothing on stdout", async () => {
    const { ctx, io } = testContext(home, {
      args: [
        "memory",
        "write",
        "--type",
        "policy",
        "--title",
        "No PII",
        "--body",
        "x",
        "--scope",
        "project",
        "--project-id",
        "0123456789abcdef01234567",
      ],
    });
    const err = await run(ctx).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(MemnoxError);
    expect((err as MemnoxError).exitCode).toBe(1);
    expect((err as MemnoxError).hint).toContain("memnox memory types enable policy");
    expect(io.stdout()).toBe("");
  });

  test("types, task recall and repeated --question through the command line", async () => {
    const dir = ["--dir", home.join("task-store")];
    await json(["memory", "types", "enable", "decision", "--project-id", "0123456789abcdef01234567", ...dir]);
    await json([
      "memory",
      "write",
      "--type",
      "decision",
      "--title",
      "Choose Kafka",
      "--body",
      "Kafka for ordering.",
      "--scope",
      "project",
      "--project-id",
      "0123456789abcdef01234567",
      ...dir,
    ]);
    const t = await json<{ source_pages: { slug: string }[]; unanswered_questions: string[]; context: string }>([
      "memory",
      "recall",
      "fix the queue",
      "--question",
      "kafka ordering",
      "--question",
      "gravel",
      "--project-id",
      "0123456789abcdef01234567",
      ...dir,
    ]);
    expect(t.source_pages.map((s) => s.slug)).toEqual(["choose-kafka"]);
    expect(t.unanswered_questions).toEqual(["gravel"]);
    expect(t.context).toContain('Questions: ["kafka ordering", "gravel"]');
    const types = await json<{ name: string; kind: string }[]>([
      "memory",
      "types",
      "list",
      "--project-id",
      "0123456789abcdef01234567",
      ...dir,
    ]);
    expect(types.at(-1)).toMatchObject({ name: "decision", kind: "catalogue" });
  });

  test("verify exits 1 when a check fails, and --require-* without --since finds no evidence", async () => {
    const dir = ["--dir", home.join("verify-store")];
    await json(["memory", "write", "--type", "entity", "--title", "Linker", "--body", "[[nowhere]]", ...dir]);
    const r = await cli(["memory", "verify", ...dir]);
    expect(r.code).toBe(1);
    expect(r.out).toContain("FAIL links-resolve: 1 broken links: linker");
    const bare = await cli(["memory", "verify", "--require-recall", "--json", ...dir]);
    expect(bare.code).toBe(1);
    expect(JSON.parse(bare.out)).toMatchObject({ ok: false, recall_evidence: false });
  });

  test("an existing memex store keeps working: read, rebuilt, written in place, mem.db untouched", async () => {
    const store = home.join("memex-copy");
    cpSync(join(FIXTURES, "memex-store"), store, { recursive: true });
    const dir = ["--dir", store];
    const rebuilt = await json<{ nodes_indexed: number; nodes_errored: number }>(["memory", "rebuild-index", ...dir]);
    expect(rebuilt).toMatchObject({ nodes_indexed: 3, nodes_errored: 0 });
    expect((await cli(["memory", "verify", ...dir])).code).toBe(0);
    const hits = await json<{ hits: { slug: string; project_label: string | null }[] }>([
      "memory",
      "recall",
      "fridays",
      ...dir,
    ]);
    expect(hits.hits).toMatchObject([{ slug: "deploy-on-fridays", project_label: "shop" }]);
    const w = await json<{ file_path: string }>([
      "memory",
      "write",
      "--type",
      "preference",
      "--title",
      "Release days",
      "--body",
      "Tuesdays too.",
      "--scope",
      "project",
      "--project-id",
      "7c1f0a2b3c4d5e6f7a8b9c0d",
      ...dir,
    ]);
    expect(w.file_path).toBe(join(store, "docs/projects/git-shop/preferences/release-days.md"));
    await json([
      "memory",
      "write",
      "--type",
      "entity",
      "--title",
      "Ruff linter",
      "--slug",
      "ruff-linter",
      "--body",
      "Fast.",
      ...dir,
    ]);
    const page = readFileSync(join(store, "docs/global/entities/ruff-linter.md"), "utf8");
    expect(page).toContain('id: "7f3c2a9e-1b4d-4c6e-9a8f-0d2e4b6c8a1f"');
    expect(page).toContain("access_count: 4\n");
    expect(page).toContain('created: "2026-09-15T10:00:00Z"');
    expect(readFileSync(join(store, "mem.db"))).toEqual(readFileSync(join(FIXTURES, "memex-store/mem.db")));
  });

  test("the compiled binary writes, recalls and verifies", async () => {
    const env = home.env({ MEMNOX_MEMORY_DIR: home.join("binary-store") });
    const w = await runBinary(
      "memnox",
      ["memory", "write", "--type", "entity", "--title", "Heron", "--body", "A bird.", "--json"],
      { env },
    );
    expect(w.code).toBe(0);
    const r = await runBinary("memnox", ["memory", "recall", "bird", "--json"], { env });
    expect(JSON.parse(r.stdout).hits[0].slug).toBe("heron");
    const bad = await runBinary("memnox", ["memory", "forget", "missing"], { env });
    expect([bad.code, bad.stdout, bad.stderr]).toEqual([
      1,
      "",
      "memnox: no wiki page for slug: 'missing' (memnox memory recall finds slugs)\n",
    ]);
    expect((await runBinary("memnox", ["memory", "verify"], { env })).code).toBe(0);
  });
});
