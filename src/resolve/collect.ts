// Where resolved actions accumulate for one line: every action carries the line as its `command` argument.
import { type Action, type ActionClass, heavierClass } from "../core/action.ts";
import type { ActionSpec } from "./call.ts";
import { basename } from "./paths.ts";
import { type ProjectFacts, recoverable } from "./project.ts";

/** Programs whose write to a file leaves its text as it was. */
const KEEPS_TEXT = new Set(["chmod", "chown", "chgrp", "touch"]);

const WRITES = new Set(["filesystem.write", "filesystem.delete"]);

/** git's discards of working-tree edits to named paths: what a milestone taken before them keeps. */
const DISCARDS = new Set(["git.restore", "git.checkout-paths"]);

export class Collector {
  readonly actions: Action[] = [];
  readonly unknown: string[] = [];
  /** Script files the line runs whose text the gate did not hand in. */
  readonly runs: string[] = [];
  private readonly line: string;
  private readonly project: ProjectFacts | undefined;
  private readonly cwd: string | undefined;

  constructor(line: string, project?: ProjectFacts, cwd?: string) {
    this.line = line;
    this.project = project;
    this.cwd = cwd;
  }

  /** One action; `at` is where it acts, kept only when the line moved away from where it runs. */
  add(spec: ActionSpec, argv?: readonly string[], at?: string): void {
    const where = spec.cwd ?? at;
    const args: Record<string, readonly string[]> = argv ? { command: [this.line], argv } : { command: [this.line] };
    this.actions.push({
      name: spec.name,
      class: this.classOf(spec),
      targets: [...new Set(spec.targets ?? [])],
      arguments: args,
      ...(spec.branch !== undefined ? { branch: spec.branch } : {}),
      ...(spec.cli !== undefined ? { cli: spec.cli } : {}),
      ...(where !== undefined && this.cwd !== undefined && where !== this.cwd ? { cwd: where } : {}),
    });
    const remote = WRITES.has(spec.name) ? this.remoteWritten(spec.targets ?? []) : undefined;
    if (remote) this.add({ name: "git.push-force", class: "destructive", targets: [remote], cli: "git" }, argv, at);
  }

  /** A file written or deleted inside a local remote of the checkout (its refs, objects, hooks): a forced push's effect. */
  private remoteWritten(targets: readonly string[]): string | undefined {
    const remotes = this.project?.remotes ?? [];
    for (const t of targets) {
      const hit = remotes.find((r) => t === r || t.startsWith(`${r}/`));
      if (hit) return hit;
    }
    return undefined;
  }

  /** A `shell.execute` for a line, placed before the actions that line produced from `from` on. */
  insertShell(from: number, normalized: string, text: string): void {
    const cls = heaviest(this.actions.slice(from));
    this.actions.splice(from, 0, {
      name: "shell.execute",
      class: cls,
      targets: [normalized],
      arguments: { command: [text] },
    });
  }

  /**
   * A delete inside the checkout, or a discard of uncommitted edits to its paths (`git restore`, `git checkout --`),
   * is one the automatic milestone brings back: a write, not destruction.
   */
  private classOf(spec: ActionSpec): ActionClass {
    if (spec.class !== "destructive") return spec.class;
    const repository = this.project?.repository;
    if (spec.name === "filesystem.delete") return recoverable(spec.targets ?? [], repository) ? "write" : spec.class;
    if (DISCARDS.has(spec.name) && repository) {
      const paths = (spec.targets ?? []).filter((t) => t.startsWith("/"));
      const inside = paths.every((t) => t === repository || recoverable([t], repository));
      return paths.length > 0 && inside ? "write" : spec.class;
    }
    return spec.class;
  }

  /** Files an earlier command of the line gave a known text in full, and how many actions stood then. */
  private readonly texts = new Map<string, { text: string; at: number }>();

  noteText(path: string, text: string): void {
    this.texts.set(path, { text, at: this.actions.length });
  }

  /**
   * What this line made of `path` so far: the text it was given in full (a later chmod keeps it), undefined when the
   * line writes it in a way nobody can read ahead, null when the line does not write it.
   */
  madeText(path: string): string | undefined | null {
    const known = this.texts.get(path);
    const writes = (a: Action) => a.name === "filesystem.write" && a.targets.includes(path);
    // A mode, an owner or a time changes no text: `chmod +x p.sh && ./p.sh` runs the file as it was.
    const later = this.actions
      .slice(known?.at ?? 0)
      .filter((a) => writes(a) && !KEEPS_TEXT.has(basename(a.arguments.argv?.[0] ?? "")));
    if (known) return later.length === 0 ? known.text : undefined;
    return later.length > 0 ? undefined : null;
  }

  /** Places an earlier command of the line filled from outside (a clone's destination, a downloaded file). */
  private readonly outside: string[] = [];

  noteFetched(place: string): void {
    if (place.startsWith("/") && !this.outside.includes(place)) this.outside.push(place);
  }

  fetchedAt(path: string): boolean {
    return this.outside.some((p) => path === p || path.startsWith(`${p}/`));
  }

  noteRun(path: string): void {
    if (!this.runs.includes(path)) this.runs.push(path);
  }

  noteUnknown(what: string): void {
    if (!this.unknown.includes(what)) this.unknown.push(what);
  }
}

function heaviest(actions: readonly Action[]): ActionClass {
  return actions.reduce<ActionClass>((acc, a) => heavierClass(acc, a.class), "read");
}

/** Identical actions (same name, class, targets, branch) collapse into the first. */
export function dedupe(actions: readonly Action[]): Action[] {
  const seen = new Set<string>();
  const out: Action[] = [];
  for (const a of actions) {
    const key = JSON.stringify([a.name, a.class, a.targets, a.branch ?? null, a.arguments.argv ?? null, a.cwd ?? null]);
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(a);
  }
  return out;
}
