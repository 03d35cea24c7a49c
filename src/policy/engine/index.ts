// The pure policy engine: compile validated rules once, evaluate requests against them.

export { matchesOnArguments } from "./arguments.ts";
export type { ArgumentPatterns, CompiledRule, CompiledRuleSet } from "./compile.ts";
export { compile, compileRule } from "./compile.ts";
export { byPrecedence, evaluate } from "./evaluate.ts";
export type { Matcher } from "./pattern.ts";
export { globMatcher, normalizePath, pathMatcher } from "./pattern.ts";
export type { LocalTime } from "./time.ts";
export { inWindow, localTime } from "./time.ts";
export type {
  CompileOptions,
  Instant,
  PolicyRule,
  RateLimit,
  RuleDecision,
  RuleMatch,
  TimeWindow,
} from "./types.ts";
export { MATCH_FIELDS, PERSON } from "./types.ts";
