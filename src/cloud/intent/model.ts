// The model port: the one place in the product a model runs, and what it may do there is propose. One adapter, the
// Anthropic Messages API on the deployment's own credential (sent only as its `x-api-key` header, never logged).
import type { ModelConfig } from "../http.ts";
import { type Reasoning, THINKING_BUDGET } from "./models.ts";

interface ModelAsk {
  readonly system: string;
  readonly user: string;
  readonly maxTokens: number;
}

interface ModelAnswer {
  readonly text: string;
  readonly model: string;
  readonly inputTokens: number | null;
  readonly outputTokens: number | null;
}

export interface ModelPort {
  readonly model: string;
  readonly reasoning: Reasoning;
  ask(a: ModelAsk): Promise<ModelAnswer>;
}

export class ModelFailure extends Error {}

const ANTHROPIC_VERSION = "2023-06-01";

/**
 * The exact request body the adapter sends: what the fixtures record. With reasoning, extended thinking gets its budget
 * on top of the answer's tokens, and no temperature (the API takes none beside thinking).
 */
export function messagesBody(model: string, a: ModelAsk, reasoning: Reasoning = "off"): Record<string, unknown> {
  const common = { system: a.system, messages: [{ role: "user", content: a.user }] };
  if (reasoning === "off") return { model, max_tokens: a.maxTokens, temperature: 0, ...common };
  const budget = THINKING_BUDGET[reasoning];
  return { model, max_tokens: a.maxTokens + budget, thinking: { type: "enabled", budget_tokens: budget }, ...common };
}

/** The adapter on the deployment's credential, asking `config.model` at `reasoning`. */
export function anthropic(config: ModelConfig, fetcher: typeof fetch = fetch, reasoning: Reasoning = "off"): ModelPort {
  return {
    model: config.model,
    reasoning,
    async ask(a) {
      let res: Response;
      try {
        res = await fetcher(`${config.baseUrl}/v1/messages`, {
          method: "POST",
          headers: {
            "content-type": "application/json",
            "x-api-key": config.apiKey,
            "anthropic-version": ANTHROPIC_VERSION,
          },
          body: JSON.stringify(messagesBody(config.model, a, reasoning)),
          signal: AbortSignal.timeout(120_000),
        });
      } catch (e) {
        throw new ModelFailure(`the model endpoint could not be reached: ${(e as Error).name}`);
      }
      const body = (await res.json().catch(() => null)) as {
        content?: { type?: string; text?: string }[];
        model?: string;
        usage?: { input_tokens?: number; output_tokens?: number };
        error?: { type?: string };
      } | null;
      if (!res.ok || !body)
        throw new ModelFailure(
          `the model endpoint answered ${res.status}${body?.error?.type ? ` (${body.error.type})` : ""}`,
        );
      const text = (body.content ?? [])
        .filter((b) => b.type === "text" && typeof b.text === "string")
        .map((b) => b.text)
        .join("");
      return {
        text,
        model: body.model ?? config.model,
        inputTokens: body.usage?.input_tokens ?? null,
        outputTokens: body.usage?.output_tokens ?? null,
      };
    },
  };
}
