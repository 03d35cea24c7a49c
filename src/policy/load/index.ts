// The rule set in force at a working directory: find, read, parse, validate, compile, hash. Sync, for the hook path.

import { describeError } from "../../core/errors.ts";
import { readRegularFile } from "../../io/files.ts";
import { sha256Hex } from "../../io/hash.ts";
import { compile, evaluate } from "../engine/index.ts";
import { readCachedCheck, writeCachedCheck } from "./cache.ts";
import { type Candidate, type FindOptions, findRuleFiles } from "./find.ts";
import { parseRuleText } from "./parse.ts";
import { filesOfProjects, noteProjectFiles, projectsFileBeside } from "./projects.ts";
import { readRegistry } from "./registry.ts";
import type { CheckedFile, LoadedRuleSet, RuleOrigin, RuleProblem, RuleSource } from "./types.ts";
import { validateRuleData } from "./validate.ts";

export { findRuleFiles, nearestRuleFiles } from "./find.ts";
export { isYamlPath, parseRuleText } from "./parse.ts";
export { readRegistry, registerFile, unregisterFile } from "./registry.ts";
export type { CheckedFile, LoadedRuleSet, RuleOrigin, RuleSource } from "./types.ts";
export { formatProblem } from "./types.ts";
export { validateRuleData } from "./validate.ts";

export function sha256(text: string): string {
  return sha256Hex(text);
}

/** Parses and validates one file's text; never throws, whatever the text. */
export function checkText(path: string, origin: RuleOrigin, text: string, applies = true): CheckedFile {
  const hash = sha256(text);
  const base = { path, origin, applies, exists: true, hash };
  const parsed = parseRuleText(path, text);
  if (!parsed.ok) return { ...base, rules: [], problems: [parsed.problem] };
  const v = validateRuleData(path, parsed.parsed);
  return { ...base, rules: v.rules, problems: v.problems, ...(v.project ? { project: v.project } : {}) };
}

function readCandidate(c: Candidate, cacheDir: string | undefined): { checked: CheckedFile; source?: RuleSource } {
  let text: string;
  try {
    // Only a regular file is read, opened without blocking: a FIFO or a directory in its place is a problem at once.
    text = readRegularFile(c.path).toString("utf8");
  } catch (e) {
    const missing = (e as NodeJS.ErrnoException).code === "ENOENT";
    const message = missing
      ? `the rule file is missing${missingHint(c)}`
      : `the rule file cannot be read: ${describeError(e)}`;
    const checked = {
      path: c.path,
      origin: c.origin,
      applies: c.applies,
      exists: false,
      rules: [],
      problems: [{ file: c.path, message }],
    };
    return { checked };
  }
  const checked = cacheDir ? checkCached(cacheDir, c, text) : checkText(c.path, c.origin, text, c.applies);
  return { checked, source: { path: c.path, origin: c.origin, text, hash: checked.hash ?? sha256(text) } };
}

function missingHint(c: Candidate): string {
  if (c.origin === "registered") return "; `memnox policy use --remove` forgets it";
  if (c.origin === "machine") return "; `memnox protect --yes` writes the baseline again";
  return c.origin === "repository" ? " (a link that leads nowhere)" : "";
}

/** checkText, but a file already parsed and validated with this exact content is read back from the cache. */
function checkCached(cacheDir: string, c: Candidate, text: string): CheckedFile {
  const hash = sha256(text);
  const hit = readCachedCheck(cacheDir, c.path, hash);
  if (hit) return { path: c.path, origin: c.origin, applies: c.applies, exists: true, hash, ...hit };
  const checked = checkText(c.path, c.origin, text, c.applies);
  writeCachedCheck(cacheDir, c.path, hash, {
    rules: checked.rules,
    problems: checked.problems,
    ...(checked.project ? { project: checked.project } : {}),
  });
  return checked;
}

/** The hash of a set: its files' content hashes, sorted, so paths and order do not change it. */
function setHash(sources: readonly RuleSource[]): string {
  return sha256(["memnox-rules-v1", ...sources.map((s) => s.hash).sort()].join("\n"));
}

function assemble(checked: readonly CheckedFile[], sources: readonly RuleSource[], home: string): LoadedRuleSet {
  const applicable = checked.filter((c) => c.applies);
  const compiled = compile(
    applicable.flatMap((c) => c.rules),
    { home },
  );
  const inForce = sources.filter((s) => applicable.some((c) => c.path === s.path));
  return {
    hash: setHash(inForce),
    files: applicable.filter((c) => c.exists).map((c) => c.path),
    problems: applicable.flatMap((c) => c.problems),
    sources: inForce,
    checked,
    compiled,
    usesWindows: compiled.rules.some((r) => r.windows !== undefined),
    usesCaller: compiled.rules.some((r) => r.principals ?? r.models ?? r.providers),
    usesAmount: compiled.rules.some((r) => r.aboveAmount !== undefined),
    evaluate: (request, facts, at, defaultEffect) => evaluate(compiled, request, facts, at, defaultEffect),
  };
}

interface LoadOptions extends FindOptions {
  /** Where parsed rule files are kept by content (`~/.memnox/cache/rules`); none means parse every time. */
  readonly cacheDir?: string;
}

/** The rule set in force at `opts.cwd`. Never throws: a broken or missing file becomes a problem beside the others' rules. */
export function loadRuleSet(opts: LoadOptions): LoadedRuleSet {
  const problems: RuleProblem[] = [];
  let registered: readonly string[] = [];
  try {
    registered = readRegistry(opts.paths.policiesRegistry);
  } catch (e) {
    problems.push({ file: opts.paths.policiesRegistry, message: describeError(e) });
  }
  const read = shareProjects(
    findRuleFiles(opts, registered).map((c) => readCandidate(c, opts.cacheDir)),
    opts.paths.policiesRegistry,
    opts.cacheDir,
  );
  const checked = read.map((r) => r.checked);
  if (problems.length > 0)
    checked.push({
      path: opts.paths.policiesRegistry,
      origin: "machine",
      applies: true,
      exists: true,
      rules: [],
      problems,
    });
  const sources = read.flatMap((r) => (r.source ? [r.source] : []));
  return assemble(checked, sources, opts.paths.home);
}

type Read = ReturnType<typeof readCandidate>;

/**
 * Two repositories that declare the same `project` share one policy: the rule files of other repositories that
 * declared it (noted as each is loaded, in projects.json) apply here too, only ever tightening, since the most
 * restrictive verdict wins whatever file says it.
 */
function shareProjects(read: readonly Read[], registryPath: string, cacheDir: string | undefined): Read[] {
  const here = read.filter((r) => r.checked.origin === "repository" && r.checked.applies && r.checked.project);
  if (here.length === 0) return [...read];
  const file = projectsFileBeside(registryPath);
  noteProjectFiles(file, Object.fromEntries(here.map((r) => [r.checked.path, r.checked.project ?? ""])));
  const projects = new Set(here.map((r) => r.checked.project ?? ""));
  const loaded = new Set(read.map((r) => r.checked.path));
  const contents = new Set(read.flatMap((r) => (r.checked.hash ? [r.checked.hash] : [])));
  const shared = filesOfProjects(file, projects, loaded)
    .map((path) => readCandidate({ path, origin: "repository", applies: true }, cacheDir))
    // Only a file that still declares the project, reads, and says something this set does not already say: a
    // broken one elsewhere is that repository's problem, and a copy of a file here adds nothing.
    .filter(
      (r) =>
        r.checked.problems.length === 0 &&
        r.checked.project !== undefined &&
        projects.has(r.checked.project) &&
        !contents.has(r.checked.hash ?? ""),
    );
  return [...read, ...shared];
}

/** Recompiles a set from the sources a ledger kept: the same text gives the same rules and hash. */
export function ruleSetFromSources(sources: readonly RuleSource[], home: string): LoadedRuleSet {
  const checked = sources.map((s) => checkText(s.path, s.origin, s.text, true));
  return assemble(checked, sources, home);
}
