// Whether a rule a person wrote for themselves could apply to their own command: the rule files are read as text and
// searched for `person`, never parsed, so an interceptor answers this for a person's own `git status` in a few reads.
import { readFileSync } from "node:fs";
import { isAbsolute } from "node:path";
import { findRuleFiles } from "../policy/load/find.ts";
import { readRegistry } from "../policy/load/registry.ts";
import type { Env } from "../ports/index.ts";
import type { Paths } from "../ports/paths.ts";

/** A word that could name `person` as an agent pattern: the text is read, never parsed, so this is cheap. */
// `"person"` in TOML or a YAML flow list, `- person` in a YAML block list; a reason that says "a person" is neither.
const NAMES_PERSON = /["']person["']|[[,]\s*person\s*[\],]|^\s*-\s*person\s*$/m;

/**
 * Whether a rule file that applies here (or where the argv's absolute paths point) could name `person`. Any doubt
 * (a file that cannot be read) says yes, so the full decision runs.
 */
export function personRulesMayApply(paths: Paths, env: Env, cwd: string, argv: readonly string[]): boolean {
  let registered: readonly string[] = [];
  try {
    registered = readRegistry(paths.policiesRegistry);
  } catch {
    return true;
  }
  const also = argv.slice(1).filter((a) => isAbsolute(a));
  const files = findRuleFiles({ cwd, also, env, paths }, registered);
  return files.some((f) => {
    if (!f.applies) return false;
    try {
      return NAMES_PERSON.test(readFileSync(f.path, "utf8"));
    } catch {
      return true;
    }
  });
}
