// A private PostgreSQL cluster under a directory of ours, with the machine's own initdb/pg_ctl: reached only through a
// Unix socket in a directory nobody else can enter, run as an unprivileged user when we are root (postgres refuses root).
import {
  chmodSync,
  chownSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { MemnoxError } from "../core/errors.ts";
import { withLockAsync } from "../io/files.ts";
import type { Env, Proc } from "../ports/index.ts";

/** The socket is `<dir>/.s.PGSQL.5432`; the directory is private, so the port number can be the usual one. */
const PORT = 5432;
const DATABASE = "memnox";
const ROLE = "memnox";
/** sockaddr_un holds 108 bytes on Linux, 104 on macOS; `.s.PGSQL.5432` takes 13 of them. */
const MAX_SOCKET_DIR = 90;

interface ClusterOptions {
  /** Where the cluster lives (`<dir>/postgres/`); made when absent. */
  readonly dir: string;
  readonly env: Env;
  readonly proc: Proc;
  /** The unprivileged account postgres runs as when we are root. */
  readonly runAs?: string;
  /** No fsync: for tests and benches, where a lost cluster is a lost temporary directory. */
  readonly fast?: boolean;
  readonly say?: (line: string) => void;
}

export interface Cluster extends AsyncDisposable {
  /** A `postgres://` URL for Bun's SQL client, through the private socket. */
  readonly url: string;
  readonly dataDir: string;
  /** False when the cluster was already running (another process started it). */
  readonly startedHere: boolean;
  /**
   * This process stops using it: the cluster is stopped only when no other live process still uses it, whichever of
   * them started it, so a server that started it never stops it under another.
   */
  stop(): Promise<void>;
}

interface Account {
  readonly name: string;
  readonly uid: number;
  readonly gid: number;
}

/** initdb and pg_ctl from PATH, else the newest /usr/lib/postgresql/<version>/bin. */
export function postgresBin(env: Env): string {
  for (const dir of (env.PATH ?? "").split(":")) {
    if (dir && existsSync(join(dir, "initdb")) && existsSync(join(dir, "pg_ctl")))
      return dirname(realpathSync(join(dir, "initdb")));
  }
  const root = "/usr/lib/postgresql";
  const versions = existsSync(root)
    ? readdirSync(root)
        .filter((v) => existsSync(join(root, v, "bin", "initdb")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest !== undefined) return join(root, newest, "bin");
  throw new MemnoxError(
    "not_found",
    "no PostgreSQL binaries (initdb, pg_ctl) on this machine",
    "install PostgreSQL (Debian: apt-get install postgresql), or pass --db postgres://… for a database you run",
  );
}

async function account(proc: Proc, name: string): Promise<Account> {
  const [u, g] = await Promise.all([proc.run(["id", "-u", name]), proc.run(["id", "-g", name])]);
  const uid = Number(new TextDecoder().decode(u.stdout).trim());
  const gid = Number(new TextDecoder().decode(g.stdout).trim());
  if (u.code !== 0 || g.code !== 0 || !Number.isInteger(uid) || !Number.isInteger(gid))
    throw new MemnoxError(
      "not_found",
      `PostgreSQL refuses to run as root, and there is no \`${name}\` account to run it as`,
      "run as an ordinary user, or pass --db postgres://… for a database you run",
    );
  return { name, uid, gid };
}

/** The argv prefix that runs a command as `who` (nothing when we are that user already). */
function asUser(who: Account | undefined): string[] {
  return who ? ["setpriv", `--reuid=${who.uid}`, `--regid=${who.gid}`, "--clear-groups"] : [];
}

function ownedDir(path: string, mode: number, who: Account | undefined): void {
  mkdirSync(path, { recursive: true, mode });
  chmodSync(path, mode);
  if (who) chownSync(path, who.uid, who.gid);
}

/** `postmaster.pid` names the socket directory on its fifth line, so a second process finds a running cluster. */
function runningSocketDir(dataDir: string): string | undefined {
  let lines: string[];
  try {
    lines = readFileSync(join(dataDir, "postmaster.pid"), "utf8").split("\n");
  } catch {
    return undefined;
  }
  const pid = Number(lines[0]);
  const socketDir = lines[4]?.trim();
  if (!Number.isInteger(pid) || pid <= 0 || !socketDir) return undefined;
  try {
    process.kill(pid, 0);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== "EPERM") return undefined;
  }
  return existsSync(join(socketDir, `.s.PGSQL.${PORT}`)) ? socketDir : undefined;
}

/** Each process using the cluster holds a file named after its pid here; the last one out stops the cluster. */
function usersDir(home: string): string {
  return join(home, "users");
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The other live processes using the cluster; the files of dead ones are removed on the way. */
function otherUsers(home: string): number[] {
  const dir = usersDir(home);
  let names: string[] = [];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const out: number[] = [];
  for (const n of names) {
    const pid = Number(n);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    if (alive(pid)) out.push(pid);
    else rmSync(join(dir, n), { force: true });
  }
  return out;
}

const LOCK_STALE_MS = 90_000;

/** `fn` while holding the cluster's lock file: starting, joining and the last stop never interleave. */
function withClusterLock<T>(home: string, fn: () => Promise<T>): Promise<T> {
  const lock = join(home, "cluster.lock");
  // Starting a cluster takes as long as initdb: wait for it rather than give up.
  return withLockAsync(
    lock,
    { staleMs: LOCK_STALE_MS, timeoutMs: LOCK_STALE_MS, busy: `the cluster is locked (\`${lock}\`)` },
    fn,
  );
}

export function clusterUrl(socketDir: string): string {
  return `postgres://${ROLE}@localhost:${PORT}/${DATABASE}?path=${encodeURIComponent(socketDir)}`;
}

/** Starts (initialising on first use) the cluster under `opts.dir`, or joins the one already running there. */
export async function privateCluster(opts: ClusterOptions): Promise<Cluster> {
  const say = opts.say ?? (() => {});
  const bin = postgresBin(opts.env);
  const root = typeof process.getuid === "function" && process.getuid() === 0;
  const who = root ? await account(opts.proc, opts.runAs ?? "postgres") : undefined;
  // Absolute: postgres runs with its own working directory, and the socket path is handed to it as text.
  const dir = resolve(opts.dir);
  const home = join(dir, "postgres");
  const dataDir = join(home, "data");
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Root's files stay root's; postgres may only pass through to its own directory.
  if (who) chmodSync(dir, 0o711);
  ownedDir(home, 0o700, who);
  const run = async (argv: string[], what: string) => {
    const r = await opts.proc.run([...asUser(who), ...argv], { env: { PATH: opts.env.PATH, LANG: "C", TZ: "UTC" } });
    if (r.code !== 0) {
      const out = `${new TextDecoder().decode(r.stdout)}${r.stderr}`.trim().split("\n").slice(-6).join("\n");
      throw new MemnoxError("io", `${what} failed (exit ${r.code}): ${out}`);
    }
  };
  if (who) {
    const reach = await opts.proc.run([...asUser(who), "test", "-w", home]);
    if (reach.code !== 0)
      throw new MemnoxError(
        "refused",
        `PostgreSQL runs as \`${who.name}\` here (it refuses root), and \`${who.name}\` cannot reach ${home}`,
        `choose a data directory whose parents it can enter (--data /srv/memnox-cloud), or pass --db postgres://…`,
      );
  }
  return withClusterLock(home, async () => {
    mkdirSync(usersDir(home), { recursive: true, mode: 0o700 });
    writeFileSync(join(usersDir(home), String(process.pid)), `${new Date().toISOString()}\n`, { mode: 0o600 });
    let stopped = false;
    // Leaving: this process's file goes; the cluster stops only when nobody else alive still uses it.
    const leave = async () => {
      if (stopped) return;
      stopped = true;
      await withClusterLock(home, async () => {
        rmSync(join(usersDir(home), String(process.pid)), { force: true });
        const others = otherUsers(home);
        if (others.length > 0) {
          say(`PostgreSQL: left running in ${dataDir} for ${others.length} other process(es) using it`);
          return;
        }
        if (!runningSocketDir(dataDir)) return;
        await run([join(bin, "pg_ctl"), "-D", dataDir, "-m", "fast", "-w", "-t", "60", "stop"], "pg_ctl stop");
        say(`PostgreSQL: stopped the private cluster in ${dataDir}`);
      });
    };
    try {
      return await startOrJoin(leave);
    } catch (e) {
      rmSync(join(usersDir(home), String(process.pid)), { force: true });
      throw e;
    }
  });

  async function startOrJoin(leave: () => Promise<void>): Promise<Cluster> {
    const already = runningSocketDir(dataDir);
    if (already) {
      say(`PostgreSQL: joined the cluster already running in ${dataDir}`);
      return handle(clusterUrl(already), dataDir, false, leave);
    }
    if (!existsSync(join(dataDir, "PG_VERSION"))) {
      say(`PostgreSQL: initialising a private cluster in ${dataDir} (${bin})`);
      await run(
        [
          join(bin, "initdb"),
          "-D",
          dataDir,
          "-U",
          ROLE,
          "--auth=trust",
          "-E",
          "UTF8",
          "--no-locale",
          ...(opts.fast ? ["--no-sync"] : []),
        ],
        "initdb",
      );
    }
    const socketDir = privateSocketDir(home, who);
    const settings = [
      "-c listen_addresses=''",
      `-c unix_socket_directories='${socketDir}'`,
      "-c unix_socket_permissions=0700",
      ...(opts.fast ? ["-c fsync=off", "-c synchronous_commit=off", "-c full_page_writes=off"] : []),
    ].join(" ");
    try {
      await run(
        [
          join(bin, "pg_ctl"),
          "-D",
          dataDir,
          "-l",
          join(home, "postgres.log"),
          "-w",
          "-t",
          "60",
          "-o",
          settings,
          "start",
        ],
        "pg_ctl start",
      );
    } catch (e) {
      // Another process may have started it a moment before us.
      const theirs = runningSocketDir(dataDir);
      if (!theirs) throw e;
      return handle(clusterUrl(theirs), dataDir, false, leave);
    }
    say(`PostgreSQL: started a private cluster in ${dataDir}, socket in ${socketDir}`);
    await ensureDatabase(clusterUrl(socketDir).replace(`/${DATABASE}?`, "/postgres?"));
    return handle(clusterUrl(socketDir), dataDir, true, leave);
  }
}

function handle(url: string, dataDir: string, startedHere: boolean, stop: () => Promise<void>): Cluster {
  return { url, dataDir, startedHere, stop, [Symbol.asyncDispose]: stop };
}

/** `<home>/run` when the socket path fits, else a fresh private directory under the system's temporary one. */
function privateSocketDir(home: string, who: Account | undefined): string {
  const near = join(home, "run");
  const dir = Buffer.byteLength(near) <= MAX_SOCKET_DIR ? near : mkdtempSync(join(tmpdir(), "memnox-pg-"));
  ownedDir(dir, 0o700, who);
  return dir;
}

async function ensureDatabase(adminUrl: string): Promise<void> {
  const sql = new Bun.SQL(adminUrl, { max: 1 });
  try {
    const rows = await sql`SELECT 1 FROM pg_database WHERE datname = ${DATABASE}`;
    if (rows.length === 0) await sql.unsafe(`CREATE DATABASE ${DATABASE}`);
  } finally {
    await sql.close();
  }
}
