// The Landlock system calls, and execve, through Bun's FFI on libc. Linux only. Landlock binds the thread that calls
// restrict_self and every thread and child it makes afterwards; everything here runs on the JS main thread, which is
// the thread that spawns children and the one execve keeps (the others end with the old image).
import { closeSync, constants, openSync } from "node:fs";
import { MemnoxError } from "../core/errors.ts";
import { CREATE_RULESET_VERSION, FILE_RIGHTS, RULE_NET_PORT, RULE_PATH_BENEATH } from "./abi.ts";
import type { LandlockPlan } from "./landlock.ts";

const SYS = { create: 444n, addRule: 445n, restrictSelf: 446n } as const;
const PR_SET_NO_NEW_PRIVS = 38;
const O_PATH = 0o10000000;
const O_CLOEXEC = 0o2000000;
const ENOSYS = 38;
const EOPNOTSUPP = 95;

type Libc = ReturnType<typeof openLibc>;
let libc: Libc | undefined;

function openLibc() {
  const { dlopen, FFIType } = require("bun:ffi") as typeof import("bun:ffi");
  const i64 = FFIType.i64;
  const symbols = {
    syscall: { args: [i64, i64, i64, i64, i64], returns: i64 },
    prctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    __errno_location: { args: [], returns: FFIType.ptr },
    execve: { args: [FFIType.ptr, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
    ioctl: { args: [FFIType.i32, FFIType.u64, FFIType.u64], returns: FFIType.i32 },
    signal: { args: [FFIType.i32, FFIType.ptr], returns: FFIType.ptr },
    sigprocmask: { args: [FFIType.i32, FFIType.ptr, FFIType.ptr], returns: FFIType.i32 },
  } as const;
  let last: unknown;
  for (const name of ["libc.so.6", "libc.musl-x86_64.so.1", "libc.musl-aarch64.so.1", "libc.so"]) {
    try {
      return dlopen(name, symbols).symbols;
    } catch (e) {
      last = e;
    }
  }
  throw new MemnoxError("refused", `libc could not be loaded for Landlock (${(last as Error)?.message})`);
}

function c(): Libc {
  libc ??= openLibc();
  return libc;
}

function errno(): number {
  const { read } = require("bun:ffi") as typeof import("bun:ffi");
  const at = c().__errno_location();
  return at ? read.i32(at, 0) : 0;
}

function ptrOf(view: DataView | Uint8Array | BigUint64Array): bigint {
  const { ptr } = require("bun:ffi") as typeof import("bun:ffi");
  return BigInt(ptr(view));
}

/** The Landlock ABI this kernel speaks: 0 where it has none (not Linux, not built in, or switched off at boot). */
export function landlockAbi(): number {
  if (process.platform !== "linux") return 0;
  try {
    const v = Number(c().syscall(SYS.create, 0n, 0n, BigInt(CREATE_RULESET_VERSION), 0n));
    return Math.max(v, 0);
  } catch {
    return 0;
  }
}

function fail(what: string): never {
  const e = errno();
  const why = e === ENOSYS || e === EOPNOTSUPP ? "this kernel has no Landlock" : `errno ${e}`;
  throw new MemnoxError("refused", `the kernel wall could not be raised: ${what} failed (${why})`);
}

function openPath(path: string, listed: boolean): number | undefined {
  try {
    return openSync(path, O_PATH | O_CLOEXEC | (listed ? constants.O_NOFOLLOW : 0));
  } catch {
    // Gone since it was planned: a path that is not there needs no grant.
    return undefined;
  }
}

/**
 * Restrict the calling thread, and so everything it starts, to `plan`. Irreversible. no_new_privs first, so a
 * setuid program cannot shed the domain, and so an unprivileged person may restrict themselves.
 */
export function raiseWall(plan: LandlockPlan): void {
  const lc = c();
  const attr = new BigUint64Array([BigInt(plan.handledFs), BigInt(plan.handledNet), BigInt(plan.scoped)]);
  const size = plan.abi >= 6 ? 24n : plan.abi >= 4 ? 16n : 8n;
  const ruleset = Number(lc.syscall(SYS.create, ptrOf(attr), size, 0n, 0n));
  if (ruleset < 0) fail("landlock_create_ruleset");
  try {
    const beneath = new DataView(new ArrayBuffer(12));
    for (const rule of plan.paths) {
      const fd = openPath(rule.path, rule.listed === true);
      if (fd === undefined) continue;
      try {
        for (const access of [rule.access, rule.access & FILE_RIGHTS]) {
          beneath.setBigUint64(0, BigInt(access), true);
          beneath.setInt32(8, fd, true);
          const r = lc.syscall(SYS.addRule, BigInt(ruleset), BigInt(RULE_PATH_BENEATH), ptrOf(beneath), 0n);
          // A directory planned that became a file since takes the file rights alone.
          if (r === 0n || access === (rule.access & FILE_RIGHTS)) break;
        }
      } finally {
        closeSync(fd);
      }
    }
    const port = new BigUint64Array(2);
    for (const p of plan.ports) {
      port[0] = BigInt(p.access);
      port[1] = BigInt(p.port);
      if (lc.syscall(SYS.addRule, BigInt(ruleset), BigInt(RULE_NET_PORT), ptrOf(port), 0n) !== 0n)
        fail(`the rule for TCP port ${p.port}`);
    }
    if (lc.prctl(PR_SET_NO_NEW_PRIVS, 1n, 0n, 0n, 0n) !== 0) fail("prctl(PR_SET_NO_NEW_PRIVS)");
    if (lc.syscall(SYS.restrictSelf, BigInt(ruleset), 0n, 0n, 0n) !== 0n) fail("landlock_restrict_self");
  } finally {
    closeSync(ruleset);
  }
}

const TIOCNOTTY = 0x5422n;

/**
 * Off the person's terminal: a process without it as its controlling terminal cannot push keystrokes into it
 * (TIOCSTI), which the shell or the agent's prompt would read as the person's. Nothing to do where there is none.
 */
export function leaveTerminal(): void {
  let fd: number;
  try {
    fd = openSync("/dev/tty", constants.O_RDWR | O_CLOEXEC);
  } catch {
    return;
  }
  // A session leader letting go of it is sent SIGHUP: caught here, and exec puts the default back.
  process.on("SIGHUP", () => {});
  try {
    c().ioctl(fd, TIOCNOTTY, 0n);
  } finally {
    closeSync(fd);
  }
}

const cstring = (s: string) => Buffer.from(`${s}\0`);

/** A NULL-terminated array of C strings; `keep` holds the buffers alive until execve. */
function cArray(items: readonly string[], keep: Buffer[]): BigUint64Array {
  const out = new BigUint64Array(items.length + 1);
  items.forEach((s, i) => {
    const b = cstring(s);
    keep.push(b);
    out[i] = ptrOf(b);
  });
  return out;
}

/**
 * Replace this process with `path`: same pid, same open terminal, the wall kept. Signal dispositions and the mask
 * go back to their defaults first, since a handler cannot survive exec but an ignored signal (SIGPIPE) would.
 */
export function execProgram(path: string, argv: readonly string[], env: Readonly<Record<string, string>>): never {
  const lc = c();
  for (let sig = 1; sig < 32; sig++) if (sig !== 9 && sig !== 19) lc.signal(sig, null);
  const empty = new BigUint64Array(16);
  lc.sigprocmask(2, empty, null);
  const keep: Buffer[] = [];
  const file = cstring(path);
  const args = cArray(argv, keep);
  const vars = cArray(
    Object.entries(env).map(([k, v]) => `${k}=${v}`),
    keep,
  );
  lc.execve(file, args, vars);
  throw new MemnoxError("not_found", `could not start \`${path}\` inside the wall (errno ${errno()})`);
}
