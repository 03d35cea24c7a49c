// Milestone and restore time on a large working tree, next to `git stash push -u` + `git stash pop` on the same tree.
// Run: bun bench/rewind.bench.ts   (REWIND_BENCH_FILES / REWIND_BENCH_ROUNDS to scale it)
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { bunGit, ownGit } from "../src/adapters/proc.ts";
import { memnoxPaths } from "../src/ports/paths.ts";
import { idGenerator } from "../src/rewind/id.ts";
import { takeMilestone } from "../src/rewind/milestones.ts";
import { rewind } from "../src/rewind/rewind.ts";
import type { RewindDeps } from "../src/rewind/types.ts";

const FILES = Number(process.env.REWIND_BENCH_FILES ?? 10_000);
const ROUNDS = Number(process.env.REWIND_BENCH_ROUNDS ?? 5);
const FILE_BYTES = 10 * 1024;
const CHANGED = Math.max(1, Math.floor(FILES / 10));

const root = realpathSync(mkdtempSync(join(tmpdir(), "memnox-rewind-bench-")));
const env = {
  PATH: process.env.PATH,
  HOME: join(root, "home"),
  GIT_CONFIG_NOSYSTEM: "1",
  GIT_AUTHOR_NAME: "bench",
  GIT_AUTHOR_EMAIL: "bench@example.invalid",
  GIT_COMMITTER_NAME: "bench",
  GIT_COMMITTER_EMAIL: "bench@example.invalid",
};
const repo = join(root, "repo");

function git(...args: string[]): void {
  const r = Bun.spawnSync(["git", ...args], { cwd: repo, env, stdout: "ignore", stderr: "pipe" });
  if (r.exitCode !== 0) throw new Error(`git ${args.join(" ")}: ${r.stderr.toString()}`);
}

/** Text that compresses about as well as source code does: deterministic per (seed, file). */
function content(seed: number, i: number): string {
  let x = (seed * 2654435761 + i * 40503 + 1) >>> 0;
  const words = ["const", "return", "function", "import", "export", "value", "index", "result", "if", "else"];
  let out = "";
  while (out.length < FILE_BYTES) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    out += `${words[x % words.length]} v${x.toString(36)} = ${x % 997};\n`;
  }
  return out.slice(0, FILE_BYTES);
}

const path = (i: number) => join(repo, `d${String(i % 100).padStart(2, "0")}`, `f${i}.ts`);
const untracked = (i: number) => join(repo, `new${String(i % 10)}`, `u${i}.ts`);

/** A tenth of the tracked files edited and as many untracked files written, with content no round has used. */
function dirty(seed: number): void {
  for (let i = 0; i < CHANGED; i++) writeFileSync(path((i * 7) % FILES), content(seed, i));
  for (let i = 0; i < CHANGED; i++) {
    mkdirSync(join(repo, `new${String(i % 10)}`), { recursive: true });
    writeFileSync(untracked(i), content(seed + 1_000_000, i));
  }
}

async function time(fn: () => unknown): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? Number.NaN;

async function main(): Promise<void> {
  mkdirSync(repo, { recursive: true });
  git("init", "-q", "-b", "main");
  for (let i = 0; i < FILES; i++) {
    if (i < 100) mkdirSync(join(repo, `d${String(i).padStart(2, "0")}`), { recursive: true });
    writeFileSync(path(i), content(0, i));
  }
  git("add", "-A");
  git("commit", "-q", "-m", "base");
  const deps: RewindDeps = {
    git: bunGit(env, ownGit(memnoxPaths(env), process.execPath)),
    env,
    clock: { now: Date.now },
    newId: idGenerator(Date.now),
  };
  const m: number[] = [];
  const push: number[] = [];
  const pop: number[] = [];
  const restore: number[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    dirty(r * 10);
    let kept = "";
    m.push(
      await time(
        async () => (kept = (await takeMilestone(deps, { dir: repo, kind: "manual", reason: "bench" })).milestone.id),
      ),
    );
    dirty(r * 10 + 1);
    push.push(await time(() => git("stash", "push", "-u", "-q")));
    pop.push(await time(() => git("stash", "pop", "-q")));
    dirty(r * 10 + 2);
    const target = { kind: "id" as const, id: kept };
    restore.push(await time(() => rewind(deps, { dir: repo, target, surface: "cli", record: () => {} })));
  }
  const unchanged: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    unchanged.push(await time(() => takeMilestone(deps, { dir: repo, kind: "manual", reason: "bench, unchanged" })));
  }
  const mb = (FILES * FILE_BYTES) / 1024 / 1024;
  const row = (name: string, ms: number, vs?: [string, number]) =>
    `  ${name.padEnd(34)}${ms.toFixed(0).padStart(7)} ms${vs ? `   ${(ms / vs[1]).toFixed(2)}x ${vs[0]}` : ""}`;
  const [mm, pp, po, rr] = [median(m), median(push), median(pop), median(restore)];
  console.log(
    `rewind: ${FILES.toLocaleString("en-US")} files, ${mb.toFixed(0)} MB; each round ${CHANGED} edited + ${CHANGED} untracked (median of ${ROUNDS})`,
  );
  console.log(row("git stash push -u", pp));
  console.log(row("git stash pop", po));
  console.log(row("git stash push -u + pop", pp + po));
  console.log(row("milestone", mm, ["git stash push -u", pp]));
  console.log(row("milestone, nothing changed since", median(unchanged), ["git stash push -u", pp]));
  console.log(row("rewind (own milestone + restore)", rr, ["git stash pop", po]));
  console.log(row("milestone + rewind", mm + rr, ["git stash push -u + pop", pp + po]));
  console.log(
    mm <= pp ? "target met: a milestone is no slower than git stash" : "TARGET MISSED: milestone slower than git stash",
  );
}

main()
  .catch((e) => {
    console.error(e);
    process.exitCode = 1;
  })
  .finally(() => rmSync(root, { recursive: true, force: true }));
