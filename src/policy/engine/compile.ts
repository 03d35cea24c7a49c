// Rules to matchers, once: every pattern compiled, rules indexed by literal action name.
import type { RuleRef } from "../../core/verdict.ts";
import { globMatcher, isWildcardOnly, literalLength, type Matcher, pathMatcher } from "./pattern.ts";
import {
  type CompileOptions,
  MATCH_FIELDS,
  PERSON,
  type PolicyRule,
  type RuleMatch,
  type TimeWindow,
} from "./types.ts";

/** One named argument's patterns, kept beside their matchers so a match can say which pattern it was. */
interface ArgumentPatterns {
  readonly name: string;
  readonly patterns: readonly string[];
  readonly matchers: readonly Matcher[];
  /** The call lacks the argument: only a bare `*` matches. */
  readonly absentOk: boolean;
}

export interface CompiledRule {
  readonly rule: PolicyRule;
  readonly ref: RuleRef;
  readonly observe: boolean;
  /** Match fields that narrow anything (a field of only `*` does not count). */
  readonly fields: number;
  /** Longest literal (non-wildcard) pattern of the rule. */
  readonly literal: number;
  readonly actions?: Matcher;
  readonly targets?: Matcher;
  readonly environments?: Matcher;
  readonly branches?: Matcher;
  readonly workingDirectories?: Matcher;
  readonly agents?: Matcher;
  readonly roles?: Matcher;
  readonly principals?: Matcher;
  readonly models?: Matcher;
  readonly providers?: Matcher;
  readonly dataClassifications?: Matcher;
  readonly jurisdictions?: Matcher;
  readonly state?: Matcher;
  readonly arguments?: readonly ArgumentPatterns[];
  readonly windows?: readonly TimeWindow[];
  readonly aboveAmount?: number;
  readonly scope?: readonly string[];
  readonly classes?: ReadonlySet<string>;
}

export interface CompiledRuleSet {
  readonly rules: readonly CompiledRule[];
  /** Rules whose every action pattern is literal, by action name. */
  readonly byAction: ReadonlyMap<string, readonly CompiledRule[]>;
  /** Rules with no `actions` or a wildcard action pattern: tried for every action. */
  readonly anyAction: readonly CompiledRule[];
  /** The rules a person wrote for their own terminal (`agents` names `person`): all a person's own call meets. */
  readonly person?: CompiledRuleSet;
}

type Mutable<T> = { -readonly [K in keyof T]: T[K] };

function anyOf(patterns: readonly string[], make: (p: string) => Matcher): Matcher {
  const ms = patterns.map(make);
  if (ms.length === 1 && ms[0]) return ms[0];
  return (v) => ms.some((m) => m(v));
}

/** `aws.` for `aws.*-delete-*`: the literal head up to the first dot, when no wildcard comes before it. */
function dottedHead(s: string): string {
  const dot = s.indexOf(".");
  const star = s.indexOf("*");
  return dot !== -1 && (star === -1 || dot < star) ? s.slice(0, dot + 1) : "";
}

/** Names: literals by set lookup, wildcards only among those sharing the value's `cli.` head, so hundreds stay cheap. */
function namesOf(patterns: readonly string[]): Matcher {
  const literal = new Set(patterns.filter((p) => !p.includes("*")));
  const byHead = new Map<string, string[]>();
  for (const p of patterns.filter((x) => x.includes("*"))) {
    const head = dottedHead(p);
    byHead.set(head, [...(byHead.get(head) ?? []), p]);
  }
  if (byHead.size === 0) return (v) => literal.has(v);
  // A head's patterns are compiled when a value with that head is first tested: `git.status` never builds `aws.`'s.
  const compiled = new Map<string, readonly Matcher[]>();
  const group = (head: string): readonly Matcher[] => {
    let ms = compiled.get(head);
    if (!ms) {
      ms = (byHead.get(head) ?? []).map((p) => globMatcher(p));
      compiled.set(head, ms);
    }
    return ms;
  };
  return (v) => {
    if (literal.has(v) || group("").some((m) => m(v))) return true;
    const head = dottedHead(v);
    return head !== "" && byHead.has(head) && group(head).some((m) => m(v));
  };
}

const NAME_FIELDS = [
  "actions",
  "environments",
  "branches",
  "agents",
  "roles",
  "principals",
  "models",
  "providers",
  "dataClassifications",
  "jurisdictions",
  "state",
] as const;

function countFields(m: RuleMatch): number {
  let n = 0;
  for (const f of MATCH_FIELDS) {
    const v = m[f];
    if (v === undefined) continue;
    if (Array.isArray(v) && v.every((x) => typeof x === "string") && isWildcardOnly(v)) continue;
    if (f === "arguments" && Object.values(v).every((ps) => isWildcardOnly(ps as readonly string[]))) continue;
    n += 1;
  }
  return n;
}

function longestLiteral(m: RuleMatch): number {
  const all: string[] = [];
  for (const f of [...NAME_FIELDS, "targets", "workingDirectories"] as const) all.push(...(m[f] ?? []));
  for (const ps of Object.values(m.arguments ?? {})) all.push(...ps);
  return all.reduce((max, p) => Math.max(max, literalLength(p)), 0);
}

/** Built on first use: a hook evaluates a handful of the rules it loads, so most patterns are never compiled. */
function lazy(build: () => Matcher): Matcher {
  let m: Matcher | undefined;
  return (v) => {
    m ??= build();
    return m(v);
  };
}

function compileRule(rule: PolicyRule, opts: CompileOptions = {}): CompiledRule {
  const m = rule.match;
  let fields: number | undefined;
  let literal: number | undefined;
  const out: Mutable<CompiledRule> = {
    rule,
    ref: { name: rule.name, file: rule.file, line: rule.line },
    observe: rule.decision.mode === "observe",
    // Specificity is only needed to order rules that matched: most of a rule set never does.
    get fields() {
      fields ??= countFields(m);
      return fields;
    },
    get literal() {
      literal ??= longestLiteral(m);
      return literal;
    },
  };
  for (const f of NAME_FIELDS) {
    const ps = m[f];
    if (ps && !isWildcardOnly(ps)) out[f] = lazy(() => namesOf(ps));
  }
  // A recursive target (`D/**`) meets a deny or an ask wherever the rule reaches into it; an allow must cover it.
  const subtrees = rule.decision.effect === "allow" ? "cover" : "reach";
  const targets = m.targets;
  if (targets && !isWildcardOnly(targets))
    out.targets = lazy(() => anyOf(targets, (p) => pathMatcher(p, opts.home, subtrees)));
  const dirs = m.workingDirectories;
  if (dirs && !isWildcardOnly(dirs)) out.workingDirectories = lazy(() => anyOf(dirs, (p) => pathMatcher(p, opts.home)));
  if (m.arguments) {
    out.arguments = Object.entries(m.arguments).map(([name, patterns]) => ({
      name,
      patterns,
      matchers: patterns.map((p) => lazy(() => globMatcher(p))),
      absentOk: patterns.includes("*"),
    }));
  }
  if (m.windows) out.windows = m.windows;
  if (m.aboveAmount !== undefined) out.aboveAmount = m.aboveAmount;
  if (m.scope) out.scope = m.scope;
  if (m.classes) out.classes = new Set(m.classes);
  return out;
}

/** Compiles every rule of every file; order is irrelevant to the verdict, so none is kept. */
export function compile(rules: readonly PolicyRule[], opts: CompileOptions = {}): CompiledRuleSet {
  const compiled = rules.map((r) => compileRule(r, opts));
  const mine = compiled.filter((c) => c.rule.match.agents?.includes(PERSON));
  return { ...indexed(compiled), person: indexed(mine) };
}

function indexed(compiled: readonly CompiledRule[]): CompiledRuleSet {
  const byAction = new Map<string, CompiledRule[]>();
  const anyAction: CompiledRule[] = [];
  for (const c of compiled) {
    const actions = c.rule.match.actions;
    if (!actions || actions.some((a) => a.includes("*"))) {
      anyAction.push(c);
      continue;
    }
    for (const a of new Set(actions)) {
      const list = byAction.get(a);
      if (list) list.push(c);
      else byAction.set(a, [c]);
    }
  }
  return { rules: compiled, byAction, anyAction };
}
