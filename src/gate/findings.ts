// memnox's own checks beside the rules: probation, a wary session, the project boundary, unreadable input. Pure.
import type { Action } from "../core/action.ts";
import { formatDuration } from "../core/duration.ts";
import { passesThrough } from "../core/registries.ts";
import { factKey, MACHINE_FREEZE, type StateFact } from "../core/request.ts";
import { globMatcher } from "../policy/engine/index.ts";
import { type CurrentSettings, type Loosening, memnoxLoosens } from "../resolve/commands/memnox.ts";
import { type Boundary, outsideBoundary } from "./boundary.ts";
import type { Finding } from "./combine.ts";
import type { RuleProblem } from "./deps.ts";
import { type Protection, protectedFindings } from "./protected.ts";

const OUTWARD = new Set(["write", "communication", "destructive"]);
const RISKY = new Set(["communication", "destructive"]);

interface CheckInput {
  readonly action: Action;
  /** The settings in force, which a `memnox config set` from an agent's seat is compared with. */
  readonly settings?: CurrentSettings;
  /** memnox's protected paths and how to test a target against one. */
  readonly protect?: Protection;
  readonly agent?: string | undefined;
  readonly session?: string | undefined;
  readonly facts: readonly StateFact[];
  readonly boundary?: Boundary | undefined;
  readonly nowMs: number;
}

/** What a freeze stops: outward and destructive actions, and an MCP tool's writes (its server is elsewhere). */
function changesOutside(action: Action): boolean {
  return RISKY.has(action.class) || (action.class === "write" && action.name.startsWith("mcp."));
}

export { MACHINE_FREEZE };

/** Whether a freeze covers an action: the machine's covers every one, a subject's those whose name or targets name it. */
function frozenBy(f: StateFact, action: Action): boolean {
  if (f.subject === MACHINE_FREEZE || f.subject === "*") return true;
  const s = f.subject.toLowerCase();
  const word = new RegExp(`(^|[^a-z0-9])${s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}($|[^a-z0-9])`);
  return [action.name, ...action.targets].some((t) => word.test(t.toLowerCase()));
}

export function ownChecks(input: CheckInput): Finding[] {
  const { action } = input;
  const out: Finding[] = [];
  const left = (f: StateFact) => formatDuration(Date.parse(f.expiresAt) - input.nowMs);
  const server = action.name.startsWith("mcp.") ? action.name.split(".")[1] : undefined;
  for (const f of input.facts) {
    if (f.kind === "freeze" && changesOutside(action) && frozenBy(f, action)) {
      const what = f.subject === MACHINE_FREEZE ? "this machine is frozen" : `${f.subject} is frozen`;
      out.push({
        action,
        effect: "deny",
        source: "freeze",
        fact: f,
        reason: `${what}${f.by ? ` by ${f.by}` : ""}${f.reason ? ` (${f.reason})` : ""} for ${left(f)} more: outward and destructive actions wait until it ends or a person lifts it`,
      });
    }
    const stopped = agentStopped(f, input.agent, left);
    if (stopped) out.push({ action, effect: "deny", source: "agent-stopped", reason: stopped });
    if (f.kind === "probation" && OUTWARD.has(action.class)) {
      const onProbation =
        f.subject === `agent:${input.agent}` || (server !== undefined && f.subject === `server:${server}`);
      if (onProbation) {
        const who = f.subject.replace(":", " ");
        out.push({
          action,
          effect: "ask",
          source: "probation",
          reason: `${who} is on probation (${left(f)} left): its writes, outward and destructive actions ask first`,
        });
      }
    }
    if (f.kind === "untrusted" && f.subject === input.session && RISKY.has(action.class)) {
      const finding = untrustedAsk(action, input);
      if (finding) out.push(finding);
    }
    if (f.kind === "wary" && f.subject === input.session && RISKY.has(action.class)) {
      out.push({
        action,
        effect: "ask",
        source: "wary",
        reason: `this session read a tool result that looked like instructions (${left(f)} left): outward and destructive actions ask first; a person can lift it from their own terminal`,
      });
    }
  }
  if (input.protect) out.push(...protectedFindings(action, input.protect));
  const loosens =
    action.name.startsWith("memnox.") && input.settings ? memnoxLoosens(action, input.settings) : undefined;
  if (loosens) out.push(memnoxSelf(action, loosens));
  out.push(...budgetAsks(input), ...leaseAsks(input));
  const outside = outsideBoundary(action, input.boundary);
  if (outside.length > 0) {
    out.push({
      action,
      effect: "ask",
      source: "boundary",
      reason: `${outside[0]} is outside the project boundary (${input.boundary?.roots.join(", ")}); a write outside it asks first`,
    });
  }
  return out;
}

/** Whether an action name meets any of these patterns (a budget's or a grant's `actions`). */
export function namedBy(patterns: readonly string[] | undefined, action: string): boolean {
  return (patterns ?? []).some((p) => globMatcher(p)(action));
}

/** A budget with nothing left: its actions ask, naming it and when it has room again. */
function budgetAsks({ action, facts }: CheckInput): Finding[] {
  return facts
    .filter((f) => f.kind === "budget-spent" && namedBy(f.actions, action.name))
    .map((f) => ({
      action,
      effect: "ask" as const,
      source: "budget" as const,
      fact: f,
      reason: `the budget ${f.subject} is spent (${f.reason ?? "nothing left"}); it has room again at ${f.expiresAt}, and "memnox budget list" shows it`,
    }));
}

const LEASED = new Set(["filesystem.write", "filesystem.delete"]);

/** `<session> <path>`: a lease fact's subject, the path being the rest after the first space. */
function leaseSubject(subject: string): { session: string; path: string } {
  const i = subject.indexOf(" ");
  return i < 0 ? { session: subject, path: "" } : { session: subject.slice(0, i), path: subject.slice(i + 1) };
}

function covers(held: string, target: string): boolean {
  return target === held || target.startsWith(held.endsWith("/") ? held : `${held}/`);
}

/** A write to a path another session holds a lease on waits for it: it asks, naming who holds it and since when. */
function leaseAsks({ action, facts, session }: CheckInput): Finding[] {
  if (!LEASED.has(action.name)) return [];
  const out: Finding[] = [];
  for (const f of facts) {
    if (f.kind !== "lease") continue;
    const held = leaseSubject(f.subject);
    if (held.session === session || !action.targets.some((t) => covers(held.path, t))) continue;
    out.push({
      action,
      effect: "ask",
      source: "lease",
      fact: f,
      reason: `${held.path} is leased by ${f.by ?? "another session"} (${held.session}) since ${f.setAt ?? "earlier"}, until ${f.expiresAt}: another agent is working on it, so this write waits for the lease rather than writing over it; "memnox lock --list" shows leases on this machine`,
    });
  }
  return out;
}

/**
 * The workspace stopped this agent on every machine (kinds its bundle carries): frozen until a time, halted until
 * somebody lifts it, or revoked for good. Every action of that agent is refused, reads included: it asks nothing more.
 */
function agentStopped(f: StateFact, agent: string | undefined, left: (f: StateFact) => string): string | undefined {
  if (agent === undefined || f.subject !== agent) return undefined;
  const by = f.by ? ` by ${f.by}` : "";
  const why = f.reason ? `: ${f.reason}` : "";
  if (f.kind === "freeze-agent") return `agent ${agent} is frozen on every machine${by}${why} (${left(f)} left)`;
  if (f.kind === "halt-agent")
    return `agent ${agent} was halted${by}${why}; it acts again once somebody lifts the halt`;
  if (f.kind === "revoke-agent") return `agent ${agent} was revoked${by}${why}; it is retired and asks nothing further`;
  return undefined;
}

/**
 * A session started with `memnox run --untrusted`: every outward and destructive action asks, except a request to
 * a package registry or to the agent's model provider (the `untrusted-host` facts `memnox run` noted for it).
 */
function untrustedAsk(action: Action, input: CheckInput): Finding | undefined {
  if (action.name === "http.request" || action.name === "http.loopback") {
    const prefix = `${input.session} `;
    const through = input.facts
      .filter((f) => f.kind === "untrusted-host" && f.subject.startsWith(prefix))
      .map((f) => f.subject.slice(prefix.length));
    const hosts = action.targets.filter((h) => !passesThrough(h, through));
    if (action.targets.length > 0 && hosts.length === 0) return undefined;
    return {
      action,
      effect: "ask",
      source: "untrusted",
      reason: `this session runs with memnox run --untrusted: ${hosts[0] ?? "a host it cannot name"} is neither a package registry nor the agent's model provider, so it asks first`,
    };
  }
  return {
    action,
    effect: "ask",
    source: "untrusted",
    reason: "this session runs with memnox run --untrusted: its outward and destructive actions ask first",
  };
}

/**
 * Every seam that asks the gate serves an agent, so a memnox command that loosens governance is refused there before
 * it runs (the CLI refuses it again from an agent's seat). The words are for the person the agent reports to.
 */
function memnoxSelf(action: Action, l: Loosening): Finding {
  return {
    action,
    effect: "deny",
    source: "memnox-self",
    reason: `memnox refuses this: \`${l.command}\` ${l.does}, and nothing an agent runs may loosen the governance it runs under; that is a person's decision, made at their own terminal`,
  };
}

export function unparsable(action: Action, why: string): Finding {
  return {
    action,
    effect: "deny",
    source: "unparsable",
    reason: `memnox refuses this: it could not read the command line safely (${why}), and a command it cannot read is not one it can call safe`,
  };
}

export function unreadableRules(action: Action, problems: readonly RuleProblem[]): Finding {
  const p = problems[0];
  const where = p ? `${p.file}${p.line ? `:${p.line}` : ""}` : "a rule file";
  return {
    action,
    effect: "deny",
    source: "rules-unreadable",
    reason: `memnox refuses this: the rules at ${where} cannot be read (${p?.message ?? "unknown problem"}), and in enforce a rule it cannot read fails closed; run "memnox policy check"`,
  };
}

/** A verdict a state fact produced says which, why, for how long and who declared it. */
export function withStates(
  reason: string,
  states: readonly string[] | undefined,
  facts: readonly StateFact[],
  nowMs: number,
): string {
  if (!states || states.length === 0) return reason;
  const said = states.map((k) => {
    const f = facts.find((x) => factKey(x) === k);
    if (!f) return `state ${k}`;
    const left = formatDuration(Date.parse(f.expiresAt) - nowMs);
    return `state ${k}${f.reason ? ` — ${f.reason}` : ""} (${left} left${f.by ? `, ${f.by}` : ""})`;
  });
  return `${reason}; ${said.join("; ")}`;
}
