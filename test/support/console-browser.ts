// A person at the console in real Chromium: pressing a button and waiting for htmx to draw the answer, and signing in
// through the console's page and the OpenID provider's own login and consent screens, as a person clicks them.
import { expect } from "bun:test";
import type { Locator, Page } from "playwright-core";

/** What `globalThis` is in the page; each in-page function casts to it itself (it runs there, not here). */
export interface Doc {
  readonly document: {
    querySelector(s: string): { readonly textContent: string | null } | null;
    readonly activeElement: unknown;
  };
}

/** Presses a button (or a key) and waits until what it sent was answered and drawn: htmx swaps the page in place. */
export async function press(page: Page, button: Locator | (() => Promise<void>)): Promise<void> {
  const answered = page.waitForResponse(
    (r) => r.request().method() === "POST" && r.url().startsWith("http://127.0.0.1"),
  );
  if (typeof button === "function") await button();
  else await button.click();
  await answered;
  await page.waitForLoadState();
  // A function, not a string: the console's policy refuses eval, the test's own included.
  await page.waitForFunction(
    () => !(globalThis as unknown as Doc).document.querySelector(".htmx-request, .htmx-swapping, .htmx-settling"),
  );
}

/** Through the console's sign-in page and the provider's own login and consent screens, as a person clicks them. */
export async function signIn(page: Page, issuer: string, base: string, login: string, path = "/"): Promise<void> {
  await page.goto(`${base}${path}`);
  expect(new URL(page.url()).pathname).toBe("/signin");
  await page.getByRole("link", { name: /^Sign in with / }).click();
  await page.waitForURL((u) => u.origin === issuer);
  await page.fill('input[name="login"]', login);
  const password = page.locator('input[name="password"]');
  if ((await password.count()) > 0) await password.fill("not used");
  await page.click('button[type="submit"]');
  const consent = page.getByRole("button", { name: "Continue" });
  await page.waitForURL((u) => u.origin === base || u.pathname.includes("/interaction/"));
  if (new URL(page.url()).origin !== base) {
    await consent.click();
    await page.waitForURL((u) => u.origin === base);
  }
}
