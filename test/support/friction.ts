// The friction measure: an agent's local loop (fixtures/friction/local-loop.jsonl) through the compiled binary's real
// Claude Code PreToolUse hook, in enforce under the baseline, in a realistic repository (fixtures/friction/project.json).
// FRICTION_CORPUS and FRICTION_PROJECT name other files of the same shapes, so a held-out corpus measures the same.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";

const ROOT = resolve(import.meta.dir, "..", "..");
const FIXTURES = join(ROOT, "fixtures", "friction");

export interface FrictionCase {
  /** Claude Code's tool name: `Bash`, `Read`, `mcp__filesystem__read_text_file`… */
  readonly tool: string;
  /** What kind of work it is (test, build, lint, git, files, http…), for the report. */
  readonly kind: string;
  /** The tool's input; `$REPO`, `$REPO/` and `~/` in strings are the project and the home. */
  readonly input: Readonly<Record<string, unknown>>;
}

interface ProjectSpec {
  readonly files: Readonly<Record<string, string>>;
  /** Programs installed in node_modules/.bin. */
  readonly bins: readonly string[];
  /** Files git ignores (build output, installed packages), written after the commit. */
  readonly ignored: Readonly<Record<string, string>>;
  /** Files in the home directory (public keys, known hosts). */
  readonly home: Readonly<Record<string, string>>;
}

export function frictionCases(
  file = process.env.FRICTION_CORPUS ?? join(FIXTURES, "local-loop.jsonl"),
): FrictionCase[] {
  return readFileSync(file, "utf8")
    .split("\n")
    .filter((l) => l.trim() !== "")
    .map((l) => JSON.parse(l) as FrictionCase);
}

function write(root: string, files: Readonly<Record<string, string>>, mode?: number): void {
  for (const [rel, text] of Object.entries(files)) {
    const path = join(root, rel);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, text, mode === undefined ? {} : { mode });
  }
}

export interface FrictionBench extends Disposable {
  readonly dir: string;
  readonly home: string;
  readonly repo: string;
  readonly env: Record<string, string>;
}

/** A home with the baseline protect --yes writes, in enforce, and the project as a committed checkout. */
export function frictionBench(memnox: string, file = process.env.FRICTION_PROJECT): FrictionBench {
  const spec = JSON.parse(readFileSync(file ?? join(FIXTURES, "project.json"), "utf8")) as ProjectSpec;
  const dir = mkdtempSync(join(tmpdir(), "memnox-friction-"));
  const home = join(dir, "home");
  const repo = join(dir, "shop");
  mkdirSync(join(home, ".memnox"), { recursive: true });
  write(home, spec.home);
  write(repo, spec.files);
  for (const f of Object.keys(spec.files).filter((f) => f.endsWith(".sh")))
    Bun.spawnSync(["chmod", "+x", join(repo, f)]);
  const env: Record<string, string> = {
    HOME: home,
    MEMNOX_HOME: join(home, ".memnox"),
    PATH: process.env.PATH ?? "",
    TZ: "Etc/UTC",
    NO_COLOR: "1",
    LANG: "C.UTF-8",
    GIT_CONFIG_NOSYSTEM: "1",
    GIT_AUTHOR_NAME: "Agent",
    GIT_AUTHOR_EMAIL: "agent@example.invalid",
    GIT_COMMITTER_NAME: "Agent",
    GIT_COMMITTER_EMAIL: "agent@example.invalid",
  };
  const git = (...args: string[]) => Bun.spawnSync(["git", ...args], { cwd: repo, env, stdout: "ignore" });
  git("init", "-q", "-b", "main");
  git("add", "-A");
  git("commit", "-q", "-m", "shop");
  write(repo, spec.ignored);
  for (const b of spec.bins) write(repo, { [`node_modules/.bin/${b}`]: "#!/bin/sh\n" }, 0o755);
  Bun.spawnSync([memnox, "protect", "--yes"], { env, cwd: repo, stdout: "ignore", stderr: "ignore" });
  Bun.spawnSync([memnox, "config", "set", "mode", "enforce"], { env, cwd: repo, stdout: "ignore", stderr: "ignore" });
  return { dir, home, repo, env, [Symbol.dispose]: () => rmSync(dir, { recursive: true, force: true }) };
}

function placed(v: unknown, repo: string, home: string): unknown {
  if (typeof v === "string")
    return v === "$REPO" ? repo : v.replaceAll("$REPO/", `${repo}/`).replace(/^~\//, `${home}/`);
  if (Array.isArray(v)) return v.map((x) => placed(x, repo, home));
  if (v && typeof v === "object")
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, placed(x, repo, home)]));
  return v;
}

/** Claude Code's PreToolUse payload, as its 2.1 releases send it (fixtures/hooks/claude-code). */
export function payload(c: FrictionCase, b: FrictionBench, i: number): string {
  return JSON.stringify({
    session_id: "friction-0000-4000-8000-000000000000",
    transcript_path: join(b.home, ".claude", "projects", "shop", "friction.jsonl"),
    cwd: b.repo,
    permission_mode: "default",
    hook_event_name: "PreToolUse",
    tool_name: c.tool,
    tool_input: placed(c.input, b.repo, b.home),
    tool_use_id: `toolu_friction_${i}`,
  });
}

export interface Verdict {
  readonly decision: "allow" | "ask" | "deny";
  readonly reason: string;
}

/** What the hook told Claude Code: exit 2 or `deny` refuses, `ask` puts it to the person; anything else proceeds. */
export function verdictOf(code: number, stdout: string): Verdict {
  if (code === 2) return { decision: "deny", reason: "exit 2" };
  try {
    const out = JSON.parse(stdout) as {
      hookSpecificOutput?: { permissionDecision?: string; permissionDecisionReason?: string };
    };
    const d = out.hookSpecificOutput?.permissionDecision;
    const reason = out.hookSpecificOutput?.permissionDecisionReason ?? "";
    return d === "deny" || d === "ask" ? { decision: d, reason } : { decision: "allow", reason };
  } catch {
    return { decision: "allow", reason: "" };
  }
}

export interface FrictionResult {
  readonly total: number;
  readonly stopped: readonly { readonly c: FrictionCase; readonly v: Verdict }[];
  readonly share: number;
}

/** One hook call: the payload in, Claude Code's view of the answer out. */
export type HookRunner = (payload: string, b: FrictionBench) => Promise<{ code: number; stdout: string }>;

/** `memnox hook claude-code PreToolUse` of the compiled binary, one process per call as Claude Code starts them. */
export function binaryHook(memnox: string): HookRunner {
  return async (stdin, b) => {
    const p = Bun.spawn([memnox, "hook", "claude-code", "PreToolUse"], {
      env: b.env,
      cwd: b.repo,
      stdin: new Blob([stdin]),
      stdout: "pipe",
      stderr: "ignore",
    });
    const [stdout, code] = await Promise.all([new Response(p.stdout).text(), p.exited]);
    return { code, stdout };
  };
}

/** Every case through the hook, in order, in one session. */
export async function measureFriction(
  b: FrictionBench,
  cases: readonly FrictionCase[],
  hook: HookRunner,
): Promise<FrictionResult> {
  const stopped: { c: FrictionCase; v: Verdict }[] = [];
  for (const [i, c] of cases.entries()) {
    const r = await hook(payload(c, b, i), b);
    const v = verdictOf(r.code, r.stdout);
    if (v.decision !== "allow") stopped.push({ c, v });
  }
  return { total: cases.length, stopped, share: cases.length === 0 ? 0 : stopped.length / cases.length };
}

export function describeCase(c: FrictionCase): string {
  return typeof c.input.command === "string" ? c.input.command : `${c.tool} ${JSON.stringify(c.input)}`;
}
