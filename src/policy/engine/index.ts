// The pure policy engine: compile validated rules once, evaluate requests against them.

export { matchesOnArguments } from "./arguments.ts";
export type { CompiledRuleSet } from "./compile.ts";
export { compile } from "./compile.ts";
export { evaluate } from "./evaluate.ts";

export { globMatcher, pathMatcher } from "./pattern.ts";

export type { Instant, PolicyRule, RuleDecision, RuleMatch, TimeWindow } from "./types.ts";
export { MATCH_FIELDS, PERSON } from "./types.ts";
