// Who is calling: a person's own terminal, or an agent's seat. Pure: the environment and the ancestry come in.
//
// An agent's seat is any of: a variable an agent or a memnox seam sets for the commands it runs; an agent program or
// a memnox seam (hook, governed shell, `memnox run`, the MCP faces) among the process's ancestors; or a
// process cut off from any terminal session a person started (reparented to the system with no terminal, or on a
// terminal whose session leader is not among its ancestors, or a walk that broke). Variables can be unset by the
// agent, so the ancestry is read whatever they say; they only add. An interceptor above says nothing by itself: it
// stands in front of whoever called it, so a person's own `git commit` whose hook runs `rm` is still the person's,
// and an agent's is the agent's (the agent, or the seam that started it, is further up).
import { AGENT_PROGRAMS } from "../core/agents.ts";
import type { Ancestry, Env, ProcessInfo } from "../ports/index.ts";

/** Package folders an agent's script lives in, when it runs under node, bun or python. */
const AGENT_PACKAGES = /\/(@anthropic-ai\/claude-code|@openai\/codex|@google\/gemini-cli|aider|goose)\//;

const INTERPRETERS = /^(node|nodejs|bun|deno|python[0-9.]*)$/;

/** Variables agents set for the commands they run (checked with each one), and those memnox's seams set. */
const AGENT_VARIABLES = [
  "CLAUDECODE",
  "CLAUDE_CODE_EXECPATH",
  "AI_AGENT",
  "GEMINI_CLI",
  "CODEX_SANDBOX",
  "CODEX_THREAD_ID",
  "CURSOR_AGENT",
  "MEMNOX_SESSION",
  "MEMNOX_AGENT_NAME",
  "MEMNOX_SEAT",
] as const;

type MemnoxFace = "hook" | "interceptor" | "shell" | "run" | "mcp-proxy" | "session" | "cli" | "daemon";

/** This executable, to know memnox among the ancestors: the binary, or bun and the script from source. */
interface SelfBinary {
  readonly exe: string;
  readonly script?: string;
}

/** This executable as its ancestors would show it: the binary, or bun with the script from source. */
export function selfBinary(ctx: { readonly execPath: string; readonly selfArgv: readonly string[] }): SelfBinary {
  const script = ctx.selfArgv.length > 1 ? ctx.selfArgv[1] : undefined;
  return { exe: ctx.execPath, ...(script ? { script } : {}) };
}

export interface Seat {
  readonly kind: "person" | "agent";
  /** Why, in words a person reads: which variable or process made it an agent's seat. */
  readonly why: string;
}

function base(path: string): string {
  return (path.split("/").pop() ?? path).replace(/\.(exe|js|cjs|mjs)$/, "").toLowerCase();
}

/** The agent program this process is, if any. */
export function agentProgram(p: ProcessInfo): string | undefined {
  const names = [base(p.comm), base(p.argv[0] ?? "")];
  const own = names.find((n) => AGENT_PROGRAMS.has(n));
  if (own) return own;
  if (!names.some((n) => INTERPRETERS.test(n))) return undefined;
  const script = p.argv.slice(1).find((a) => !a.startsWith("-"));
  if (!script) return undefined;
  if (AGENT_PROGRAMS.has(base(script))) return base(script);
  return AGENT_PACKAGES.test(script) ? (AGENT_PACKAGES.exec(script)?.[1] ?? "agent") : undefined;
}

/** Which memnox face this process is, if it is memnox at all. */
export function memnoxFace(p: ProcessInfo, self: SelfBinary): MemnoxFace | undefined {
  const compiled = self.script === undefined;
  const isMemnox = compiled
    ? p.exe !== undefined && p.exe === self.exe
    : p.exe === self.exe && p.argv.slice(1, 3).some((a) => a === self.script || a.endsWith("/bin/memnox.ts"));
  if (!isMemnox) return undefined;
  const argv0 = base(compiled ? (p.argv[0] ?? "") : (p.argv0 ?? "memnox"));
  const args = compiled ? p.argv.slice(1) : p.argv.slice(p.argv.findIndex((a) => a.endsWith("memnox.ts")) + 1);
  if (argv0 === "memnox-shell" || argv0 === "memnox-bash" || argv0 === "memnox-zsh") return "shell";
  if (argv0 === "memnox-mcp-proxy") return "mcp-proxy";
  if (argv0 === "memnox-session") return "session";
  if (!argv0.startsWith("memnox")) return "interceptor";
  const [first, second] = args;
  if (first === "hook") return "hook";
  if (first === "run") return "run";
  if (first === "shim") return "interceptor";
  if (first === "shell") return "shell";
  if (first === "mcp" && second === "proxy") return "mcp-proxy";
  if (first === "mcp" && second === "session") return "session";
  if (first === "daemon" && args.length === 1) return "daemon";
  return "cli";
}

const SEAT_FACES = new Set<MemnoxFace>(["hook", "shell", "run", "mcp-proxy", "session"]);

function describe(p: ProcessInfo, what: string): string {
  return `${what} (pid ${p.pid}, ${base(p.argv[0] ?? p.comm) || p.comm})`;
}

/** The environment with every variable that marks an agent's seat taken out (for what memnox starts on its own). */
export function withoutSeatVariables(env: Env): Env {
  const out: Record<string, string | undefined> = { ...env };
  for (const k of AGENT_VARIABLES) delete out[k];
  return out;
}

/** The variable that marks this environment as an agent's, if one does. */
function agentVariable(env: Env): string | undefined {
  return AGENT_VARIABLES.find((k) => env[k] !== undefined && env[k] !== "");
}

/** A person's terminal, or an agent's seat, and why. */
export function seatOf(env: Env, ancestry: Ancestry | undefined, self: SelfBinary): Seat {
  const variable = agentVariable(env);
  if (variable)
    return { kind: "agent", why: `${variable} is set, which an agent or a memnox seam sets for what it runs` };
  if (!ancestry) return { kind: "person", why: "nothing in its environment says an agent runs it" };
  const [me, ...above] = ancestry.chain;
  for (const p of above) {
    const agent = agentProgram(p);
    if (agent) return { kind: "agent", why: `an agent runs it: ${describe(p, agent)} is among its parents` };
    const face = memnoxFace(p, self);
    if (face && SEAT_FACES.has(face))
      return { kind: "agent", why: `it runs inside a memnox ${face}: ${describe(p, face)} is among its parents` };
  }
  const cut = detached(ancestry, me);
  if (cut) return { kind: "agent", why: cut };
  return { kind: "person", why: "no agent and no memnox seam among its parents, and it sits in a terminal session" };
}

/** A process cut off from the session it came from is how a command leaves its agent's tree: never a person's. */
function detached(ancestry: Ancestry, me: ProcessInfo | undefined): string | undefined {
  if (!me) return undefined;
  if (!ancestry.complete)
    return "its parents could not all be read (one ended while it started), so it is not taken for a person's terminal";
  const parent = ancestry.chain[1];
  const orphan =
    me.ppid <= 1 || (parent !== undefined && base(parent.comm) === "systemd" && parent.argv.includes("--user"));
  if (orphan && me.tty === 0) return "it was left running on its own, with no terminal and no parent but the system";
  if (me.sid !== undefined && me.tty !== undefined && me.tty !== 0 && me.sid !== me.pid) {
    const leaderAbove = ancestry.chain.some((p) => p.pid === me.sid);
    if (!leaderAbove) return "it was left running outside the terminal session it came from";
  }
  return undefined;
}

/**
 * A hook face started from inside an agent's tool call rather than by the agent itself: a forged call. It records
 * nothing (its verdict is still the gate's, so a mistaken guess never lets anything through). Told by the variable
 * Claude Code gives its tools (`AI_AGENT=…_agent`; its hooks get `…_harness`), and by a memnox seam between this
 * process and the nearest agent among its parents (an agent nested under a seam still records its own hooks).
 */
export function hookByHand(env: Env, ancestry: Ancestry | undefined, self: SelfBinary): string | undefined {
  if (/_agent$/.test(env.AI_AGENT ?? "")) return "AI_AGENT says it runs inside an agent's tool call";
  if (!ancestry) return undefined;
  for (const p of ancestry.chain.slice(1)) {
    if (agentProgram(p)) return undefined;
    const face = memnoxFace(p, self);
    if (face === "hook" || face === "interceptor" || face === "shell")
      return `it runs inside a memnox ${face} (pid ${p.pid})`;
  }
  return undefined;
}
