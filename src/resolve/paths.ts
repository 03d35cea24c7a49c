// Paths made absolute the way the shell would see them: against the working directory, `~` against home.

/** `/a/./b/../c` -> `/a/c`; relative paths keep their leading `..` segments. */
export function normalizePath(path: string): string {
  const absolute = path.startsWith("/");
  const out: string[] = [];
  for (const seg of path.split("/")) {
    if (seg === "" || seg === ".") continue;
    if (seg === "..") {
      if (out.length > 0 && out[out.length - 1] !== "..") out.pop();
      else if (!absolute) out.push("..");
      continue;
    }
    out.push(seg);
  }
  const joined = out.join("/");
  return absolute ? `/${joined}` : joined || ".";
}

/** Absolute form of `path` seen from `cwd`; `~user/…` and paths starting with a variable stay as written. */
export function absolutePath(path: string, cwd: string, home: string): string {
  if (path === "~" || path.startsWith("~/")) return normalizePath(home + path.slice(1));
  if (path.startsWith("~") || path.startsWith("$")) return path;
  if (path.startsWith("/")) return normalizePath(path);
  if (!cwd.startsWith("/")) return `${cwd}/${path}`;
  return normalizePath(`${cwd}/${path}`);
}

export function basename(path: string): string {
  const trimmed = path.replace(/\/+$/, "");
  const i = trimmed.lastIndexOf("/");
  return i < 0 ? trimmed : trimmed.slice(i + 1);
}

const IGNORED_DEVICES = new Set([
  "/dev/null",
  "/dev/zero",
  "/dev/stdin",
  "/dev/stdout",
  "/dev/stderr",
  "/dev/tty",
  "/dev/random",
  "/dev/urandom",
  "/dev/full",
]);

/** Pseudo-files whose reads and writes touch nothing worth a rule. */
export function isInertDevice(path: string): boolean {
  return IGNORED_DEVICES.has(path) || path.startsWith("/dev/fd/") || path.startsWith("/dev/pts/");
}

/** Block devices and raw memory: writing them destroys a disk, not a file. */
export function isDiskDevice(path: string): boolean {
  return /^\/dev\/(sd|hd|vd|xvd|nvme|mmcblk|disk|rdisk|md|dm-|loop|mapper\/|mem$|kmem$|port$)/.test(path);
}

/** An operand that names a file: absolute, home-relative, explicitly relative, or a dotfile. */
function looksLikePath(text: string): boolean {
  if (text.startsWith("-") || text.includes("://") || text.includes("=")) return false;
  return /^(\/|~\/|\.\.?\/)/.test(text) || /^\.[\w-]/.test(text);
}

/** A program handed a path may read it: `sqlite3 ~/Library/Keychains/…` or `aws s3 cp ~/.aws/credentials s3://…`
 * then meets the secret-read rules like `cat` would. */
export function emitOperandReads(
  call: { emit(a: { name: string; class: "read"; targets: string[] }): void; scope: { cwd: string; home: string } },
  args: readonly { readonly text: string; readonly static: boolean }[],
): void {
  const paths = args.filter((a) => a.static && looksLikePath(a.text));
  if (paths.length === 0) return;
  call.emit({
    name: "filesystem.read",
    class: "read",
    targets: paths.map((a) => absolutePath(a.text, call.scope.cwd, call.scope.home)),
  });
}
