// memnox itself, as a command an agent typed: each subcommand is `memnox.<verb>`, and the ones that loosen or remove
// governance are named here once, for the gate (which refuses them from an agent's seat) and for the CLI's own check.
import type { ActionClass } from "../../core/action.ts";
import { isAgentProgram } from "../../core/agents.ts";
import type { Call } from "../call.ts";

interface MemnoxCommand {
  /** `memnox.stop`, `memnox.config-set`, `memnox.protect-revert` … */
  readonly action: string;
  readonly class: ActionClass;
  /** What it does to governance, in a person's words, when it loosens or removes it. */
  readonly loosens?: string;
  /** `config set <name> <value>`: loosens only when the value is looser than the one in force. */
  readonly setting?: { readonly name: string; readonly value: string };
}

/** The commands that only look: what an agent may always run. */
const READS = new Set([
  "status",
  "scan",
  "explain",
  "check",
  "why",
  "trace",
  "timeline",
  "replay",
  "report",
  "verify",
  "approvals",
  "paused",
  "watch",
  "doctor",
  "env",
  "claims",
  "collisions",
  "whoami",
  "help",
  "version",
  "--version",
  "-v",
  "--help",
  "-h",
]);

/** Every action that loosens or removes governance, and what it does, in a person's words. */
const LOOSENING: Readonly<Record<string, string>> = {
  "memnox.stop": "switches protection off on this machine",
  "memnox.approve": "answers a held call",
  "memnox.deny": "answers a held call",
  "memnox.ui": "opens a page where held calls are answered",
  "memnox.resume": "lets a wary or paused session carry on",
  "memnox.uninstall": "takes every seam out",
  "memnox.hook": "runs a hook face by hand, which would record rows no agent's call made",
  "memnox.shim": "runs an interceptor by hand",
  "memnox.protect-revert": "takes rules back out",
  "memnox.protect-allow": "stops asking about an action",
  "memnox.protect-observe": "turns the mode down to observe",
  "memnox.protect-revert-native": "takes rules out of Claude Code's own permissions",
  "memnox.protect-revert-claude-hook": "takes the hook out of Claude Code",
  "memnox.purge": "drops history",
  "memnox.policy-use": "changes which rule files load",
  "memnox.daemon-uninstall": "takes the daemon out",
  "memnox.mcp-unwrap": "takes MCP servers out of the proxy",
  "memnox.mcp-trust": "ends an MCP server's probation",
  "memnox.mcp-session-off": "takes the session tools out",
  "memnox.agents-trust": "ends an agent's probation",
  "memnox.freeze-lift": "lifts a freeze",
  "memnox.update": "replaces the binary every hook and interceptor runs",
  "memnox.protect-revert-os-guard": "takes the kernel wall out",
  "memnox.run-no-guard": "runs an agent without the kernel wall",
  "memnox.allow": "lets what a rule asks about proceed unasked",
  "memnox.allow-once": "lets a call a rule refused through once",
  "memnox.next-hand-over": "writes allow rules for what was approved",
  "memnox.budget-set": "changes how much of an action may proceed",
  "memnox.budget-remove": "drops a limit on how much may proceed",
  "memnox.lock-release": "lets go of another session's hold on a path",
  "memnox.lock-forget": "drops every session's hold on a path",
  "memnox.skills-accept": "marks a new or changed skill as reviewed",
  "memnox.login": "makes this machine follow another workspace's rules",
  "memnox.logout": "stops sending this machine's record to its workspace",
  "memnox.rewind": "moves the working tree back, and its own milestone pushes the oldest one out",
  "memnox.rewind-take":
    "keeps a milestone that pushes the oldest one out, so a few of them put earlier work beyond rewind",
  "memnox.rewind-forget": "drops milestones, and with them the work only they still held",
};

/** How a loosening action is typed, where that is not its name's words (`memnox lock --release`). */
const SPELLED: Readonly<Record<string, string>> = {
  "memnox.run-no-guard": "memnox run --no-guard",
  "memnox.next-hand-over": "memnox next --hand-over",
  "memnox.lock-release": "memnox lock --release",
  "memnox.lock-forget": "memnox lock --forget",
  "memnox.skills-accept": "memnox skills --accept",
  "memnox.rewind-take": "memnox rewind --take",
  "memnox.rewind-forget": "memnox rewind --forget",
};

const ALWAYS = [
  "stop",
  "approve",
  "deny",
  "ui",
  "resume",
  "uninstall",
  "hook",
  "shim",
  "login",
  "logout",
  "allow-once",
];
const PROTECT_FLAGS = [
  "--revert",
  "--allow",
  "--observe",
  "--revert-native",
  "--revert-claude-hook",
  "--revert-os-guard",
];

function firstWord(words: readonly string[]): string | undefined {
  return words.find((w) => !w.startsWith("-"));
}

function has(words: readonly string[], ...flags: string[]): boolean {
  return words.some((w) => flags.includes(w.split("=")[0] ?? w));
}

/** What one `memnox …` call is, from the words after `memnox`. */
export function memnoxCommand(words: readonly string[]): MemnoxCommand {
  const [head = "", ...rest] = words;
  const named = (verb: string, cls: ActionClass): MemnoxCommand => {
    const action = `memnox.${verb}`;
    const loosens = LOOSENING[action];
    return loosens ? { action, class: "destructive", loosens } : { action, class: cls };
  };
  // Help about a command, or a command that only looks, is a read whatever the command would do.
  if (head === "" || READS.has(head) || has(rest, "--help", "-h"))
    return { action: `memnox.${head || "status"}`, class: "read" };
  if (ALWAYS.includes(head)) return named(head, "destructive");
  const sub = firstWord(rest);
  const operands = rest.filter((w) => !w.startsWith("-"));
  switch (head) {
    case "config": {
      if (sub !== "set") return named(`config-${sub ?? "list"}`, "read");
      const [name = "", value = ""] = operands.slice(1);
      return { action: "memnox.config-set", class: "write", setting: { name, value } };
    }
    case "protect": {
      const flag = PROTECT_FLAGS.find((f) => has(rest, f));
      return named(flag ? `protect-${flag.slice(2)}` : "protect", "write");
    }
    case "purge":
      return has(rest, "--dry-run") ? { action: "memnox.purge", class: "read" } : named("purge", "destructive");
    case "policy":
      return named(`policy-${sub ?? "check"}`, "read");
    case "daemon":
      if (has(rest, "--uninstall")) return named("daemon-uninstall", "destructive");
      return has(rest, "--status") ? named("daemon-status", "read") : named("daemon", "write");
    case "mcp":
      if (sub === "session" && operands[1] === "off") return named("mcp-session-off", "destructive");
      if (sub === "proxy" || (sub === "session" && operands[1] === "serve")) return named(`mcp-${sub}`, "read");
      return named(`mcp-${sub ?? "list"}`, "write");
    case "agents":
      return named(`agents-${sub ?? "discover"}`, sub === "name" ? "write" : "read");
    case "freeze":
      if (has(rest, "--lift")) return named("freeze-lift", "destructive");
      return named("freeze", has(rest, "--list") ? "read" : "write");
    case "update":
      return has(rest, "--yes", "-y", "--rewire")
        ? named("update", "destructive")
        : { action: "memnox.update", class: "read" };
    case "allow":
      if (has(rest, "--lift")) return named("allow-lift", "write");
      return has(rest, "--list") || operands.length === 0 ? named("allow-list", "read") : named("allow", "write");
    case "next":
      return has(rest, "--hand-over") ? named("next-hand-over", "write") : named("next", "read");
    case "budget":
      return named(`budget-${sub ?? "list"}`, sub === "list" || sub === undefined ? "read" : "write");
    case "lock":
      if (has(rest, "--release")) return named("lock-release", "destructive");
      if (has(rest, "--forget")) return named("lock-forget", "destructive");
      return has(rest, "--list") || operands.length === 0 ? named("lock-list", "read") : named("lock", "write");
    case "skills":
      return has(rest, "--accept") ? named("skills-accept", "write") : named("skills", "read");
    case "sync":
      return named("sync", "write");
    case "run":
      return has(rest, "--no-guard") ? named("run-no-guard", "write") : named("run", "write");
    case "rewind":
      // Every kind but the list keeps or drops milestones: only twenty are kept, so each one can push work out.
      if (has(rest, "--list")) return named("rewind-list", "read");
      if (has(rest, "--take")) return named("rewind-take", "destructive");
      if (has(rest, "--forget")) return named("rewind-forget", "destructive");
      return named("rewind", "destructive");
    case "setup":
    case "memory":
    case "shell":
    case "wall":
    case "cloud":
    case "start":
      return named(head, "write");
    default:
      return { action: "memnox.unknown", class: "unknown" };
  }
}

const RANK: Readonly<Record<string, number>> = { off: 0, observe: 1, advise: 2, enforce: 3 };

/** The settings in force that a `config set` is compared with. */
export interface CurrentSettings {
  readonly mode: string;
  readonly failOpen: boolean;
  readonly retentionDays?: number;
  readonly approvedAgents?: readonly string[];
  readonly noticeUnusual?: boolean;
  readonly noticeWarmupDays?: number;
  /** `mode.<seam>`: the seams with their own mode. */
  readonly seamModes?: Readonly<Record<string, string | undefined>>;
}

/** Why `config set name value` would loosen governance against what is in force, or undefined when it does not. */
export function settingLoosens(name: string, value: string, now: CurrentSettings): string | undefined {
  const v = value.trim();
  switch (name) {
    case "mode":
      return (RANK[v] ?? -1) < (RANK[now.mode] ?? 3)
        ? `turns the mode down from ${now.mode} to ${v || "nothing"}`
        : undefined;
    case "failOpen":
      return v !== "false" && !now.failOpen ? "lets calls through when memnox cannot answer" : undefined;
    case "retentionDays":
      return now.retentionDays === undefined || !/^\d+$/.test(v) || Number(v) < now.retentionDays
        ? "keeps less of the record"
        : undefined;
    case "approvedAgents": {
      const had = new Set(now.approvedAgents ?? []);
      const added = v
        .split(",")
        .map((s) => s.trim())
        .filter((s) => s !== "" && !had.has(s));
      return added.length > 0 ? `marks ${added.join(", ")} as approved` : undefined;
    }
    case "noticeUnusual":
      return v !== "true" && now.noticeUnusual !== false ? "stops asking about unusual actions" : undefined;
    case "noticeWarmupDays":
      return now.noticeWarmupDays === undefined || !/^\d+$/.test(v) || Number(v) > now.noticeWarmupDays
        ? "lengthens the time first actions are only recorded"
        : undefined;
    case "telemetry":
      return undefined;
    default: {
      // `mode.<seam>`: turning one seam down loosens as turning the mode down does (`global` follows the mode).
      const seam = /^mode\.([a-z]+)$/.exec(name)?.[1];
      if (seam) {
        const was = now.seamModes?.[seam] ?? now.mode;
        const to = v === "global" ? now.mode : v;
        return (RANK[to] ?? -1) < (RANK[was] ?? 3)
          ? `turns the ${seam} seam down from ${was} to ${to || "nothing"}`
          : undefined;
      }
      return "changes a setting memnox does not know";
    }
  }
}

/** What a loosening memnox call is (`memnox stop`) and what it would do, or undefined when it does not loosen. */
export interface Loosening {
  readonly command: string;
  readonly does: string;
}

/** Whether these words can loosen governance in some setting: what memnoxLoosens is ever true for. */
export function mayLoosen(words: readonly string[]): boolean {
  const c = memnoxCommand(words);
  return c.action === "memnox.config-set" || (c.class === "destructive" && LOOSENING[c.action] !== undefined);
}

/** Whether this memnox action loosens governance against the settings in force. */
export function memnoxLoosens(
  action: { readonly name: string; readonly class: ActionClass; readonly targets: readonly string[] },
  now: CurrentSettings,
): Loosening | undefined {
  if (action.name === "memnox.config-set") {
    const [name = "", value = ""] = action.targets;
    const does = settingLoosens(name, value, now);
    return does ? { command: `memnox config set ${name} ${value}`.trim(), does } : undefined;
  }
  // A read-only purge or update shares its name with the real one: only the destructive kind loosens.
  const does = action.class === "destructive" ? LOOSENING[action.name] : undefined;
  if (!does) return undefined;
  const typed = SPELLED[action.name];
  if (typed) return { command: typed, does };
  const [cmd = "", ...flag] = action.name.slice("memnox.".length).split("-");
  const spelled =
    cmd === "protect" || cmd === "freeze" || (cmd === "daemon" && flag.length > 0)
      ? `${cmd} --${flag.join("-")}`
      : [cmd, ...flag].join(" ");
  return { command: `memnox ${spelled}`, does };
}

/**
 * The resolver's handler: `memnox <words>` is the action its subcommand names; a setting rides in the targets. The
 * command `memnox run` is handed is resolved like any other line, unless it is an agent starting.
 */
export function memnox(call: Call): void {
  const words = call.args.slice(1).map((a) => a.text);
  const c = memnoxCommand(words);
  const targets = c.setting ? [c.setting.name, c.setting.value] : [];
  call.emit({ name: c.action, class: c.class, targets });
  const handed = runCommand(call.args);
  // Only an agent found by name on PATH starts unread: `./claude` can be anything the line made.
  const first = handed?.[0];
  const agent = first?.static === true && !first.text.includes("/") && isAgentProgram(first.text);
  if (handed && !agent) call.engine.run(handed, call);
}

/** The command after `memnox run [options] --`, when there is one. */
export function runCommand<T extends { readonly text: string }>(args: readonly T[]): readonly T[] | undefined {
  if (args[1]?.text !== "run") return undefined;
  const dash = args.findIndex((a) => a.text === "--");
  const handed = dash >= 0 ? args.slice(dash + 1) : [];
  return handed.length > 0 ? handed : undefined;
}
