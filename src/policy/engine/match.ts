// Does one compiled rule match one request at one instant? Pure; fields cheapest first.
import { factKey, type PolicyRequest, type StateFact } from "../../core/request.ts";
import type { ArgumentMatch } from "../../core/verdict.ts";
import type { CompiledRule } from "./compile.ts";
import type { Matcher } from "./pattern.ts";
import { inAnyWindow, type LocalTime, localTime } from "./time.ts";
import type { Instant } from "./types.ts";

/** What a request offers the matchers, with the costlier parts computed on first use. */
export class Probe {
  readonly request: PolicyRequest;
  readonly branch: string | undefined;
  readonly #facts: readonly StateFact[];
  readonly #at: Instant;
  #time: LocalTime | undefined;
  #factKeys: string[] | undefined;

  constructor(request: PolicyRequest, facts: readonly StateFact[], at: Instant) {
    this.request = request;
    // A push that names no refspec carries an empty branch: the checked-out one applies.
    this.branch = request.action.branch || request.branch;
    this.#facts = facts;
    this.#at = at;
  }

  get time(): LocalTime {
    this.#time ??= localTime(this.#at);
    return this.#time;
  }

  /** `kind:subject` of every fact in force at the instant: set no later than it, expiring after it. */
  get factKeys(): readonly string[] {
    this.#factKeys ??= this.#facts.filter((f) => inForce(f, this.#at.epochMs)).map(factKey);
    return this.#factKeys;
  }
}

function inForce(f: StateFact, epochMs: number): boolean {
  if (!(Date.parse(f.expiresAt) > epochMs)) return false;
  return f.setAt === undefined || !(Date.parse(f.setAt) > epochMs);
}

function one(m: Matcher | undefined, value: string | undefined): boolean {
  return m === undefined || (value !== undefined && m(value));
}

function some(m: Matcher | undefined, values: readonly string[] | undefined): boolean {
  return m === undefined || (values?.some(m) ?? false);
}

function scalarsMatch(c: CompiledRule, r: PolicyRequest, p: Probe): boolean {
  return (
    one(c.agents, r.agent) &&
    one(c.environments, r.environment) &&
    one(c.branches, p.branch) &&
    one(c.roles, r.role) &&
    one(c.principals, r.principal) &&
    one(c.models, r.model) &&
    one(c.providers, r.provider) &&
    one(c.workingDirectories, r.cwd) &&
    (c.scope === undefined || (r.scope !== "undeclared" && c.scope.includes(r.scope))) &&
    (c.aboveAmount === undefined || r.amount === undefined || r.amount > c.aboveAmount)
  );
}

/** Every named argument must match; an absent one matches only a bare `*`. Returns which pattern each matched. */
function argumentsMatch(c: CompiledRule, r: PolicyRequest): ArgumentMatch[] | undefined {
  const out: ArgumentMatch[] = [];
  const recorded = r.recordedArgumentMatches;
  for (const a of c.arguments ?? []) {
    if (recorded) {
      const hit = recorded.find((m) => m.rule === c.ref.name && m.argument === a.name);
      if (!hit) return undefined;
      out.push(hit);
      continue;
    }
    const values = r.action.arguments[a.name];
    if (!values || values.length === 0) {
      if (!a.absentOk) return undefined;
      out.push({ rule: c.ref.name, argument: a.name, pattern: "*" });
      continue;
    }
    const i = a.matchers.findIndex((m) => values.some(m));
    const pattern = a.patterns[i];
    if (pattern === undefined) return undefined;
    out.push({ rule: c.ref.name, argument: a.name, pattern });
  }
  return out;
}

function targetsMatch(c: CompiledRule, r: PolicyRequest): boolean {
  if (c.targets === undefined) return true;
  const recorded = r.recordedTargetMatches;
  return recorded ? recorded.includes(c.ref.name) : r.action.targets.some(c.targets);
}

/** The argument matches when the rule matches, or undefined when it does not. */
export function matchRule(c: CompiledRule, p: Probe): ArgumentMatch[] | undefined {
  const r = p.request;
  if (!one(c.actions, r.action.name)) return undefined;
  if (c.classes && !c.classes.has(r.action.class)) return undefined;
  if (!scalarsMatch(c, r, p)) return undefined;
  if (!targetsMatch(c, r)) return undefined;
  if (!some(c.dataClassifications, r.dataClassifications)) return undefined;
  if (!some(c.jurisdictions, r.jurisdictions)) return undefined;
  if (c.windows && !inAnyWindow(c.windows, p.time)) return undefined;
  if (c.state && !p.factKeys.some(c.state)) return undefined;
  return argumentsMatch(c, r);
}
