// `memnox doctor --prove`: each installed seam asked to refuse a force push (or an MCP call), through the seam
// itself — the command in the agent's hook config, the interceptor found on PATH, the governed shell, git's own
// pre-push, the wrapped MCP entry — never by calling the gate. They run against a scratch MEMNOX_HOME in enforce
// with one rule that says no, so the real ledger and settings are untouched. An absent seam has declined the test.
import {
  accessSync,
  constants,
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { AGENTS, type AgentName } from "../../hooks/types.ts";
import { shellWord } from "../core/shell-quote.ts";
import { pathWithout } from "../io/real-binary.ts";
import type { Context } from "../ports/context.ts";
import { parseDocument } from "./edit/document.ts";
import { readConfigFile } from "./files.ts";
import { gitHookState } from "./git-hooks.ts";
import { agentHookState } from "./hooks/install.ts";
import { commandsOf, hookMap, isMemnoxItem } from "./hooks/plan.ts";
import { pluginHook } from "./hooks/plugin-file.ts";
import { hookTarget } from "./hooks/targets.ts";
import { isMemnoxLink } from "./interceptors.ts";
import { FORCE_PUSH, forcePushPayload, refusedBy } from "./prove-agents.ts";
import { readClientFiles } from "./read.ts";
import type { ProofLine } from "./wiring-lines.ts";
import { unwrapCommand } from "./wrapping.ts";

const REASON = "memnox doctor --prove asked this seam to refuse";
const RULES = `version = 1
[[policies]]
name = "doctor-prove"
[policies.match]
actions = ["git.push-force", "mcp.*"]
[policies.decision]
effect = "deny"
reason = "${REASON}"
`;
const TIMEOUT_MS = 20_000;
/** The marker of a proof's scratch home: honoured while the process that made it runs. */
const PROVING = "proving.json";

interface Scratch {
  readonly dir: string;
  readonly repo: string;
  readonly env: Record<string, string>;
}

interface Ran {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
  readonly timedOut: boolean;
}

async function runIn(
  argv: readonly string[],
  s: Scratch,
  input = "",
  env: Record<string, string> = s.env,
): Promise<Ran> {
  const child = Bun.spawn([...argv], { cwd: s.repo, env, stdin: new Blob([input]), stdout: "pipe", stderr: "pipe" });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    child.kill("SIGKILL");
  }, TIMEOUT_MS);
  const [stdout, stderr, code] = await Promise.all([
    new Response(child.stdout).text(),
    new Response(child.stderr).text(),
    child.exited,
  ]);
  clearTimeout(timer);
  return { code, stdout, stderr, timedOut };
}

function gitSync(args: readonly string[], cwd: string, env: Record<string, string>): void {
  Bun.spawnSync(["git", ...args], { cwd, env, stdout: "ignore", stderr: "ignore" });
}

/** A repository whose next push to `origin main` needs --force, and an environment in enforce with one deny rule. */
/**
 * A scratch home inside memnox's own (which no agent can write), marked as a proof while this process runs: the installed
 * seams keep to the home they were installed in, except for a proof's. It carries the machine's rules too, so
 * pointing a call at it while a proof runs escapes nothing.
 */
function scratch(ctx: Context): Scratch {
  const under = join(ctx.paths.root, "prove");
  mkdirSync(under, { recursive: true, mode: 0o700 });
  const dir = mkdtempSync(join(under, "run-"));
  const home = join(dir, "memnox");
  mkdirSync(home, { mode: 0o700 });
  writeFileSync(join(home, "config.toml"), 'mode = "enforce"\n');
  if (existsSync(ctx.paths.machinePolicies))
    copyFileSync(ctx.paths.machinePolicies, join(home, "machine.policies.toml"));
  writeFileSync(join(home, PROVING), JSON.stringify({ pid: process.pid }));
  writeFileSync(join(dir, "prove.policies.toml"), RULES);
  const env: Record<string, string> = {};
  for (const [k, v] of Object.entries(ctx.env))
    if (v !== undefined && !/^MEMNOX_(SESSION|ARGV0|SHIM_DEPTH)$/.test(k)) env[k] = v;
  Object.assign(env, {
    MEMNOX_HOME: home,
    MEMNOX_POLICIES: join(dir, "prove.policies.toml"),
    GIT_TERMINAL_PROMPT: "0",
  });
  const repo = join(dir, "repo");
  const remote = join(dir, "remote.git");
  const git = {
    ...env,
    GIT_AUTHOR_NAME: "memnox",
    GIT_AUTHOR_EMAIL: "prove@memnox.invalid",
    GIT_COMMITTER_NAME: "memnox",
    GIT_COMMITTER_EMAIL: "prove@memnox.invalid",
  };
  // The scratch repository is made with the real git, never through an interceptor.
  const real = { ...git, PATH: pathWithout(env.PATH, [ctx.paths.bin]) };
  gitSync(["init", "-q", "--bare", "-b", "main", remote], dir, real);
  gitSync(["init", "-q", "-b", "main", repo], dir, real);
  gitSync(["commit", "-q", "--allow-empty", "-m", "one"], repo, real);
  gitSync(["remote", "add", "origin", remote], repo, real);
  gitSync(["-c", "core.hooksPath=/dev/null", "push", "-q", "origin", "main"], repo, real);
  gitSync(["commit", "-q", "--amend", "--allow-empty", "-m", "rewritten"], repo, real);
  return { dir, repo, env: { ...env, ...git } };
}

function firstLine(text: string): string {
  return (
    text
      .trim()
      .split("\n")
      .find((l) => l.trim() !== "")
      ?.trim()
      .slice(0, 200) ?? ""
  );
}

function verdict(seam: string, refused: boolean, r: Ran, what: string): ProofLine {
  if (r.timedOut) return { seam, result: "error", words: `${what} did not answer within ${TIMEOUT_MS / 1000}s` };
  if (refused) return { seam, result: "refused", words: `${what} refused it: ${REASON}` };
  return {
    seam,
    result: "allowed",
    words: `${what} let it through (exit ${r.code}${r.stderr.trim() ? `: ${firstLine(r.stderr)}` : ""})`,
  };
}

async function proveHook(ctx: Context, s: Scratch, agent: AgentName): Promise<ProofLine> {
  const seam = `hooks:${agent}`;
  const target = hookTarget(agent);
  const file = target.file({ home: ctx.paths.home, env: ctx.env });
  const text = readConfigFile(file)?.text;
  let command: unknown;
  try {
    const plugin = target.plugin ? pluginHook(file) : undefined;
    if (plugin && "problem" in plugin) throw new Error(plugin.problem);
    if (plugin) command = [...plugin.words, target.preShell].map(shellWord).join(" ");
    const list =
      target.plugin || text === undefined ? undefined : hookMap(parseDocument("json", text), file)?.[target.preShell];
    const item = Array.isArray(list) ? list.find((i) => isMemnoxItem(target, i)) : undefined;
    if (!target.plugin) command = item === undefined ? undefined : commandsOf(target, item)[0];
  } catch (e) {
    return { seam, result: "error", words: `${file} does not parse: ${e instanceof Error ? e.message : String(e)}` };
  }
  if (typeof command !== "string")
    return { seam, result: "declined", words: `no memnox ${target.preShell} hook in ${file}` };
  const payload = JSON.stringify(forcePushPayload(agent, s.repo, new Date(ctx.clock.now()).toISOString()));
  const r = await runIn(["/bin/sh", "-c", command], s, payload);
  const refused = refusedBy(agent, r.code, r.stdout) && (r.stdout + r.stderr).includes("doctor --prove");
  const line = verdict(seam, refused, r, `the ${target.preShell} hook in ${file}, fed \`${FORCE_PUSH}\`,`);
  // A hook that refuses when run proves nothing while its agent skips it: the agent's own switch or trust decides.
  const trust = agentHookState(ctx, agent).trust;
  if (line.result !== "refused" || !trust || trust.active) return line;
  return {
    seam,
    result: "inactive",
    words: `the ${target.preShell} hook in ${file} refuses when run, but ${trust.words}${trust.step ? ` → ${trust.step}` : ""}`,
  };
}

function firstOnPath(name: string, pathVar: string | undefined): string | undefined {
  for (const dir of (pathVar ?? "").split(":").filter(Boolean)) {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return join(dir, name);
    } catch {
      // Not here.
    }
  }
  return undefined;
}

async function proveInterceptor(ctx: Context, s: Scratch): Promise<ProofLine> {
  const git = firstOnPath("git", ctx.env.PATH);
  if (!git) return { seam: "interceptor", result: "declined", words: "no git on PATH" };
  if (!isMemnoxLink(git)) {
    return {
      seam: "interceptor",
      result: "declined",
      words: `git on this PATH is ${git}, not memnox's interceptor (memnox run -- puts it first)`,
    };
  }
  const r = await runIn([git, "push", "--force", "origin", "main"], s);
  return verdict("interceptor", r.code === 126 && r.stderr.includes(REASON), r, `${git}, run as \`${FORCE_PUSH}\`,`);
}

async function proveShell(ctx: Context, s: Scratch): Promise<ProofLine> {
  const shell = join(ctx.paths.bin, "memnox-shell");
  if (!isMemnoxLink(shell))
    return { seam: "shell", result: "declined", words: `no governed shell at ${shell} (memnox run -- links it)` };
  const r = await runIn([shell, "-c", FORCE_PUSH], s, "", { ...s.env, MEMNOX_REAL_SHELL: "/bin/sh" });
  return verdict(
    "shell",
    r.code === 126 && r.stderr.includes(REASON),
    r,
    `the governed shell, given \`${FORCE_PUSH}\`,`,
  );
}

async function proveGitHook(ctx: Context, s: Scratch): Promise<ProofLine> {
  const state = await gitHookState(ctx, ctx.cwd);
  if (!state) return { seam: "git-hook", result: "declined", words: "not in a git repository" };
  if (!state.hooks.find((h) => h.hook === "pre-push")?.ours) {
    return {
      seam: "git-hook",
      result: "declined",
      words: `no memnox pre-push in ${state.dir} (memnox protect --hooks installs it)`,
    };
  }
  const env = { ...s.env, PATH: pathWithout(s.env.PATH, [ctx.paths.bin]) };
  const r = await runIn(["git", "-c", `core.hooksPath=${state.dir}`, "push", "--force", "origin", "main"], s, "", env);
  return verdict(
    "git-hook",
    r.code !== 0 && r.stderr.includes(REASON),
    r,
    `git's pre-push from ${state.dir}, on a real force push,`,
  );
}

const ANSWER = `while IFS= read -r line; do printf '%s\\n' '{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"forwarded"}],"isError":false}}'; done`;

async function proveProxy(s: Scratch, seam: string, launcher: readonly string[], file: string): Promise<ProofLine> {
  const call = `${JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/call", params: { name: "memnox_prove", arguments: {} } })}\n`;
  const child = Bun.spawn([...launcher, "/bin/sh", "-c", ANSWER], {
    cwd: s.repo,
    env: s.env,
    stdin: "pipe",
    stdout: "pipe",
    stderr: "pipe",
  });
  child.stdin.write(call);
  await child.stdin.flush();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), TIMEOUT_MS);
  });
  const answer = await Promise.race([firstAnswer(child.stdout), late]);
  clearTimeout(timer);
  child.kill();
  await child.exited;
  const what = `the wrapped entry in ${file}, asked for a tool call,`;
  if (answer === undefined)
    return { seam, result: "error", words: `${what} did not answer within ${TIMEOUT_MS / 1000}s` };
  const result = (answer as { result?: { isError?: boolean; content?: { text?: string }[] } }).result;
  const text = result?.content?.map((c) => c.text ?? "").join(" ") ?? "";
  if (result?.isError && text.includes(REASON))
    return { seam, result: "refused", words: `${what} refused it: ${REASON}` };
  return { seam, result: "allowed", words: `${what} passed it to the server` };
}

async function firstAnswer(stream: ReadableStream<Uint8Array>): Promise<unknown> {
  const decoder = new TextDecoder();
  let buffered = "";
  for await (const chunk of stream) {
    buffered += decoder.decode(chunk, { stream: true });
    for (const line of buffered.split("\n").slice(0, -1)) {
      try {
        const msg = JSON.parse(line) as { id?: unknown };
        if (msg.id === 1) return msg;
      } catch {
        // Not a message of ours.
      }
    }
    buffered = buffered.slice(buffered.lastIndexOf("\n") + 1);
  }
  return undefined;
}

async function proveProxies(ctx: Context, s: Scratch): Promise<ProofLine[]> {
  const out: ProofLine[] = [];
  for (const r of await readClientFiles({ home: ctx.paths.home, cwd: ctx.cwd, env: ctx.env })) {
    if (!r.ok) continue;
    for (const e of r.servers) {
      if (e.command === undefined || !unwrapCommand(e.command, e.args ?? [])) continue;
      const args = e.args ?? [];
      const launcher = [e.command, ...args.slice(0, args.indexOf("--") + 1)];
      out.push(await proveProxy(s, `proxy:${e.name}`, launcher, r.file.path));
    }
  }
  if (out.length === 0)
    out.push({ seam: "proxy", result: "declined", words: "no MCP server here runs through the proxy" });
  return out;
}

export async function proveAll(ctx: Context): Promise<ProofLine[]> {
  const s = scratch(ctx);
  try {
    const hooks: ProofLine[] = [];
    for (const agent of AGENTS) hooks.push(await proveHook(ctx, s, agent));
    return [
      ...hooks,
      await proveInterceptor(ctx, s),
      await proveShell(ctx, s),
      await proveGitHook(ctx, s),
      ...(await proveProxies(ctx, s)),
    ];
  } finally {
    rmSync(s.dir, { recursive: true, force: true });
  }
}
