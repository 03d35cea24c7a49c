// Settings → Model: the model extraction runs on, chosen from what this deployment can construct: three presets, or
// the full list with its reasoning control. No field takes a key: the one credential is the deployment's.
import type { ModelEntry, Preset, Reasoning } from "../../intent/models.ts";
import { REASONING } from "../../intent/models.ts";
import { type ConsoleCall, invoke, may } from "../call.ts";
import { type Html, html } from "../html.ts";
import { form } from "../layout.ts";
import { type Action, field } from "../page.ts";

interface ModelView {
  readonly configured: boolean;
  readonly presets: readonly Preset[];
  readonly models: readonly ModelEntry[];
  readonly current: {
    readonly model: string;
    readonly reasoning: Reasoning;
    readonly chosen: boolean;
    readonly preset: string | null;
  } | null;
}

export async function modelSection(c: ConsoleCall): Promise<Html> {
  const v = await invoke<ModelView>(c, "GET /v1/extraction/model");
  const head = html`<h2 id="model-h">Model</h2>`;
  if (!v.configured || !v.current)
    return html`<section aria-labelledby="model-h">${head}<p id="model-current">This deployment has no model credential:
extraction does not read new decisions, and every rule in force is enforced as before.</p>
<p class="muted">The one model credential belongs to the deployment (its ANTHROPIC_API_KEY); no workspace brings its own.</p></section>`;
  const cur = v.current;
  const name = (id: string) => v.models.find((m) => m.id === id)?.name ?? id;
  const preset = v.presets.find((p) => p.id === cur.preset);
  const now = html`<p id="model-current">Extraction runs on <strong>${name(cur.model)}</strong>, reasoning
<strong>${cur.reasoning}</strong>${preset ? html` (the ${preset.name} preset)` : ""}${cur.chosen ? "" : html` <span class="muted">(the deployment's default: nothing chosen here yet)</span>`}.</p>`;
  const list = html`<table class="list" id="models"><caption>Models this deployment can construct</caption><thead><tr>
<th scope="col">Model</th><th scope="col">Id</th><th scope="col">Reasoning it has</th></tr></thead><tbody>${v.models.map(
    (m) => html`<tr><th scope="row">${m.name}</th><td><code>${m.id}</code></td><td>${m.reasoning.join(", ")}</td></tr>`,
  )}</tbody></table>`;
  if (!may(c, "PUT /v1/extraction/model"))
    return html`<section aria-labelledby="model-h">${head}${now}${list}</section>`;
  const presets =
    v.presets.length === 0
      ? ""
      : form(
          c,
          "model-preset",
          {},
          html`<fieldset><legend>Presets</legend>${v.presets.map(
            (
              p,
            ) => html`<label><input type="radio" name="preset" value="${p.id}"${p.id === cur.preset ? html` checked` : ""} required>
<strong>${p.name}</strong>: ${name(p.model)}, reasoning ${p.reasoning}. <span class="muted">${p.what}</span></label>`,
          )}</fieldset><button type="submit">Use this preset</button>`,
          { className: "stack", label: "Model presets" },
        );
  const custom = form(
    c,
    "model-custom",
    {},
    html`<label for="model-id">Model</label><select id="model-id" name="model">${v.models.map(
      (m) => html`<option value="${m.id}"${m.id === cur.model ? html` selected` : ""}>${m.name}</option>`,
    )}</select>
<label for="model-reasoning">Reasoning</label><select id="model-reasoning" name="reasoning">${REASONING.map(
      (r) => html`<option value="${r}"${r === cur.reasoning ? html` selected` : ""}>${r}</option>`,
    )}</select><button type="submit">Use this model</button>
<p class="muted">A reasoning level the model does not have is refused, never lowered to one it has.</p>`,
    { className: "stack", label: "Any model" },
  );
  return html`<section aria-labelledby="model-h">${head}${now}${presets}<h3>Or any model this deployment offers</h3>${list}${custom}
<p class="muted">Every run spends the deployment's one credential; the usage log says where it went.</p></section>`;
}

export const modelActions: Readonly<Record<string, Action>> = {
  async "model-preset"(c) {
    await invoke(c, "PUT /v1/extraction/model", { body: { preset: field(c, "preset") } });
    return { ok: "Extraction runs on the preset from its next run." };
  },
  async "model-custom"(c) {
    await invoke(c, "PUT /v1/extraction/model", {
      body: { model: field(c, "model"), reasoning: field(c, "reasoning") },
    });
    return { ok: "Extraction runs on this model from its next run." };
  },
};
