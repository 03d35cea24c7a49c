import { describe, expect, test } from "bun:test";
import { cpSync, existsSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { ingestTranscript } from "../../src/memory/pages/transcripts.ts";
import { backup, restore, verifyArchive } from "../../src/memory/portability/backup.ts";
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
    expect(restored).toMatchObject({
      restored: true,
      index_rebuilt: true,
      warnings: ["no previous data found to preserve"],
      previous_backup_dir: null,
    });
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
    // memex writes this manifest beside docs/ and mem.db; without one an archive is refused.
    using staging = tempDir("memnox-memex-archive");
    cpSync(join(FIXTURES, "memex-store"), staging.path, { recursive: true });
    writeFileSync(
      staging.join("manifest.json"),
      JSON.stringify({ version: "1.0", backed_up_at: "2026-09-20T10:00:00Z", memex_version: "0.4.0" }),
    );
    const args = ["tar", "-czf", archive, "-C", staging.path, "docs", "mem.db", "manifest.json"];
    expect(Bun.spawnSync(args).exitCode).toBe(0);
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

  test("the archive carries a manifest.json listing every file with its size and sha256, and the index database", () => {
    using a = memStore();
    using out = tempDir("memnox-bak");
    put(a.store, { title: "Kafka", body: "We chose Kafka." });
    const archive = join(out.path, "m.tar.gz");
    const r = backup(a.store, archive, { version: "9.9.9" });
    const members = readTarGz(readFileSync(archive));
    const manifest = JSON.parse(new TextDecoder().decode(members.find((m) => m.path === "manifest.json")?.data));
    expect(manifest).toMatchObject({ version: "1.0", backed_up_at: "2026-11-30T12:00:00Z", memnox_version: "9.9.9" });
    expect(manifest.file_counts).toMatchObject({ pages: 1, wiki: 1, index: 1, mem_db: 1 });
    const listed = (manifest.files as { path: string; sha256: string }[]).map((f) => f.path);
    expect(listed).toEqual(members.filter((m) => m.path !== "manifest.json").map((m) => m.path));
    expect(listed).toContain("memnox-index.db");
    expect(r.file_counts).toEqual(manifest.file_counts);
    const db = members.find((m) => m.path === "memnox-index.db");
    expect(new TextDecoder().decode(db?.data.subarray(0, 15))).toBe("SQLite format 3");
    const bare = join(out.path, "bare.tar.gz");
    backup(a.store, bare, { index: false });
    expect(readTarGz(readFileSync(bare)).map((m) => m.path)).not.toContain("memnox-index.db");
  });

  test("an archive without a manifest is refused by restore and failed by verify; the store is unchanged", () => {
    using b = memStore();
    using out = tempDir("memnox-bak");
    put(b.store, { title: "Already here" });
    const archive = join(out.path, "nomanifest.tar.gz");
    writeFileSync(archive, tarGz([{ path: "docs/global/entities/x.md", data: enc.encode("page") }], 0));
    const before = tree(b.dir.path);
    expect(() => restore(b.store, archive)).toThrow(/archive failed verification \(missing manifest or bad version\)/);
    expect(tree(b.dir.path)).toEqual(before);
    const v = verifyArchive(archive);
    expect(v.ok).toBe(false);
    expect(v.checks.find((c) => c.check === "manifest")).toMatchObject({ ok: false });
  });

  test("verify <archive> passes a good backup, and fails one whose file was altered after it was written", () => {
    using a = memStore();
    using b = memStore();
    using out = tempDir("memnox-bak");
    put(a.store, { title: "Kafka", body: "We chose Kafka." });
    const archive = join(out.path, "m.tar.gz");
    backup(a.store, archive);
    expect(verifyArchive(archive)).toMatchObject({ ok: true, version: "1.0" });
    const altered = readTarGz(readFileSync(archive)).map((m) =>
      m.path.endsWith("kafka.md") ? { path: m.path, data: enc.encode("tampered") } : { path: m.path, data: m.data },
    );
    const bad = join(out.path, "bad.tar.gz");
    writeFileSync(bad, tarGz(altered, 0));
    const v = verifyArchive(bad);
    expect(v.checks.find((c) => c.check === "files-match-manifest")).toMatchObject({ ok: false });
    const before = tree(b.dir.path);
    expect(() => restore(b.store, bad)).toThrow(/differs from the manifest/);
    expect(tree(b.dir.path)).toEqual(before);
  });
});
