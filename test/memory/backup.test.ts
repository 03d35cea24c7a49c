import { describe, expect, test } from "bun:test";
import { existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ingestTranscript } from "../../src/memory/pages/transcripts.ts";
import { backup, restore } from "../../src/memory/portability/backup.ts";
import { readTarGz, tarGz } from "../../src/memory/portability/tar.ts";
import { recall } from "../../src/memory/recall/recall.ts";
import { tempDir } from "../support/index.ts";
import { FIXTURES, memStore, put } from "./helpers.ts";

const enc = new TextEncoder();

function tree(dir: string): string[] {
  const out: string[] = [];
  const walk = (d: string, prefix: string) => {
    for (const e of readdirSync(d, { withFileTypes: true })) {
      if (e.isDirectory()) walk(join(d, e.name), `${prefix}${e.name}/`);
      else out.push(`${prefix}${e.name}`);
    }
  };
  walk(dir, "");
  return out.sort();
}

describe("backup and restore", () => {
  test("a backup restores elsewhere with pages, transcripts and access counts; the index is rebuilt", () => {
    using a = memStore();
    using b = memStore();
    using out = tempDir("memnox-bak");
    put(a.store, { title: "Kafka", body: "We chose Kafka." });
    recall(a.store, { query: "kafka" });
    ingestTranscript(a.store, { sessionId: "s1", jsonl: '{"role":"user","content":"hi","turn":1}', source: "t" });
    const archive = join(out.path, "memory.tar.gz");
    const r = backup(a.store, archive);
    expect(r.file_counts).toMatchObject({ pages: 2, transcripts: 2 });
    const members = readTarGz(readFileSync(archive)).map((m) => m.path);
    expect(members).toContain("docs/global/entities/kafka.md");
    expect(members).toContain("memnox-index.db");
    const restored = restore(b.store, archive);
    expect(restored).toMatchObject({ restored: true, index_rebuilt: true, warnings: [], previous_backup_dir: null });
    const hit = recall(b.store, { query: "kafka", recordAccess: false }).hits[0];
    expect(hit?.slug).toBe("kafka");
    expect(b.store.index().get("global", "", "kafka")?.access_count).toBe(1);
    expect(hit?.file_path).toBe(join(b.dir.path, "docs/global/entities/kafka.md"));
  });

  test("restore moves the current data aside and never merges or deletes it", () => {
    using a = memStore();
    using b = memStore();
    using out = tempDir("memnox-bak");
    put(a.store, { title: "From backup" });
    put(b.store, { title: "Already here" });
    const archive = join(out.path, "m.tar.gz");
    backup(a.store, archive);
    const r = restore(b.store, archive);
    expect(r.previous_backup_dir).toBe(join(b.dir.path, "pre-restore-20261130T120000Z"));
    expect(existsSync(join(r.previous_backup_dir ?? "", "docs/global/entities/already-here.md"))).toBe(true);
    expect(existsSync(join(b.dir.path, "docs/global/entities/already-here.md"))).toBe(false);
    expect(recall(b.store, { query: "backup" }).hits.map((h) => h.slug)).toEqual(["from-backup"]);
  });

  test.each([
    ["a parent-directory member", "docs/../../evil.md", /leaves the store/],
    ["an absolute member", "/tmp/evil.md", /not a relative path/],
    ["a member outside the backup's folders", "bin/memnox", /not part of a memory backup/],
  ])("%s is refused and nothing changes", (_, path, reason) => {
    using b = memStore();
    using out = tempDir("memnox-bak");
    put(b.store, { title: "Keep me" });
    const before = tree(b.dir.path);
    const archive = join(out.path, "evil.tar.gz");
    writeFileSync(
      archive,
      tarGz(
        [
          { path: "docs/global/entities/ok.md", data: enc.encode("x") },
          { path, data: enc.encode("x") },
        ],
        0,
      ),
    );
    expect(() => restore(b.store, archive)).toThrow(reason);
    expect(tree(b.dir.path)).toEqual(before);
  });

  test("a symlink member (made by the system tar) is refused and nothing changes", () => {
    using b = memStore();
    using src = tempDir("memnox-src", { "docs/global/entities/ok.md": "x" });
    using out = tempDir("memnox-bak");
    symlinkSync("/etc/passwd", join(src.path, "docs/global/entities/link.md"));
    const archive = join(out.path, "link.tar.gz");
    const r = Bun.spawnSync(["tar", "-czf", archive, "-C", src.path, "docs"]);
    expect(r.exitCode).toBe(0);
    put(b.store, { title: "Keep me" });
    const before = tree(b.dir.path);
    expect(() => restore(b.store, archive)).toThrow(/is a symlink, not a file/);
    expect(tree(b.dir.path)).toEqual(before);
  });

  test("an archive of a memex store made by the system tar restores, and memex's mem.db comes back untouched", () => {
    using b = memStore();
    using out = tempDir("memnox-bak");
    const archive = join(out.path, "memex.tar.gz");
    expect(
      Bun.spawnSync(["tar", "-czf", archive, "-C", join(FIXTURES, "memex-store"), "docs", "mem.db"]).exitCode,
    ).toBe(0);
    const r = restore(b.store, archive);
    expect(r.file_counts.pages).toBe(3);
    expect(readFileSync(join(b.dir.path, "mem.db"))).toEqual(readFileSync(join(FIXTURES, "memex-store/mem.db")));
    expect(recall(b.store, { query: "fridays" }).hits.map((h) => h.slug)).toEqual(["deploy-on-fridays"]);
  });

  test("a file that is not a gzip archive is refused", () => {
    using b = memStore();
    using out = tempDir("memnox-bak", { "x.tar.gz": "plain text" });
    expect(() => restore(b.store, out.join("x.tar.gz"))).toThrow(/not a memory backup/);
  });
});
