// The real Claude Code CLI (node_modules/.bin/claude) in a temporary project with a temporary HOME, talking to a
// scripted model on loopback; its hooks come from the project's .claude/settings.json.
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type { Env } from "../../src/ports/index.ts";
import type { ScriptedModel } from "./anthropic.ts";
import { type TempDir, type Tree, tempDir } from "./fs.ts";
import { gitRepo } from "./git.ts";
import { hermeticEnv } from "./home.ts";

const CLAUDE = join(import.meta.dir, "..", "..", "node_modules", ".bin", "claude");

export interface HookEntry {
  readonly matcher?: string;
  /** The command Claude Code runs, with the payload on stdin. */
  readonly command: string;
  /** Seconds, as Claude Code counts them. */
  readonly timeout?: number;
}

export interface ClaudeProject extends AsyncDisposable {
  /** The project directory (a git repository with `tree` committed). */
  readonly dir: string;
  readonly home: string;
  run(prompt: string, opts?: RunClaudeOptions): Promise<ClaudeRun>;
}

export interface RunClaudeOptions {
  readonly env?: Env;
  /** A launcher the CLI runs under, e.g. `[memnox, "run", "--"]`. */
  readonly launcher?: readonly string[];
  /** Tools Claude Code's own permissions let run without asking (`--allowedTools`). */
  readonly allowedTools?: readonly string[];
  readonly permissionMode?: string;
  /** Another scripted model for this run (a second session in the same project and home). */
  readonly model?: ScriptedModel;
}

export interface ClaudeRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  /** The `--output-format json` result object. */
  readonly result: Readonly<Record<string, unknown>>;
}

export interface ClaudeProjectOptions {
  readonly model: ScriptedModel;
  /** Event name -> entries, written as `.claude/settings.json` `hooks`. */
  readonly hooks: Readonly<Record<string, readonly HookEntry[]>>;
  readonly tree?: Tree;
  /** A home made elsewhere (a kernel wall's test keeps it out of temp); the project still gets its own. */
  readonly home?: TempDir;
}

/** A trusted project (hooks and permissions honoured) in a throwaway HOME. */
export function claudeProject(opts: ClaudeProjectOptions): ClaudeProject {
  const home: TempDir = opts.home ?? tempDir("memnox-claude-home");
  const repo = gitRepo({ "README.md": "scratch project\n", ...opts.tree });
  writeSettings(repo.path, opts.hooks);
  writeFileSync(
    join(home.path, ".claude.json"),
    JSON.stringify({
      hasCompletedOnboarding: true,
      projects: { [repo.path]: { hasTrustDialogAccepted: true, hasCompletedProjectOnboarding: true } },
    }),
  );
  return {
    dir: repo.path,
    home: home.path,
    run: (prompt, runOpts = {}) => runClaude(repo.path, home.path, runOpts.model ?? opts.model, prompt, runOpts),
    [Symbol.asyncDispose]: async () => {
      repo[Symbol.dispose]();
      home[Symbol.dispose]();
    },
  };
}

function writeSettings(dir: string, hooks: Readonly<Record<string, readonly HookEntry[]>>): void {
  const settings: Record<string, unknown[]> = {};
  for (const [event, entries] of Object.entries(hooks)) {
    settings[event] = entries.map((e) => ({
      ...(e.matcher !== undefined ? { matcher: e.matcher } : {}),
      hooks: [{ type: "command", command: e.command, ...(e.timeout ? { timeout: e.timeout } : {}) }],
    }));
  }
  mkdirSync(join(dir, ".claude"), { recursive: true });
  writeFileSync(join(dir, ".claude", "settings.json"), JSON.stringify({ hooks: settings }, null, 2));
}

async function runClaude(
  dir: string,
  home: string,
  model: ScriptedModel,
  prompt: string,
  opts: RunClaudeOptions,
): Promise<ClaudeRun> {
  const env = hermeticEnv({
    HOME: home,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: "sk-ant-scripted-test-key",
    DISABLE_AUTOUPDATER: "1",
    DISABLE_TELEMETRY: "1",
    DISABLE_ERROR_REPORTING: "1",
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: "1",
    ...opts.env,
  });
  const argv = [...(opts.launcher ?? []), CLAUDE, "-p", prompt, "--output-format", "json"];
  if (opts.permissionMode) argv.push("--permission-mode", opts.permissionMode);
  if (opts.allowedTools) argv.push("--allowedTools", opts.allowedTools.join(","));
  const child = Bun.spawn(argv, { cwd: dir, env, stdin: "ignore", stdout: "pipe", stderr: "pipe" });
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  return { code, stdout, stderr, result: parseResult(stdout, stderr) };
}

function parseResult(stdout: string, stderr: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(stdout);
    if (typeof v === "object" && v !== null) return v as Record<string, unknown>;
  } catch {
    // fall through to the error below, which shows what the CLI printed
  }
  throw new Error(
    `claude did not print a JSON result\nstdout: ${stdout.slice(0, 2000)}\nstderr: ${stderr.slice(0, 2000)}`,
  );
}
