// Terse constructors for table data: `v("pr merge", "gh.pr-merge", "communication")`.
import type { ActionClass } from "../../core/action.ts";
import type { VerbEntry } from "../types.ts";

export function v(path: string, action: string, cls: ActionClass, flags?: readonly string[]): VerbEntry {
  const words = path === "" ? [] : path.split(" ");
  return flags ? { path: words, action, class: cls, flags } : { path: words, action, class: cls };
}

/** An entry the CLI's own reader picks (`when` says on what), never the generic word matcher. */
export function decided(path: string, action: string, cls: ActionClass, when: string): VerbEntry {
  return { path: path === "" ? [] : path.split(" "), action, class: cls, when };
}

/** Every table answers `--help`, `--version` and `help` as a read. */
export function help(cli: string): VerbEntry {
  return decided("help", `${cli}.help`, "read", "help or the version is asked for");
}

/** The same class for many verbs under one path prefix. */
export function many(prefix: string, cli: string, cls: ActionClass, verbs: string): VerbEntry[] {
  return verbs.split(" ").map((verb) => {
    const path = prefix === "" ? verb : `${prefix} ${verb}`;
    return v(path, `${cli}.${path.replace(/[ :]/g, "-")}`, cls);
  });
}
