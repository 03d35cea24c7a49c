// The memex guide's spellings a memex user brings: --data-dir, watch --poll-interval, export to stdout, [bm25]
// default_top_k, and the refusals it states for types in the wrong scope and a --since that is not a time.
import { afterAll, describe, expect, test } from "bun:test";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describeError } from "../../src/core/errors.ts";
import { run } from "../../src/seams/cli/index.ts";
import { fakeHome, testContext } from "../support/index.ts";

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

async function cli(args: string[]) {
  const { ctx, io } = testContext(home, { args });
  try {
    const code = await run(ctx);
    return { code, out: io.stdout(), err: io.stderr() };
  } catch (e) {
    return { code: -1, out: io.stdout(), err: describeError(e) };
  }
}

describe("memex spellings", () => {
  test("--data-dir names the store, before or after the subcommand", async () => {
    const dir = home.join("memex-style");
    expect(
      (await cli(["memory", "--data-dir", dir, "write", "--type", "entity", "--title", "Kafka", "--body", "x"])).code,
    ).toBe(0);
    expect(existsSync(join(dir, "docs/global/entities/kafka.md"))).toBe(true);
    const r = await cli(["memory", "recall", "kafka", "--data-dir", dir, "--json"]);
    expect(JSON.parse(r.out).hits.map((h: { slug: string }) => h.slug)).toEqual(["kafka"]);
  });

  test("watch takes --poll-interval; export without --output prints the document", async () => {
    const dir = home.join("watched");
    await cli(["memory", "--dir", dir, "write", "--type", "entity", "--title", "Redis", "--body", "x"]);
    expect((await cli(["memory", "--dir", dir, "watch", "--poll-interval", "5", "--once"])).code).toBe(0);
    const doc = JSON.parse((await cli(["memory", "--dir", dir, "export"])).out);
    expect(doc.nodes.map((n: { slug: string }) => n.slug)).toEqual(["redis"]);
  });

  test("[bm25] default_top_k in memex.toml is recall's default number of hits", async () => {
    const dir = home.join("topk");
    for (const t of ["Otter one", "Otter two", "Otter three"])
      await cli(["memory", "--dir", dir, "write", "--type", "entity", "--title", t, "--body", "otter"]);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "memex.toml"), "[bm25]\ndefault_top_k = 2\n");
    expect(JSON.parse((await cli(["memory", "--dir", dir, "recall", "otter", "--json"])).out).hits).toHaveLength(2);
    expect(
      JSON.parse((await cli(["memory", "--dir", dir, "recall", "otter", "--top-k", "3", "--json"])).out).hits,
    ).toHaveLength(3);
  });
});

describe("refusals the guide states", () => {
  test("types are project-scoped: enabling or adding one with --scope global is refused and makes nothing", async () => {
    const dir = home.join("types");
    for (const verb of ["enable", "add"]) {
      const r = await cli(["memory", "--dir", dir, "types", verb, "decision", "--scope", "global"]);
      expect(r.err).toContain(`types ${verb} needs project scope`);
    }
    expect(existsSync(join(dir, "docs/projects"))).toBe(false);
    const list = JSON.parse((await cli(["memory", "--dir", dir, "types", "list", "--scope", "global", "--json"])).out);
    expect(list.map((t: { name: string }) => t.name)).toEqual([
      "entity",
      "preference",
      "procedure",
      "summary",
      "episode",
    ]);
  });

  test("verify --since must be a time", async () => {
    const r = await cli(["memory", "--dir", home.join("v"), "verify", "--since", "2026-02-30"]);
    expect(r.err).toBe("--since is not a valid date: 2026-02-30");
  });
});
