// Text that reads like instructions to the model, found by the rules in instruction-rules.ts. Pure.
import { INSTRUCTION_RULES, type InstructionRule } from "./instruction-rules.ts";

const ZERO_WIDTH = /[\u200b-\u200f\u2060-\u2064\ufeff\u00ad]/g;

/** Fold the tricks that hide words from a pattern but not from a model: compatibility forms, invisible characters. */
export function normalise(text: string): string {
  return text
    .normalize("NFKC")
    .replace(ZERO_WIDTH, "")
    .replace(/[ \t\f\v\u00a0]+/g, " ");
}

/** Ids of the rules a text matches, in rule order. */
export function detectInstructions(text: string, rules: readonly InstructionRule[] = INSTRUCTION_RULES): string[] {
  const t = normalise(text);
  return rules.filter((r) => r.pattern.test(t)).map((r) => r.id);
}

/** The label of each rule id, in the words notices and rows use. */
export function instructionLabels(
  ids: readonly string[],
  rules: readonly InstructionRule[] = INSTRUCTION_RULES,
): string {
  return ids.map((id) => rules.find((r) => r.id === id)?.label ?? id).join("; ");
}
