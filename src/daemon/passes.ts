// The keeping the daemon does between requests: passes run at start, every five minutes, and soon after a file
// they watch changes. The keeper (hooks put back) and drift plug in here as more passes; none runs while
// `memnox stop` holds.
import { existsSync, type FSWatcher, watch } from "node:fs";
import { basename, dirname } from "node:path";
import type { Recorder } from "../ledger/index.ts";
import type { Context } from "../ports/context.ts";
import { stopInForce } from "../state/stop.ts";
import type { DaemonLog } from "./log.ts";

type PassTrigger = "start" | "timer" | "change";

/** One change to a file on this machine, in words: what the config row and the log line say. */
export interface ConfigChange {
  /** `mcp.wrap`, `hook.restore`, `drift.widened`… */
  readonly operation: string;
  readonly file: string;
  readonly before: string;
  readonly after: string;
  readonly reason: string;
}

export interface PassContext {
  readonly ctx: Context;
  readonly trigger: PassTrigger;
  /** The watched files whose change started this run. */
  readonly changed: readonly string[];
  log(kind: string, message: string, eventId?: string): void;
  /** A `config` row in the ledger and a line in daemon.log; returns the row's id. */
  recordChange(change: ConfigChange): string | undefined;
  /** A desktop notice; at most one per kind and three per run, the rest only logged. */
  notice(kind: string, body: string): void;
}

export interface DaemonPass {
  readonly name: string;
  /** Files whose change runs the pass again (agent config files); absent ones are watched for appearing. */
  watched(ctx: Context): readonly string[];
  /** At most this often whatever arrives (drift compares at most every 30 s). */
  readonly minIntervalMs?: number;
  run(pc: PassContext): Promise<void>;
}

interface PassRunner {
  /** Resolves when every pass has had its first run. */
  readonly started: Promise<void>;
  close(): Promise<void>;
}

interface RunnerOptions {
  readonly ctx: Context;
  readonly passes: readonly DaemonPass[];
  readonly log: DaemonLog;
  readonly recorder: Recorder;
  readonly backstopMs?: number;
}

const BACKSTOP_MS = 5 * 60_000;
const SETTLE_MS = 250;
const NOTICES_PER_RUN = 3;

export function startPasses(o: RunnerOptions): PassRunner {
  const { ctx, log } = o;
  const closers: (() => void)[] = [];
  const running = new Set<Promise<void>>();
  let closed = false;
  let saidStopped = false;

  const recordChange = (c: ConfigChange) => {
    const id = o.recorder.record({
      kind: "config",
      occurredAt: new Date(ctx.clock.now()).toISOString(),
      surface: "config",
      operation: c.operation,
      resourceRef: c.file.slice(0, 512),
      reason: c.reason,
      detail: { file: c.file, before: c.before, after: c.after, by: "daemon" },
    })?.id;
    log.write("config", `${c.reason}: ${c.file}: ${c.before} -> ${c.after}`, id);
    return id;
  };

  const runOnce = async (pass: DaemonPass, trigger: PassTrigger, changed: readonly string[]) => {
    if (stopInForce(ctx.paths.stop, ctx.clock.now())) {
      if (!saidStopped) log.write("stopped", "memnox stop holds: the daemon keeps nothing until memnox start");
      saidStopped = true;
      return;
    }
    saidStopped = false;
    const kinds = new Set<string>();
    let notices = 0;
    const pc: PassContext = {
      ctx,
      trigger,
      changed,
      log: (kind, message, id) => log.write(kind, message, id),
      recordChange,
      notice(kind, body) {
        log.write("notice", body);
        if (kinds.has(kind) || notices >= NOTICES_PER_RUN) return;
        kinds.add(kind);
        notices += 1;
        void ctx.notify.notice("memnox", body);
      },
    };
    try {
      await pass.run(pc);
    } catch (e) {
      log.write("error", `pass ${pass.name} failed: ${(e as Error).message}`);
    }
  };

  const schedule = (pass: DaemonPass) => {
    let busy: Promise<void> | undefined;
    let again: { trigger: PassTrigger; changed: Set<string> } | undefined;
    // The first run counts: "at most every 30 s" holds from the start.
    let lastAt = ctx.clock.now();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const watching = watchSet((file) => kick("change", [file]));
    const kick = (trigger: PassTrigger, changed: readonly string[] = []) => {
      if (closed) return;
      again ??= { trigger, changed: new Set() };
      for (const f of changed) again.changed.add(f);
      if (busy || timer) return;
      const wait = Math.max(trigger === "change" ? SETTLE_MS : 0, lastAt + (pass.minIntervalMs ?? 0) - ctx.clock.now());
      timer = setTimeout(() => {
        timer = undefined;
        const next = again;
        again = undefined;
        if (!next || closed) return;
        lastAt = ctx.clock.now();
        busy = runOnce(pass, next.trigger, [...next.changed]).finally(() => {
          running.delete(busy as Promise<void>);
          busy = undefined;
          rewatch();
          if (again) kick(again.trigger);
        });
        running.add(busy);
      }, wait);
    };
    // A folder that appeared (an agent installed) is watched itself from then on, not only its parent; what changed
    // in it before its watch began is caught by one more run.
    let armed = false;
    const rewatch = () => {
      if (closed) return;
      // The stop file too: `memnox start` ending a stop puts the keeping back at once, not at the next backstop.
      const added = watching.set([...pass.watched(ctx), ctx.paths.stop]);
      if (added && armed) kick("change");
      armed = true;
    };
    closers.push(() => clearTimeout(timer));
    closers.push(() => watching.close());
    return { kick, rewatch };
  };

  const firsts: Promise<void>[] = [];
  for (const pass of o.passes) {
    const { kick, rewatch } = schedule(pass);
    rewatch();
    firsts.push(runOnce(pass, "start", []).finally(rewatch));
    const backstop = setInterval(() => kick("timer"), o.backstopMs ?? BACKSTOP_MS);
    closers.push(() => clearInterval(backstop));
  }
  return {
    started: Promise.all(firsts).then(() => {}),
    async close() {
      closed = true;
      for (const c of closers) c();
      await Promise.all([...running, ...firsts]);
    },
  };
}

interface WatchSet {
  /** Watches exactly these files from now on (their directories, or the nearest that exists); true when a
   * directory is watched that was not before. */
  set(files: readonly string[]): boolean;
  close(): void;
}

/** Watches each file's directory (editors replace files by rename), for the nearest directory that exists. */
function watchSet(onChange: (file: string) => void): WatchSet {
  const watchers = new Map<string, { names: Set<string>; w: FSWatcher }>();
  return {
    set(files) {
      const wanted = nearestDirs(files);
      let added = false;
      for (const [dir, x] of watchers) {
        if (sameSet(wanted.get(dir), x.names)) continue;
        x.w.close();
        watchers.delete(dir);
      }
      for (const [dir, names] of wanted) {
        if (watchers.has(dir)) continue;
        try {
          const w = watch(dir, (_e, name) => {
            if (name === null || names.has(String(name))) onChange(`${dir}/${name ?? ""}`);
          });
          w.on("error", () => {
            w.close();
            watchers.delete(dir);
          });
          watchers.set(dir, { names, w });
          added = true;
        } catch {
          // the five-minute backstop still runs the pass
        }
      }
      return added;
    },
    close() {
      for (const x of watchers.values()) x.w.close();
      watchers.clear();
    },
  };
}

function nearestDirs(files: readonly string[]): Map<string, Set<string>> {
  const byDir = new Map<string, Set<string>>();
  for (const f of files) {
    let dir = dirname(f);
    let name = basename(f);
    while (!existsSync(dir) && dirname(dir) !== dir) {
      name = basename(dir);
      dir = dirname(dir);
    }
    const names = byDir.get(dir) ?? new Set<string>();
    names.add(name);
    byDir.set(dir, names);
  }
  return byDir;
}

function sameSet(a: ReadonlySet<string> | undefined, b: ReadonlySet<string>): boolean {
  return a !== undefined && a.size === b.size && [...a].every((x) => b.has(x));
}
