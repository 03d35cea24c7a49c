// What earlier parts of the same line set up for later ones, tracked purely: variables (`d=.ssh; cat ~/$d/id`),
// loop variables with their lists, and paths that lead elsewhere (`ln -s ~/.ssh /tmp/s && cat /tmp/s/id`).
import type { ActionSpec, Arg, Scope, VarValue } from "./call.ts";
import { DATA } from "./evaluate.ts";
import { basename, normalizePath } from "./paths.ts";

/** More possible values than this and a variable is unknown: a rule should not be decided by a list that long. */
const MAX_VALUES = 64;

/** The caller's variables handed in by the seam (places only): known from the start of the line. */
export function environmentVars(env: Readonly<Record<string, string>> | undefined): Map<string, VarValue> {
  const vars = new Map<string, VarValue>();
  for (const [k, v] of Object.entries(env ?? {})) vars.set(k, { known: true, values: [v] });
  return vars;
}

/** `name=value` in this shell: known when the value is, else the text it came from (`$(cmd)`) stays as a hint. */
export function setVar(scope: Scope, name: string, value: Arg): void {
  scope.vars.set(
    name,
    value.static ? { known: true, values: [value.text] } : { known: false, raw: value.text, data: fromData(value) },
  );
}

/** Whether an argument holds data the line computed at run time (not a number, not the caller's own value). */
function fromData(a: Arg): boolean {
  return (a.seen ?? "").includes(DATA);
}

export function unsetVar(scope: Scope, name: string): void {
  scope.vars.delete(name);
}

/** `for f in a b c`: inside the loop `$f` is each of them (globs stay globs, expanded where the gate can see files). */
export function bindLoop(scope: Scope, name: string, list: readonly Arg[]): void {
  const known = list.every((a) => a.static) && list.length > 0 && list.length <= MAX_VALUES;
  scope.vars.set(
    name,
    known
      ? { known: true, values: list.map((a) => a.text) }
      : { known: false, raw: list.map((a) => a.text).join(" "), data: list.length === 0 || list.some(fromData) },
  );
}

/** Records that `dest` now leads to (or holds) what `source` is: a link, a copy or a move made in this line. */
export function recordAlias(scope: Scope, dest: string, sources: readonly string[], intoDir: boolean): void {
  const abs = sources.filter((s) => s.startsWith("/") || s.startsWith("$"));
  if (!dest.startsWith("/") || abs.length === 0) return;
  const d = normalizePath(dest);
  const add = (path: string, src: string) => scope.links.set(path, [...(scope.links.get(path) ?? []), src]);
  for (const s of abs) {
    // Whether dest is a folder is for the filesystem to say: both places are recorded.
    if (abs.length === 1 && !intoDir) add(d, s);
    add(`${d}/${basename(s)}`, s);
  }
}

/** A path under something made earlier in the line also names where that leads. */
function aliased(path: string, aliases: ReadonlyMap<string, readonly string[]>, depth = 0): string[] {
  if (!path.startsWith("/") || depth > 4) return [];
  const out: string[] = [];
  for (const [at, sources] of aliases) {
    if (path !== at && !path.startsWith(`${at}/`)) continue;
    for (const s of sources) {
      const to = s.startsWith("/") ? normalizePath(s + path.slice(at.length)) : s + path.slice(at.length);
      out.push(to, ...aliased(to, aliases, depth + 1));
    }
  }
  return out;
}

export function withAliases(spec: ActionSpec, scope: Scope): ActionSpec {
  if (scope.links.size === 0 || !spec.targets || spec.name === "shell.execute") return spec;
  const extra = spec.targets.flatMap((t) => aliased(t, scope.links));
  return extra.length === 0 ? spec : { ...spec, targets: [...spec.targets, ...extra] };
}
