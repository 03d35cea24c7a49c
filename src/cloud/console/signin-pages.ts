// Signing in, seen from the browser: a page with one way in (the deployment's provider; never a password), the
// redirect to it, and its return. A refused sign-in says only that it was refused: never whether the account exists.
import { clearCookie, finishSignIn, localPath, SIGN_IN_COOKIE, SignInRefused, startSignIn } from "../signin.ts";
import type { ConsoleCall } from "./call.ts";
import { html, page, seeOther } from "./html.ts";
import { bare } from "./layout.ts";

/** The providers a person knows by name, by their issuer's host; any other issuer is named by its host. */
const PROVIDERS: readonly [RegExp, string][] = [
  [/^accounts\.google\.com$/, "Google"],
  [/^(github\.com|token\.actions\.githubusercontent\.com)$/, "GitHub"],
  [/^login\.microsoftonline\.com$|^sts\.windows\.net$/, "Microsoft"],
  [/(^|\.)okta(preview)?\.com$/, "Okta"],
  [/(^|\.)auth0\.com$/, "Auth0"],
  [/^gitlab\.com$/, "GitLab"],
  [/(^|\.)onelogin\.com$/, "OneLogin"],
];

export function providerName(issuer: string): string {
  const host = new URL(issuer).host;
  return PROVIDERS.find(([re]) => re.test(host))?.[1] ?? host;
}

export async function signInPage(c: ConsoleCall): Promise<Response> {
  const back = localPath(c.url.searchParams.get("return"));
  if (c.who) return seeOther(back);
  const s = c.config.signIn;
  // A machine's `memnox login` sent somebody here to approve its code.
  const code = /^\/device\?code=([A-Z]{4}-[A-Z]{4})$/.exec(back)?.[1];
  if (!s)
    return page(
      bare(
        "Sign in",
        html`<p>Sign-in is not configured on this control plane, so there is no form to offer.</p>
<p class="muted">Whoever runs it starts it with <code>--oidc-issuer</code> and <code>--oidc-client-id</code> (the
client secret in <code>MEMNOX_OIDC_CLIENT_SECRET</code>). Scripts reach the same API with a token meanwhile.</p>${
          code
            ? html`<p>To approve the machine waiting with <code>${code}</code>, an admin's token does it:</p>
<pre><code>curl -X POST -H "Authorization: Bearer $TOKEN" ${c.url.origin}/v1/devices/${code}/approve</code></pre>`
            : ""
        }`,
      ),
    );
  const out = c.url.searchParams.get("out") === "1";
  return page(
    bare(
      "Sign in",
      html`${out ? html`<p class="said ok" role="status">You are signed out. The session was ended on the server.</p>` : ""}
<p>memnox has no passwords: you sign in with your organization's identity provider.</p>
<p><a class="signin" href="/signin/start?return=${encodeURIComponent(back)}">Sign in with ${providerName(s.issuer)}</a></p>`,
    ),
  );
}

export function signInStart(c: ConsoleCall): Promise<Response> {
  return startSignIn(c.db, c.config, c.url);
}

export async function signInCallback(c: ConsoleCall): Promise<Response> {
  try {
    const { response } = await finishSignIn(c.db, c.config, c.req, c.url, c.now());
    return response;
  } catch (e) {
    if (!(e instanceof SignInRefused)) throw e;
    // The reason stays in the server's log; the page says only that it was refused.
    c.log(`sign-in refused: ${e.why}`);
    return page(bare("Sign-in refused", html`<p>Sign-in was refused.</p><p><a href="/signin">Try again</a></p>`), 403, {
      "set-cookie": clearCookie(SIGN_IN_COOKIE),
    });
  }
}
