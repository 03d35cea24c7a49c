// memnox's own checks beside the rules: probation, a wary session, the project boundary, unreadable input. Pure.
import type { Action } from "../core/action.ts";
import { formatDuration } from "../core/duration.ts";
import { passesThrough } from "../core/registries.ts";
import { factKey, type StateFact } from "../core/request.ts";
import { type CurrentSettings, type Loosening, memnoxLoosens } from "../resolve/commands/memnox.ts";
import { type Boundary, outsideBoundary } from "./boundary.ts";
import type { Finding } from "./combine.ts";
import type { RuleProblem } from "./deps.ts";
import { type Protection, protectedFindings } from "./protected.ts";

const OUTWARD = new Set(["write", "communication", "destructive"]);
const RISKY = new Set(["communication", "destructive"]);

export interface CheckInput {
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

export function ownChecks(input: CheckInput): Finding[] {
  const { action } = input;
  const out: Finding[] = [];
  const left = (f: StateFact) => formatDuration(Date.parse(f.expiresAt) - input.nowMs);
  const server = action.name.startsWith("mcp.") ? action.name.split(".")[1] : undefined;
  for (const f of input.facts) {
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
