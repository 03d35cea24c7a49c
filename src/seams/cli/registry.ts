// Every command, in the order a person meets them; `terminal` marks the eight `memnox --help` shows.
import type { CommandFactory } from "./command.ts";

interface CommandEntry {
  readonly name: string;
  readonly summary: string;
  readonly terminal?: true;
  /** Words after `--` are the command's own (`memnox run -- claude -p …`), never checked as memnox's. */
  readonly rest?: true;
  readonly load: () => Promise<CommandFactory>;
}

export const COMMANDS: readonly CommandEntry[] = [
  {
    name: "setup",
    terminal: true,
    summary: "put this machine under memnox, once",
    load: () => import("./commands/setup.ts").then((m) => m.setup),
  },
  {
    name: "status",
    terminal: true,
    summary: "where this machine stands",
    load: () => import("./commands/status.ts").then((m) => m.status),
  },
  {
    name: "rewind",
    terminal: true,
    summary: "undo what an agent did to your files",
    load: () => import("./commands/rewind.ts").then((m) => m.rewindCommand),
  },
  {
    name: "doctor",
    terminal: true,
    summary: "check the wiring, and prove it holds",
    load: () => import("./commands/doctor.ts").then((m) => m.doctor),
  },
  {
    name: "stop",
    terminal: true,
    summary: "turn protection off on purpose and on the record",
    load: () => import("./commands/stop.ts").then((m) => m.stop),
  },
  {
    name: "start",
    terminal: true,
    summary: "turn it back on, in the mode it was stopped in",
    load: () => import("./commands/stop.ts").then((m) => m.start),
  },
  {
    name: "update",
    terminal: true,
    summary: "the latest version, with the wiring pointed at it",
    load: () => import("./commands/update.ts").then((m) => m.update),
  },
  {
    name: "login",
    terminal: true,
    summary: "connect this machine to your team",
    load: () => import("./commands/workspace.ts").then((m) => m.login),
  },
  {
    name: "scan",
    summary: "what can act on this machine and what it can reach",
    load: () => import("./commands/scan.ts").then((m) => m.scan),
  },
  {
    name: "explain",
    summary: "where one capability came from and what governs it",
    load: () => import("./commands/explain.ts").then((m) => m.explain),
  },
  {
    name: "agents",
    summary: "the agents on this machine",
    load: () => import("./commands/agents.ts").then((m) => m.agents),
  },
  {
    name: "protect",
    summary: "write rules, install interceptors and hooks",
    load: () => import("./commands/protect.ts").then((m) => m.protect),
  },
  { name: "config", summary: "the seven settings", load: () => import("./commands/config.ts").then((m) => m.config) },
  {
    name: "policy",
    summary: "check, register and test rule files",
    load: () => import("./commands/policy.ts").then((m) => m.policy),
  },
  {
    name: "check",
    summary: "what a command line would get, before it runs",
    load: () => import("./commands/verdicts.ts").then((m) => m.check),
  },
  {
    name: "run",
    rest: true,
    summary: "start an agent behind every seam",
    load: () => import("./commands/run.ts").then((m) => m.run),
  },
  {
    name: "env",
    summary: "the environment an agent needs when something else starts it",
    load: () => import("./commands/env.ts").then((m) => m.env),
  },
  {
    name: "freeze",
    summary: "stop external-state actions for a while",
    load: () => import("./commands/freeze.ts").then((m) => m.freeze),
  },
  {
    name: "allow",
    summary: "let what a rule asks about proceed, for a scope and a while",
    load: () => import("./commands/allow.ts").then((m) => m.allow),
  },
  {
    name: "allow-once",
    summary: "let one refused call through once, by the code its refusal printed",
    load: () => import("./commands/allow-once.ts").then((m) => m.allowOnce),
  },

  {
    name: "approvals",
    summary: "calls held for a person",
    load: () => import("./commands/approvals.ts").then((m) => m.approvals),
  },
  {
    name: "approve",
    summary: "release one held call",
    load: () => import("./commands/approvals.ts").then((m) => m.approve),
  },
  { name: "deny", summary: "refuse one held call", load: () => import("./commands/approvals.ts").then((m) => m.deny) },
  {
    name: "ui",
    summary: "a page on this machine to see and answer what waits for you",
    load: () => import("./commands/ui.ts").then((m) => m.ui),
  },
  {
    name: "paused",
    summary: "sessions memnox is holding, and why",
    load: () => import("./commands/paused.ts").then((m) => m.paused),
  },
  {
    name: "resume",
    summary: "let a held or wary session carry on",
    load: () => import("./commands/paused.ts").then((m) => m.resume),
  },
  {
    name: "timeline",
    summary: "what the agents did, in order",
    load: () => import("./commands/timeline.ts").then((m) => m.timeline),
  },
  {
    name: "why",
    summary: "why the last thing that did not proceed was decided that way",
    load: () => import("./commands/why.ts").then((m) => m.why),
  },
  { name: "trace", summary: "one action end to end", load: () => import("./commands/trace.ts").then((m) => m.trace) },
  {
    name: "replay",
    summary: "one session step by step",
    load: () => import("./commands/replay.ts").then((m) => m.replay),
  },
  {
    name: "report",
    summary: "what the agents did in a window, and what was redone",
    load: () => import("./commands/report.ts").then((m) => m.report),
  },
  {
    name: "verify",
    summary: "check the ledger's hash chain",
    load: () => import("./commands/verify.ts").then((m) => m.verify),
  },
  {
    name: "purge",
    summary: "drop history past retention",
    load: () => import("./commands/purge.ts").then((m) => m.purge),
  },
  {
    name: "memory",
    summary: "what the team decided, as pages agents are reminded of",
    load: () => import("./commands/memory.ts").then((m) => m.memory),
  },
  {
    name: "mcp",
    summary: "MCP servers through the proxy, and the session tools",
    load: () => import("./commands/mcp.ts").then((m) => m.mcp),
  },
  {
    name: "watch",
    summary: "report what arrives, as it happens",
    load: () => import("./commands/watch.ts").then((m) => m.watchCommand),
  },
  {
    name: "daemon",
    summary: "hold the rules in one process and keep the boundary",
    load: () => import("./commands/daemon.ts").then((m) => m.daemon),
  },
  {
    name: "uninstall",
    summary: "take every seam back out",
    load: () => import("./commands/uninstall.ts").then((m) => m.uninstall),
  },
  {
    name: "logout",
    summary: "forget the workspace credential",
    load: () => import("./commands/workspace.ts").then((m) => m.logout),
  },
  {
    name: "cloud",
    summary: "run the control plane: serve the workspace API, make an organization",
    load: () => import("./commands/cloud.ts").then((m) => m.cloud),
  },
  {
    name: "whoami",
    summary: "which workspace this machine is enrolled in",
    load: () => import("./commands/workspace.ts").then((m) => m.whoami),
  },
  {
    name: "sync",
    summary: "pull rules and send what happened, now",
    load: () => import("./commands/workspace.ts").then((m) => m.sync),
  },
  {
    name: "next",
    summary: "what you could safely stop being asked about",
    load: () => import("./commands/next.ts").then((m) => m.next),
  },
  {
    name: "budget",
    summary: "budgets counted from the ledger",
    load: () => import("./commands/budget.ts").then((m) => m.budget),
  },
  {
    name: "lock",
    summary: "hold a path while you work on it",
    load: () => import("./commands/lock.ts").then((m) => m.lock),
  },
  {
    name: "collisions",
    summary: "two agents in one file",
    load: () => import("./commands/collisions.ts").then((m) => m.collisions),
  },
  {
    name: "claims",
    summary: "what an agent said it did, against the record",
    load: () => import("./commands/claims.ts").then((m) => m.claims),
  },
  {
    name: "skills",
    summary: "what agents run on beyond their config",
    load: () => import("./commands/skills.ts").then((m) => m.skills),
  },
];

export function findCommand(name: string): CommandEntry | undefined {
  return COMMANDS.find((c) => c.name === name);
}
