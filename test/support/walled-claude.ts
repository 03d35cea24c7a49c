// A machine set up as a person sets it up (setup, protect --wall, enforce), a daemon running, and real Claude Code
// sessions against a scripted model. Claude Code reads managed settings only at /etc/claude-code, so each session
// runs in a mount namespace of its own where that path is the test's folder (an overlay over /etc: nothing of the
// real /etc is written). memnox writes the same folder through MEMNOX_CLAUDE_MANAGED_DIR.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { type ScriptedModel, scriptedModel, type Turn } from "./anthropic.ts";
import { compiledBinary, runBinary } from "./binary.ts";
import { type ClaudeProject, type ClaudeRun, claudeProject } from "./claude.ts";
import { type RunningDaemon, startDaemon } from "./daemon.ts";
import type { TempDir, Tree } from "./fs.ts";
import { type FakeHome, stopDaemonOf } from "./home.ts";
import { wallDir, wallHome } from "./wall.ts";

export const CANARY = "CANARY-KEY-7f3a9c11";
export const KEY_TEXT = `-----BEGIN OPENSSH PRIVATE KEY-----\n${CANARY}\n-----END OPENSSH PRIVATE KEY-----\n`;

export interface WalledMachine extends AsyncDisposable {
  readonly home: FakeHome;
  readonly bin: string;
  /** The folder standing in for /etc/claude-code. */
  readonly managed: string;
  readonly daemon: RunningDaemon;
  /** Outside every temp directory, so the wall can hold it (a repository elsewhere, an origin). */
  readonly outside: TempDir;
  env(extra?: Record<string, string>): Record<string, string>;
  memnox(args: readonly string[], cwd?: string): ReturnType<typeof runBinary>;
  /** A project: a git repository Claude Code trusts, in temp. */
  project(tree?: Tree): ClaudeProject;
  session(
    project: ClaudeProject,
    turns: readonly Turn[],
    prompt?: string,
  ): Promise<{ run: ClaudeRun; model: ScriptedModel }>;
}

/** unshare + an overlay on /etc + the test's managed folder bound at /etc/claude-code, then the command. */
function launcher(managed: string, scratch: string): string[] {
  const script = [
    `mkdir -p '${scratch}/u' '${scratch}/w'`,
    `mount -t overlay overlay -o 'lowerdir=/etc,upperdir=${scratch}/u,workdir=${scratch}/w' /etc`,
    "mkdir -p /etc/claude-code",
    `mount --bind '${managed}' /etc/claude-code`,
    'exec "$@"',
  ].join(" && ");
  return ["unshare", "-m", "--propagation", "private", "sh", "-c", script, "sh"];
}

export async function walledMachine(tree: Tree = {}): Promise<WalledMachine> {
  const bin = await compiledBinary();
  const home = wallHome({ ".ssh/id_ed25519": KEY_TEXT, ".bashrc": "# the person's own\n", ...tree });
  const outside = wallDir("memnox-outside");
  const managed = join(outside.path, "claude-managed");
  mkdirSync(managed, { recursive: true });
  const env = (extra: Record<string, string> = {}) => home.env({ MEMNOX_CLAUDE_MANAGED_DIR: managed, ...extra });
  const memnox = (args: readonly string[], cwd = home.home) => runBinary("memnox", args, { env: env(), cwd });
  for (const step of [
    ["setup", "--yes"],
    ["protect", "--wall"],
    ["config", "set", "mode", "enforce"],
    // Setup starts a daemon of its own where no service manager answers: the test's own takes its place.
    ["daemon", "--uninstall"],
  ]) {
    const r = await memnox(step);
    if (r.code !== 0) throw new Error(`memnox ${step.join(" ")}: ${r.stdout}${r.stderr}`);
  }
  // Setup started a daemon in the background; this machine's is the one the test watches and stops.
  stopDaemonOf(home.memnoxHome);
  const daemon = await startDaemon(home, { env: { MEMNOX_CLAUDE_MANAGED_DIR: managed } });
  const projects: ClaudeProject[] = [];
  const models: ScriptedModel[] = [];
  return {
    home,
    bin,
    managed,
    daemon,
    outside,
    env,
    memnox,
    project(t = {}) {
      // Each session brings its own model (ANTHROPIC_BASE_URL below): the project's is never asked.
      const p = claudeProject({ model: { url: "http://127.0.0.1:9" } as ScriptedModel, home, hooks: {}, tree: t });
      projects.push(p);
      return p;
    },
    async session(project, turns, prompt = "do the task") {
      const model = scriptedModel([...turns, { text: "finished" }]);
      models.push(model);
      const run = await sessionIn(project, model, prompt, { bin, managed, outside: outside.path, env: env() });
      return { run, model };
    },
    async [Symbol.asyncDispose]() {
      await daemon.stop();
      for (const m of models) await m[Symbol.asyncDispose]();
      for (const p of projects) await p[Symbol.asyncDispose]();
      outside[Symbol.dispose]();
      home[Symbol.dispose]();
    },
  };
}

let sessions = 0;

async function sessionIn(
  project: ClaudeProject,
  model: ScriptedModel,
  prompt: string,
  o: { bin: string; managed: string; outside: string; env: Record<string, string> },
): Promise<ClaudeRun> {
  const scratch = join(o.outside, `ns-${process.pid}-${sessions++}`);
  mkdirSync(scratch, { recursive: true });
  // The project's own settings file names no hooks: memnox's come from the managed settings alone.
  writeFileSync(join(project.dir, ".claude", "settings.json"), "{}\n");
  return project.run(prompt, {
    launcher: launcher(o.managed, scratch),
    permissionMode: "bypassPermissions",
    env: { ...o.env, IS_SANDBOX: "1", ANTHROPIC_BASE_URL: model.url },
  });
}

export const bash = (command: string): Turn => ({ toolUse: { name: "Bash", input: { command, description: "run" } } });
