// Billing (a plain plan page), Settings (the team's profile, the sinks and webhooks the record is forwarded to, the
// model extraction runs on, privacy, and how sign-in is wired), and onboarding: the first time in, the team's name, what it does, who you are.
import { invoke, may } from "../call.ts";
import { html } from "../html.ts";
import { form, meOf } from "../layout.ts";
import { field, type PageDef } from "../page.ts";
import { modelActions, modelSection } from "./model.ts";
import { privacyActions, privacySection } from "./privacy.ts";
import { sinkActions, sinksSection } from "./sinks.ts";

interface Org {
  readonly name: string;
  readonly about: string | null;
  readonly onboardedAt: string | null;
  readonly plan: { readonly name: string; readonly billed: boolean };
  readonly signIn: { readonly issuer: string; readonly audience: string; readonly selfService: boolean } | null;
}

export const billing: PageDef = {
  path: "/billing",
  title: "Billing",
  async render(c) {
    const org = await invoke<Org>(c, "GET /v1/org");
    return html`<dl class="facts"><dt>Plan</dt><dd>${org.plan.name}</dd>
<dt>Billed</dt><dd>${org.plan.billed ? "yes" : "nothing: this control plane runs on your own infrastructure"}</dd></dl>`;
  },
};

export const settings: PageDef = {
  path: "/settings",
  title: "Settings",
  async render(c) {
    const org = await invoke<Org>(c, "GET /v1/org");
    return html`<section aria-labelledby="general-h"><h2 id="general-h">General</h2>
${
  may(c, "PATCH /v1/org")
    ? form(
        c,
        "profile",
        {},
        html`<label for="org-name">Team name</label><input id="org-name" name="name" value="${org.name}" required>
  <label for="org-about">What the team does</label><textarea id="org-about" name="about" rows="3">${org.about ?? ""}</textarea>
  <button type="submit">Save</button>`,
        { className: "stack", label: "Team profile" },
      )
    : html`<dl class="facts"><dt>Team</dt><dd>${org.name}</dd><dt>What it does</dt><dd>${org.about ?? "–"}</dd></dl>`
}
${await sinksSection(c)}</section>
${await modelSection(c)}
${await privacySection(c)}
<section aria-labelledby="signin-h"><h2 id="signin-h">Sign-in</h2>${
      org.signIn
        ? html`<dl class="facts"><dt>Issuer</dt><dd><code>${org.signIn.issuer}</code></dd><dt>Audience</dt><dd><code>${org.signIn.audience}</code></dd>
<dt>Unknown identities</dt><dd>${org.signIn.selfService ? "get an organization of their own" : "are refused"}</dd></dl>
<p class="muted">Wired once for the deployment. The provider proves who is signing in; who is allowed in, and with which role, is decided under People.</p>`
        : html`<p>Sign-in is not configured on this control plane.</p>`
    }</section>`;
  },
  actions: {
    ...sinkActions,
    ...privacyActions,
    ...modelActions,
    async profile(c) {
      await invoke(c, "PATCH /v1/org", { body: { name: field(c, "name"), about: c.form.get("about") ?? "" } });
      return undefined;
    },
  },
};

export const onboarding: PageDef = {
  path: "/onboarding",
  title: "Finish onboarding",
  async render(c) {
    const [org, me] = await Promise.all([invoke<Org>(c, "GET /v1/org"), meOf(c)]);
    if (!may(c, "PATCH /v1/org"))
      return html`<p>The team's profile (its name, what it does) is set by an admin of ${org.name}.</p><p><a href="/">Home</a></p>`;
    return html`<p>The first time in: the team's name, what it does, and who you are. Extraction later uses this to tell a
decision about your product from a decision about somebody else's.</p>
${form(
  c,
  "profile",
  {},
  html`<label for="ob-name">Team name</label><input id="ob-name" name="name" value="${org.name}" required>
<label for="ob-about">What the team does</label><textarea id="ob-about" name="about" rows="3" required>${org.about ?? ""}</textarea>
<label for="ob-you">Who you are</label><input id="ob-you" name="you" value="${me.name ?? ""}" required>
<button type="submit" class="primary">Continue</button>`,
  { className: "stack", label: "Onboarding" },
)}`;
  },
  actions: {
    async profile(c) {
      const you = field(c, "you");
      // The team's profile first: it needs an admin, and a refusal must leave the person's own name untouched too.
      await invoke(c, "PATCH /v1/org", { body: { name: field(c, "name"), about: field(c, "about") } });
      await invoke(c, "PATCH /v1/me", { body: { name: you } });
      return "/";
    },
  },
};
