// A machine for the end-to-end tests of the workspace and the console: a temporary home whose PATH puts memnox's
// wrappers (links to the compiled binary) first, a repository with a bare remote it pushes to, and the commands a
// test runs there. Its id is filled in once it has logged in.
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { compiledBinary, runBinary } from "./binary.ts";
import { tempDir } from "./fs.ts";
import { type GitRepo, gitRepo } from "./git.ts";
import { type FakeHome, fakeHome } from "./home.ts";

const realPath = process.env.PATH ?? "";

export interface Machine extends Disposable {
  readonly name: string;
  readonly home: FakeHome;
  readonly repo: GitRepo;
  readonly remote: ReturnType<typeof tempDir>;
  env(extra?: Record<string, string>): Record<string, string>;
  id: string;
}

export function machine(name: string): Machine {
  const home = fakeHome();
  const repo = gitRepo({ "README.md": `${name}\n` });
  const remote = tempDir(`memnox-remote-${name}`);
  return {
    name,
    home,
    repo,
    remote,
    env: (extra = {}) => home.env({ PATH: `${join(home.memnoxHome, "bin")}:${realPath}`, ...extra }),
    id: "",
    [Symbol.dispose]() {
      for (const d of [home, repo, remote]) d[Symbol.dispose]();
    },
  };
}

/** The wrappers `wrappers` linked to `bin` in ~/.memnox/bin, and the repository pushed once to its bare remote. */
export function wire(m: Machine, bin: string, wrappers: readonly string[]): void {
  const dir = join(m.home.memnoxHome, "bin");
  mkdirSync(dir, { recursive: true });
  for (const name of wrappers) symlinkSync(bin, join(dir, name));
  Bun.spawnSync(["git", "init", "-q", "--bare", "-b", "main", m.remote.path]);
  m.repo.git("remote", "add", "origin", m.remote.path);
  m.repo.git("push", "-q", "origin", "main");
}

export const mx = (m: Machine, args: string[], extra: Record<string, string> = {}) =>
  runBinary("memnox", args, { env: m.env(extra), cwd: m.repo.path });

/** git as the agent's PATH finds it: memnox's interceptor first. */
export const gitOn = (m: Machine, args: string[], extra: Record<string, string> = {}) =>
  runBinary("git", args, { env: m.env(extra), cwd: m.repo.path });

/** What the bare remote holds for `ref`: what a refused push left alone. */
export const remoteRef = (m: Machine, ref: string) =>
  Bun.spawnSync(["git", "-C", m.remote.path, "rev-parse", "-q", "--verify", ref]).stdout.toString().trim();

/** `memnox sync now --json` on the machine, parsed; a failed pass throws with what it said. */
export async function syncNow(m: Machine) {
  const r = await mx(m, ["sync", "now", "--json"]);
  if (r.code !== 0) throw new Error(`sync now on ${m.name} failed (${r.code}): ${r.stderr}`);
  return JSON.parse(r.stdout);
}

/** Polls `check` until it gives something, failing with `what` after `ms`. */
export async function waitFor<T>(
  what: string,
  check: () => Promise<T | undefined> | T | undefined,
  ms = 20_000,
): Promise<T> {
  const until = Date.now() + ms;
  for (;;) {
    const v = await check();
    if (v) return v;
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await Bun.sleep(50);
  }
}

/**
 * `memnox login --no-open` on `m`, read up to the code it prints, approved with `admin`'s token, and waited for:
 * what it printed and its exit. The code is checked as a person would see it first (pending, at its URL).
 */
export async function loginWith(
  m: Machine,
  url: string,
  admin: string,
  extra: readonly string[] = [],
): Promise<{ code: number; out: string }> {
  const bin = await compiledBinary();
  return enrolApproved([bin, "login", "--no-open", "--url", url, ...extra], m.env(), m.repo.path, url, admin);
}

/**
 * Runs a command that enrols this machine by device code (`login`, `setup --url`), approves the code it prints as
 * the admin, and waits for it to finish; throws with what it printed when any step fails.
 */
export async function enrolApproved(
  argv: readonly string[],
  env: Record<string, string>,
  cwd: string,
  url: string,
  admin: string,
): Promise<{ code: number; out: string }> {
  const child = Bun.spawn([...argv], { env, cwd, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  let out = "";
  const decoder = new TextDecoder();
  const reader = child.stdout.getReader();
  let code = "";
  while (!code) {
    const { value, done } = await reader.read();
    if (done) break;
    out += decoder.decode(value, { stream: true });
    code = /code ([A-Z]{4}-[A-Z]{4})/.exec(out)?.[1] ?? "";
  }
  const call = (method: string, path: string) =>
    fetch(`${url}${path}`, { method, headers: { authorization: `Bearer ${admin}` } });
  if (!code || !out.includes(`${url}/device?code=${code}`)) throw new Error(`no code was printed: ${out}`);
  const seen = (await (await call("GET", `/v1/devices/${code}`)).json()) as { status?: string };
  if (seen.status !== "pending") throw new Error(`the code is ${seen.status}, not pending`);
  const ok = await call("POST", `/v1/devices/${code}/approve`);
  if (ok.status !== 200) throw new Error(`the approval was refused (${ok.status})`);
  for (;;) {
    const { value, done } = await reader.read();
    if (done) break;
    out += decoder.decode(value, { stream: true });
  }
  const exit = await child.exited;
  if (exit !== 0) throw new Error(`enrolment failed (${exit}): ${out}${await new Response(child.stderr).text()}`);
  return { code: exit, out };
}
