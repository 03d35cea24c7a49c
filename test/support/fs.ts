// Temporary directories built from object literals, removed at scope end.
import { chmodSync, mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";

export type TreeEntry =
  | string
  | Uint8Array
  | { readonly content: string | Uint8Array; readonly mode?: number }
  | { readonly symlink: string };
export type Tree = Readonly<Record<string, TreeEntry>>;

export interface TempDir extends AsyncDisposable, Disposable {
  readonly path: string;
  join(...parts: string[]): string;
}

/** `base`: where it is made, the system temp directory unless said (a kernel wall's test keeps homes out of it). */
export function tempDir(prefix = "memnox-test", tree: Tree = {}, base = tmpdir()): TempDir {
  mkdirSync(base, { recursive: true });
  const path = realpathSync(mkdtempSync(join(base, `${prefix}-`)));
  writeTree(path, tree);
  const dispose = () => rmSync(path, { recursive: true, force: true });
  return {
    path,
    join: (...parts) => join(path, ...parts),
    [Symbol.dispose]: dispose,
    [Symbol.asyncDispose]: async () => dispose(),
  };
}

export function writeTree(root: string, tree: Tree): void {
  for (const [rel, entry] of Object.entries(tree)) {
    const file = join(root, rel);
    mkdirSync(dirname(file), { recursive: true });
    if (typeof entry === "string" || entry instanceof Uint8Array) {
      writeFileSync(file, entry);
    } else if ("symlink" in entry) {
      symlinkSync(entry.symlink, file);
    } else {
      writeFileSync(file, entry.content);
      if (entry.mode !== undefined) chmodSync(file, entry.mode);
    }
  }
}
