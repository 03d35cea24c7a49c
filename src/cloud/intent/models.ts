// Settings → Model: which model extraction runs on, chosen per workspace from what this deployment can construct. The
// credential is the deployment's alone (http.ts ModelConfig, from its environment): nothing here takes, stores or
// shows a key. The one adapter is the Anthropic Messages API, so the list is its models, narrowed by the deployment
// (MEMNOX_MODELS); a model's reasoning control is extended thinking, and a level a model does not have is refused, never
// lowered to one it has.

import type { ModelConfig } from "../http.ts";

export const REASONING = ["off", "low", "medium", "high"] as const;
export type Reasoning = (typeof REASONING)[number];

/** Extended thinking's token budget per level (the Messages API's `thinking.budget_tokens`, at least 1,024). */
export const THINKING_BUDGET: Readonly<Record<Exclude<Reasoning, "off">, number>> = {
  low: 2_048,
  medium: 8_192,
  high: 24_576,
};

export interface ModelEntry {
  readonly id: string;
  readonly name: string;
  /** The levels this model has: `off` only for a model without extended thinking. */
  readonly reasoning: readonly Reasoning[];
}

const THINKS: readonly Reasoning[] = REASONING;

/** The Messages API models the adapter constructs, by the provider's own ids. */
export const CATALOGUE: readonly ModelEntry[] = [
  { id: "claude-opus-4-1", name: "Claude Opus 4.1", reasoning: THINKS },
  { id: "claude-sonnet-4-5", name: "Claude Sonnet 4.5", reasoning: THINKS },
  { id: "claude-haiku-4-5", name: "Claude Haiku 4.5", reasoning: THINKS },
  { id: "claude-3-5-haiku-latest", name: "Claude Haiku 3.5", reasoning: ["off"] },
];

export interface Preset {
  readonly id: string;
  readonly name: string;
  readonly model: string;
  readonly reasoning: Reasoning;
  readonly what: string;
}

/** The three curated choices: what most teams want, named for what they trade. */
export const PRESETS: readonly Preset[] = [
  {
    id: "thorough",
    name: "Thorough",
    model: "claude-opus-4-1",
    reasoning: "medium",
    what: "reads long threads for decisions best; spends the most of the deployment's allowance",
  },
  {
    id: "balanced",
    name: "Balanced",
    model: "claude-sonnet-4-5",
    reasoning: "low",
    what: "the default: careful enough for most teams at a fraction of the cost",
  },
  {
    id: "quick",
    name: "Quick",
    model: "claude-haiku-4-5",
    reasoning: "off",
    what: "the cheapest reading: fine for short, plainly worded channels",
  },
];

/**
 * The models this deployment can construct: none without its credential; else the catalogue, narrowed to the ids the
 * deployment offers when it names some, with the deployment's own default model always among them.
 */
export function offeredModels(config: ModelConfig | undefined): ModelEntry[] {
  if (!config) return [];
  const narrowed = config.offered ? CATALOGUE.filter((m) => config.offered?.includes(m.id)) : [...CATALOGUE];
  if (!narrowed.some((m) => m.id === config.model))
    narrowed.unshift(
      CATALOGUE.find((m) => m.id === config.model) ?? { id: config.model, name: config.model, reasoning: ["off"] },
    );
  return narrowed;
}

/** The presets whose model this deployment can construct. */
export function offeredPresets(config: ModelConfig | undefined): Preset[] {
  const ids = new Set(offeredModels(config).map((m) => m.id));
  return PRESETS.filter((p) => ids.has(p.model));
}

export interface Choice {
  readonly model: string;
  readonly reasoning: Reasoning;
}

/** Why `choice` cannot run here, or undefined when it can: a model not offered, a level the model does not have. */
export function refusal(config: ModelConfig | undefined, choice: Choice): string | undefined {
  if (!config) return "this deployment has no model credential, so no model can be chosen";
  const m = offeredModels(config).find((x) => x.id === choice.model);
  if (!m) return `${choice.model} is not a model this deployment can construct`;
  if (!m.reasoning.includes(choice.reasoning))
    return `${m.name} has no \`${choice.reasoning}\` reasoning (it has ${m.reasoning.join(", ")}); refused rather than lowered`;
  return undefined;
}
