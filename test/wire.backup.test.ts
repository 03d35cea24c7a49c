// Backups before the first change, and the two ways back, on real files in a temporary directory.
import { describe, expect, test } from "bun:test";
import { existsSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { readBackups, restoreFromBackup, rewriteWithBackup, type Strip, type Transform } from "../src/wire/backup.ts";
import { tempDir } from "./support/index.ts";

const NOW = Date.parse("2026-11-30T12:00:00.000Z");

function dirs() {
  const dir = tempDir("memnox-backup", { "conf/app.json": { content: '{"a": 1}\n', mode: 0o640 } });
  return { dir, file: dir.join("conf/app.json"), backupDir: dir.join("memnox/backup") };
}

const append =
  (line: string): Transform =>
  (text) =>
    text === undefined ? undefined : `${text}${line}\n`;

const dropLine =
  (line: string): Strip =>
  (text) =>
    text.includes(`${line}\n`) ? text.replace(`${line}\n`, "") : undefined;

function rewrite(backupDir: string, path: string, owner: string, transform: Transform) {
  return rewriteWithBackup({ backupDir, path, owner, note: "test", nowMs: NOW, transform });
}

function restore(backupDir: string, path: string, owners: string[], strip: Strip) {
  return restoreFromBackup({ backupDir, path, owners, strip });
}

describe("backups", () => {
  test("the first change copies the original (0600) and records its hash and what memnox wrote", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    const r = rewrite(backupDir, file, "wrap", append("// one"));
    expect(r.changed).toBe(true);
    expect(readFileSync(r.backup as string, "utf8")).toBe('{"a": 1}\n');
    expect(statSync(r.backup as string).mode & 0o777).toBe(0o600);
    expect(statSync(backupDir).mode & 0o777).toBe(0o700);
    expect(statSync(file).mode & 0o777).toBe(0o640);
    const [entry] = readBackups(backupDir);
    expect(entry?.owners).toEqual({ wrap: "test" });
    expect(entry?.original).toMatch(/^sha256:[0-9a-f]{64}$/);
    expect(entry?.written).not.toBe(entry?.original);
    expect(entry?.at).toBe("2026-11-30T12:00:00.000Z");
    const again = rewrite(backupDir, file, "wrap", append("// two"));
    expect(again.backup).toBe(r.backup);
    expect(readFileSync(r.backup as string, "utf8")).toBe('{"a": 1}\n');
  });

  test("restores byte for byte while the file is exactly what memnox wrote, and drops the copy", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    const r = rewrite(backupDir, file, "wrap", append("// one"));
    rewrite(backupDir, file, "wrap", append("// two"));
    const back = restore(backupDir, file, ["wrap"], () => {
      throw new Error("a pristine file is restored from the copy, not stripped");
    });
    expect(back).toEqual({ path: file, outcome: "restored", backup: null });
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n');
    expect(existsSync(r.backup as string)).toBe(false);
    expect(readBackups(backupDir)).toEqual([]);
  });

  test("a change by someone else between memnox's writes means only removal can undo, forever after", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    const r = rewrite(backupDir, file, "wrap", append("// one"));
    writeFileSync(file, `${readFileSync(file, "utf8")}// theirs\n`);
    rewrite(backupDir, file, "wrap", append("// two"));
    expect(readBackups(backupDir)[0]?.diverged).toBe(true);
    const back = restore(backupDir, file, ["wrap"], (text) => text.replace("// one\n", "").replace("// two\n", ""));
    expect(back).toEqual({ path: file, outcome: "removed", backup: r.backup });
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n// theirs\n');
    expect(readFileSync(r.backup as string, "utf8")).toBe('{"a": 1}\n');
  });

  test("with two parts of memnox in one file, the first to leave removes its entries and the last restores the bytes", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    rewrite(backupDir, file, "wrap", append("// wrap"));
    rewrite(backupDir, file, "session", append("// session"));
    expect(restore(backupDir, file, ["wrap"], dropLine("// wrap")).outcome).toBe("removed");
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n// session\n');
    expect(readBackups(backupDir)[0]?.owners).toEqual({ session: "test" });
    expect(restore(backupDir, file, ["session"], dropLine("// session")).outcome).toBe("restored");
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n');
  });

  test("nothing of memnox's in the file: unchanged, and the entry is released", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    rewrite(backupDir, file, "wrap", append("// wrap"));
    writeFileSync(file, '{"a": 2}\n');
    expect(restore(backupDir, file, ["wrap"], dropLine("// wrap")).outcome).toBe("unchanged");
    expect(readFileSync(file, "utf8")).toBe('{"a": 2}\n');
    expect(readBackups(backupDir)).toEqual([]);
  });

  test("a write by someone else while memnox edits is not lost: memnox reads again, and backs up what it found", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    let attempts = 0;
    rewrite(backupDir, file, "wrap", (text) => {
      attempts++;
      if (attempts === 1) writeFileSync(file, '{"a": 1, "b": 2}\n');
      return `${text}// wrap\n`;
    });
    expect(attempts).toBe(2);
    expect(readFileSync(file, "utf8")).toBe('{"a": 1, "b": 2}\n// wrap\n');
    expect(restore(backupDir, file, ["wrap"], dropLine("// wrap")).outcome).toBe("restored");
    expect(readFileSync(file, "utf8")).toBe('{"a": 1, "b": 2}\n');
  });

  test("a file memnox created is deleted on restore; one deleted since is reported missing", () => {
    const { dir, backupDir } = dirs();
    using _ = dir;
    const created = dir.join("conf/new.json");
    rewrite(backupDir, created, "session", () => "{}\n");
    expect(readBackups(backupDir)[0]?.copy).toBeNull();
    expect(restore(backupDir, created, ["session"], () => undefined).outcome).toBe("restored");
    expect(existsSync(created)).toBe(false);
    rewrite(backupDir, created, "session", () => "{}\n");
    rmSync(created);
    expect(restore(backupDir, created, ["session"], () => undefined).outcome).toBe("missing");
    expect(readBackups(backupDir)).toEqual([]);
  });

  test("writes go through a symlink to its target; the link stays a link", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    const link = dir.join("link.json");
    symlinkSync("conf/app.json", link);
    rewrite(backupDir, link, "wrap", append("// wrap"));
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n// wrap\n');
    expect(readBackups(backupDir)[0]?.target).toBe(file);
    expect(restore(backupDir, link, ["wrap"], dropLine("// wrap")).outcome).toBe("restored");
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n');
  });

  test("a file that is not UTF-8 is never rewritten", () => {
    const { dir, backupDir } = dirs();
    using _ = dir;
    const binary = dir.join("conf/latin1.json");
    const bytes = new Uint8Array([0x7b, 0x22, 0xe9, 0x22, 0x7d]);
    writeFileSync(binary, bytes);
    expect(() => rewrite(backupDir, binary, "wrap", append("x"))).toThrow(/is not UTF-8 text/);
    expect(new Uint8Array(readFileSync(binary))).toEqual(bytes);
  });

  test("a copy that no longer matches its hash is not restored from, and the file is left as it is", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    const r = rewrite(backupDir, file, "wrap", append("// wrap"));
    writeFileSync(r.backup as string, "tampered");
    expect(() => restore(backupDir, file, ["wrap"], dropLine("// wrap"))).toThrow(/no longer matches/);
    expect(readFileSync(file, "utf8")).toBe('{"a": 1}\n// wrap\n');
  });

  test("a manifest that is not memnox's is named, not overwritten", () => {
    const { dir, file, backupDir } = dirs();
    using _ = dir;
    rewrite(backupDir, file, "wrap", append("// wrap"));
    writeFileSync(join(backupDir, "manifest.json"), '{"something": "else"}');
    expect(() => rewrite(backupDir, file, "wrap", append("// two"))).toThrow(/is not a memnox backup manifest/);
    expect(readFileSync(join(backupDir, "manifest.json"), "utf8")).toBe('{"something": "else"}');
  });
});
