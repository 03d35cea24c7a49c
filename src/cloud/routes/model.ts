// Settings → Model's API: what this deployment offers (three presets, or the full list with each model's reasoning
// levels) and the workspace's choice, which extraction then runs on. There is no key here to read or write: the one
// credential is the deployment's, and the body schema refuses any field but a preset or a model and its reasoning.
import type * as v from "valibot";
import { actorName } from "../auth.ts";
import { type Call, json } from "../http.ts";
import { HttpError } from "../http-error.ts";
import { anthropic, type ModelPort } from "../intent/model.ts";
import {
  type Choice,
  offeredModels,
  offeredPresets,
  PRESETS,
  REASONING,
  type Reasoning,
  refusal,
} from "../intent/models.ts";
import * as store from "../store/decisions.ts";
import { audit } from "../store/people.ts";
import type { ModelChoice } from "./bodies.ts";

function caller(c: Call) {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  return who;
}

const isReasoning = (x: unknown): x is Reasoning =>
  typeof x === "string" && (REASONING as readonly string[]).includes(x);

/** The workspace's choice, or the deployment's default model without reasoning when it chose nothing. */
async function choiceOf(c: Call, workspaceId: string): Promise<(Choice & { readonly chosen: boolean }) | undefined> {
  const config = c.config.model;
  if (!config) return undefined;
  const w = await store.workspaceModel(c.db, workspaceId);
  if (w?.model && isReasoning(w.model_reasoning)) return { model: w.model, reasoning: w.model_reasoning, chosen: true };
  return { model: config.model, reasoning: "off", chosen: false };
}

/** GET /v1/extraction/model: the presets and models on offer here, and what this workspace runs on. */
export async function showModel(c: Call): Promise<Response> {
  const who = caller(c);
  const choice = await choiceOf(c, who.workspaceId);
  const preset = choice ? PRESETS.find((p) => p.model === choice.model && p.reasoning === choice.reasoning) : undefined;
  return json({
    configured: c.config.model !== undefined,
    presets: offeredPresets(c.config.model),
    models: offeredModels(c.config.model),
    current: choice ? { ...choice, preset: preset?.id ?? null } : null,
  });
}

/** PUT /v1/extraction/model {preset} | {model, reasoning}: refused unless this deployment runs it exactly as asked. */
export async function setModel(c: Call, body: v.InferOutput<typeof ModelChoice>): Promise<Response> {
  const who = caller(c);
  let choice: Choice;
  if ("preset" in body) {
    const p = offeredPresets(c.config.model).find((x) => x.id === body.preset);
    if (!p) throw new HttpError(400, "bad_request", `\`${body.preset}\` is not a preset this deployment offers`);
    choice = { model: p.model, reasoning: p.reasoning };
  } else choice = { model: body.model, reasoning: body.reasoning };
  const why = refusal(c.config.model, choice);
  if (why) throw new HttpError(400, "not_offered", why);
  await store.setWorkspaceModel(c.db, who.workspaceId, choice.model, choice.reasoning);
  await audit(c.db, { orgId: who.orgId, actor: actorName(who), action: "extraction.model", detail: { ...choice } });
  return json({ ...choice });
}

/**
 * The port extraction runs through: the deployment's credential asking the workspace's chosen model, or a refusal
 * that leaves the rest of the product as it is (no credential: 503; a choice the deployment no longer offers: 409).
 */
export async function modelFor(c: Call, workspaceId: string): Promise<ModelPort> {
  const config = c.config.model;
  const choice = await choiceOf(c, workspaceId);
  if (!config || !choice)
    throw new HttpError(
      503,
      "no_model",
      "extraction has no model credential on this deployment (ANTHROPIC_API_KEY); nothing else needs one",
    );
  const why = refusal(config, choice);
  if (why) throw new HttpError(409, "model_not_offered", `${why}: choose again under Settings → Model`);
  return anthropic({ ...config, model: choice.model }, fetch, choice.reasoning);
}

/** The model this workspace's next extraction run asks, or null where the deployment has no credential. */
export async function currentModel(c: Call, workspaceId: string): Promise<string | null> {
  return (await choiceOf(c, workspaceId))?.model ?? null;
}
