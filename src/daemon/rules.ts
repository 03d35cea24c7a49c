// The compiled rule sets the daemon keeps, one per working directory (and MEMNOX_POLICIES): each use checks the
// files it was built from by stat, and watching their directories reloads a set as soon as one changes.
import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname, join, resolve } from "node:path";
import { ruleCacheDir } from "../gate/wiring.ts";
import { RULE_FILE_NAMES } from "../policy/load/find.ts";
import { findRuleFiles, type LoadedRuleSet, loadRuleSet, readRegistry } from "../policy/load/index.ts";
import type { Paths } from "../ports/paths.ts";
import { cachedFile, stamp } from "./cached.ts";

const MAX_SETS = 64;
const SETTLE_MS = 40;

interface Entry {
  readonly cwd: string;
  readonly also: readonly string[];
  readonly policies: string | undefined;
  stamp: string;
  set: LoadedRuleSet;
  dirs: readonly string[];
}

export interface RuleCache {
  /** The set in force at `cwd` and every place in `also` the call acts. */
  get(cwd: string, policies: string | undefined, also?: readonly string[]): LoadedRuleSet;
  /** How many sets are held, for `ping` and tests. */
  readonly size: number;
  close(): void;
}

interface RuleCacheOptions {
  readonly paths: Paths;
  /** Said when a set is reloaded because a file changed. */
  onReload(cwd: string, set: LoadedRuleSet, before: string): void;
}

/** The directories where a file appearing or changing can change the set in force at `cwd` (and `also`). */
function watchedDirs(places: readonly string[], set: LoadedRuleSet, paths: Paths): string[] {
  const dirs = new Set<string>([dirname(paths.policiesRegistry), ...set.checked.map((c) => dirname(c.path))]);
  for (const place of places) {
    let d = resolve(place);
    for (let i = 0; i < 32; i++) {
      dirs.add(d);
      if (existsSync(join(d, ".git")) || dirname(d) === d) break;
      d = dirname(d);
    }
  }
  return [...dirs].filter((x) => existsSync(x));
}

export function ruleCache(opts: RuleCacheOptions): RuleCache {
  const { paths } = opts;
  const entries = new Map<string, Entry>();
  const watchers = new Map<string, FSWatcher>();
  let settle: ReturnType<typeof setTimeout> | undefined;
  const dirty = new Set<string>();

  const registry = cachedFile(paths.policiesRegistry, () => readRegistry(paths.policiesRegistry));
  const stampOf = (cwd: string, policies: string | undefined, also: readonly string[]): string => {
    let registered: readonly string[] = [];
    try {
      registered = registry();
    } catch {
      // loadRuleSet reports the broken registry as a problem; its stamp below changes when it is fixed
    }
    const found = findRuleFiles(
      { cwd, also, env: policies ? { MEMNOX_POLICIES: policies } : {}, paths, expectMachine: existsSync(paths.sealed) },
      registered,
    );
    return [
      stamp(paths.policiesRegistry),
      ...found.map((c) => `${c.path}|${c.origin}|${c.applies}|${stamp(c.path)}`),
    ].join("\n");
  };
  const load = (cwd: string, policies: string | undefined, also: readonly string[]) =>
    loadRuleSet({
      cwd,
      also,
      env: policies ? { MEMNOX_POLICIES: policies } : {},
      paths,
      cacheDir: ruleCacheDir(paths),
      expectMachine: existsSync(paths.sealed),
    });

  const rewatch = () => {
    const wanted = new Set([...entries.values()].flatMap((e) => e.dirs));
    for (const [dir, w] of watchers) {
      if (wanted.has(dir)) continue;
      w.close();
      watchers.delete(dir);
    }
    for (const dir of wanted) {
      if (watchers.has(dir)) continue;
      try {
        const w = watch(dir, (_event, name) => changed(dir, name ? String(name) : undefined));
        w.on("error", () => watchers.delete(dir));
        watchers.set(dir, w);
      } catch {
        // the stat check on every use still sees the change
      }
    }
  };
  const relevant = (name: string | undefined) =>
    name === undefined ||
    (RULE_FILE_NAMES as readonly string[]).includes(name) ||
    name === basename(paths.policiesRegistry) ||
    name === basename(paths.machinePolicies) ||
    name === basename(paths.orgPolicies) ||
    [...entries.values()].some((e) => e.set.checked.some((c) => basename(c.path) === name));
  const changed = (dir: string, name: string | undefined) => {
    if (!relevant(name)) return;
    for (const [key, e] of entries) if (e.dirs.includes(dir)) dirty.add(key);
    // An editor's save is several events; one reload after they settle.
    clearTimeout(settle);
    settle = setTimeout(reloadDirty, SETTLE_MS);
  };
  const reloadDirty = () => {
    for (const key of dirty) {
      const e = entries.get(key);
      if (!e) continue;
      const now = stampOf(e.cwd, e.policies, e.also);
      if (now === e.stamp) continue;
      const before = e.set.hash;
      refresh(e, now);
      if (e.set.hash !== before) opts.onReload(e.cwd, e.set, before);
    }
    dirty.clear();
    rewatch();
  };
  const refresh = (e: Entry, now: string) => {
    e.set = load(e.cwd, e.policies, e.also);
    e.stamp = now;
    e.dirs = watchedDirs([e.cwd, ...e.also], e.set, paths);
  };

  return {
    get(cwd, policies, also = []) {
      const key = [policies ?? "", cwd, ...also].join("\0");
      const now = stampOf(cwd, policies, also);
      const e = entries.get(key);
      if (e) {
        entries.delete(key);
        entries.set(key, e);
        if (e.stamp !== now) {
          refresh(e, now);
          rewatch();
        }
        return e.set;
      }
      const set = load(cwd, policies, also);
      entries.set(key, { cwd, also, policies, stamp: now, set, dirs: watchedDirs([cwd, ...also], set, paths) });
      const oldest = entries.keys().next().value;
      if (entries.size > MAX_SETS && oldest !== undefined) entries.delete(oldest);
      rewatch();
      return set;
    },
    get size() {
      return entries.size;
    },
    close() {
      clearTimeout(settle);
      for (const w of watchers.values()) w.close();
      watchers.clear();
      entries.clear();
    },
  };
}
