// The process ancestry as the OS tells it: /proc on Linux (a few small reads), one `ps` on macOS.
import { readFileSync, readlinkSync } from "node:fs";
import type { Ancestry, Processes, ProcessInfo } from "../ports/index.ts";

/** Deep enough for any real chain (login, terminal, shells, agent, wrappers); a loop in the table stops here. */
const MAX_DEPTH = 64;

export function osProcesses(platform: string, selfPid: number): Processes {
  if (platform === "linux") return { ancestry: (until) => linuxAncestry(selfPid, until), cheap: true };
  if (platform === "darwin") return { ancestry: () => psAncestry(selfPid), cheap: false };
  return { ancestry: () => ({ chain: [], complete: false }), cheap: true };
}

function linuxAncestry(selfPid: number, until?: (p: ProcessInfo) => boolean): Ancestry {
  const chain: ProcessInfo[] = [];
  for (let pid = selfPid; chain.length < MAX_DEPTH; ) {
    const p = readLinux(pid);
    if (!p) return { chain, complete: false };
    chain.push(p);
    if (chain.length > 1 && until?.(p)) return { chain, complete: true };
    if (p.ppid <= 1 || p.ppid === pid) return { chain, complete: true };
    pid = p.ppid;
  }
  return { chain, complete: false };
}

function readLinux(pid: number): ProcessInfo | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  } catch {
    return undefined;
  }
  // `pid (comm) state ppid pgrp session tty_nr …`: comm may hold spaces and parentheses, so split after the last `)`.
  const close = stat.lastIndexOf(")");
  const comm = stat.slice(stat.indexOf("(") + 1, close);
  const f = stat
    .slice(close + 2)
    .split(" ")
    .map((x) => Number(x));
  const argv = readOr(`/proc/${pid}/cmdline`)
    .split("\0")
    .filter((a, i, all) => a !== "" || i < all.length - 1);
  const exe = linkOr(`/proc/${pid}/exe`);
  const argv0 = /(^|\/)bun$/.test(exe ?? "") ? environValue(pid, "MEMNOX_ARGV0") : undefined;
  return {
    pid,
    ppid: f[1] ?? 0,
    comm,
    argv,
    ...(exe ? { exe: exe.replace(/ \(deleted\)$/, "") } : {}),
    sid: f[3] ?? 0,
    tty: f[4] ?? 0,
    ...(argv0 ? { argv0 } : {}),
  };
}

function readOr(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

function linkOr(path: string): string | undefined {
  try {
    return readlinkSync(path);
  } catch {
    return undefined;
  }
}

/** One variable of another process's environment (same user only); read only for memnox run from source. */
function environValue(pid: number, name: string): string | undefined {
  const hit = readOr(`/proc/${pid}/environ`)
    .split("\0")
    .find((kv) => kv.startsWith(`${name}=`));
  return hit?.slice(name.length + 1);
}

/** macOS: one `ps` for the whole table, then the walk in memory. */
function psAncestry(selfPid: number): Ancestry {
  const out = Bun.spawnSync(["/bin/ps", "-axww", "-o", "pid=,ppid=,tty=,comm="], {
    stdout: "pipe",
    stderr: "ignore",
  });
  if (!out.success) return { chain: [], complete: false };
  const rows = new Map<number, { ppid: number; tty: string; comm: string }>();
  for (const line of out.stdout.toString().split("\n")) {
    const m = /^\s*(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/.exec(line);
    if (m) rows.set(Number(m[1]), { ppid: Number(m[2]), tty: m[3] ?? "??", comm: (m[4] ?? "").trim() });
  }
  const pids: number[] = [];
  for (let pid = selfPid; pids.length < MAX_DEPTH && rows.has(pid); ) {
    pids.push(pid);
    const ppid = rows.get(pid)?.ppid ?? 0;
    if (ppid <= 1 || ppid === pid) break;
    pid = ppid;
  }
  const args = psArgs(pids);
  const chain = pids.map((pid): ProcessInfo => {
    const r = rows.get(pid) ?? { ppid: 0, tty: "??", comm: "" };
    return { pid, ppid: r.ppid, comm: r.comm, argv: args.get(pid) ?? [r.comm], tty: r.tty === "??" ? 0 : 1 };
  });
  const last = chain[chain.length - 1];
  return { chain, complete: last !== undefined && last.ppid <= 1 };
}

/** Each process's command line, split on spaces (ps cannot say where one argument ends): enough for names. */
function psArgs(pids: readonly number[]): Map<number, string[]> {
  const map = new Map<number, string[]>();
  if (pids.length === 0) return map;
  const out = Bun.spawnSync(["/bin/ps", "-ww", "-o", "pid=,args=", "-p", pids.join(",")], {
    stdout: "pipe",
    stderr: "ignore",
  });
  for (const line of out.stdout.toString().split("\n")) {
    const m = /^\s*(\d+)\s+(.*)$/.exec(line);
    if (m) map.set(Number(m[1]), (m[2] ?? "").trim().split(/\s+/));
  }
  return map;
}
