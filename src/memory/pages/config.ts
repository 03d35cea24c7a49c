// The few memex.toml settings memory honours, so a store shared with memex keeps its behaviour.
import { existsSync, readFileSync } from "node:fs";
import { parse } from "smol-toml";
import { MemnoxError } from "../../core/errors.ts";
import type { Store } from "./store.ts";

interface MemoryConfig {
  readonly halfLifeDays: number;
  readonly knowledgeApproval: "manual" | "auto";
  readonly defaultImportance: number;
  readonly maxBodyChars: number;
  /** [pages] slug_algo: kebab (from the title) or sha1 (twelve hex digits of the title's SHA-1). */
  readonly slugAlgo: "kebab" | "sha1";
  /** [recency_decay] enabled: whether `decay` lowers idle pages' importance. */
  readonly decayEnabled: boolean;
  /** [bm25] default_top_k: how many hits recall returns when asked for no number. */
  readonly defaultTopK: number;
  readonly llm: {
    /** memex's provider names: openai (the default), ollama, lmstudio, openrouter, custom, or a harness. */
    readonly provider: string;
    /** A hosted provider at its own endpoint: no call without a key (memex's rule); an endpoint given may not need one. */
    readonly needsKey: boolean;
    /** A coding harness whose CLI distils in print mode on its own model and credentials (claude, codex, pi). */
    readonly harness?: "claude" | "codex" | "pi";
    readonly baseUrl?: string;
    readonly model?: string;
    readonly apiKey?: string;
    readonly timeoutS: number;
  };
}

const cache = new WeakMap<Store, MemoryConfig>();

type Table = Record<string, unknown>;

function table(v: unknown): Table {
  return v !== null && typeof v === "object" && !Array.isArray(v) ? (v as Table) : {};
}

function str(v: unknown): string | undefined {
  return typeof v === "string" && v ? v : undefined;
}

function num(v: unknown, fallback: number): number {
  return typeof v === "number" && Number.isFinite(v) ? v : fallback;
}

export function memoryConfig(store: Store): MemoryConfig {
  const hit = cache.get(store);
  if (hit) return hit;
  let doc: Table = {};
  const file = store.layout.memexToml;
  if (existsSync(file)) {
    try {
      doc = parse(readFileSync(file, "utf8")) as Table;
    } catch (e) {
      throw new MemnoxError("config_invalid", `\`${file}\`: ${(e as Error).message}`, "fix the TOML or move it aside");
    }
  }
  const llm = table(doc.llm);
  const cons = table(doc.consolidation);
  const env = store.env;
  const approval = table(doc.governance).knowledge_approval ?? "manual";
  if (approval !== "manual" && approval !== "auto")
    throw new MemnoxError(
      "config_invalid",
      `knowledge_approval must be one of ('manual', 'auto'), got ${JSON.stringify(approval)}`,
      `[governance] in ${file}`,
    );
  const pages = { ...table(doc.wiki), ...table(doc.pages) };
  const slugAlgo = pages.slug_algo ?? "kebab";
  if (slugAlgo !== "kebab" && slugAlgo !== "sha1")
    throw new MemnoxError("config_invalid", `slug_algo must be kebab or sha1, got ${JSON.stringify(slugAlgo)}`);
  // Every [consolidation] field falls back to [llm], and the environment overrides both, as memex reads them.
  const provider =
    env.MEMEX_CONSOLIDATE_PROVIDER ?? str(cons.provider) ?? env.MEMEX_LLM_PROVIDER ?? str(llm.provider) ?? "openai";
  const givenBase = env.MEMNOX_MEMORY_LLM_BASE_URL ?? str(cons.api_base) ?? str(llm.api_base);
  const config: MemoryConfig = {
    halfLifeDays: num(table(doc.recency_decay).half_life_days, 30),
    knowledgeApproval: approval,
    defaultImportance: num(pages.default_importance, 0.5),
    maxBodyChars: num(pages.max_body_chars, 50_000),
    slugAlgo,
    decayEnabled: table(doc.recency_decay).enabled !== false,
    defaultTopK: num(table(doc.bm25).default_top_k, 10),
    llm: {
      provider,
      needsKey: (provider === "openai" || provider === "openrouter") && givenBase === undefined,
      ...harnessOf(provider),
      ...optional("baseUrl", givenBase ?? PROVIDER_BASES[provider]),
      ...optional(
        "model",
        env.MEMNOX_MEMORY_LLM_MODEL ??
          env.MEMEX_CONSOLIDATE_MODEL ??
          str(cons.model) ??
          env.MEMEX_LLM_MODEL ??
          str(llm.model) ??
          "gpt-4o",
      ),
      ...optional(
        "apiKey",
        env.MEMNOX_MEMORY_LLM_API_KEY ??
          env.MEMEX_CONSOLIDATE_API_KEY ??
          str(cons.api_key) ??
          env.MEMEX_API_KEY ??
          str(llm.api_key),
      ),
      timeoutS: num(llm.timeout, 60),
    },
  };
  cache.set(store, config);
  return config;
}

/** The endpoint each of memex's providers uses when no api_base is given; `custom` has none. */
const PROVIDER_BASES: Readonly<Record<string, string>> = {
  openai: "https://api.openai.com/v1",
  openrouter: "https://openrouter.ai/api/v1",
  ollama: "http://localhost:11434/v1",
  lmstudio: "http://localhost:1234/v1",
};

function harnessOf(provider: string | undefined): { harness?: "claude" | "codex" | "pi" } {
  return provider === "claude" || provider === "codex" || provider === "pi" ? { harness: provider } : {};
}

function optional<K extends string>(key: K, value: string | undefined): { [P in K]?: string } {
  return (value ? { [key]: value } : {}) as { [P in K]?: string };
}
