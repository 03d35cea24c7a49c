// Real Chromium (Debian's) driven by playwright-core: headless, no sandbox (the tests run as root), nothing phoning
// home, a fresh profile per run (playwright launches with a new temporary user-data directory, and each context has
// its own cookie jar, which is how two people sign in side by side). Screenshots of each page are kept under .cache/screenshots/<suite>/ (gitignored).
import { mkdirSync, rmSync } from "node:fs";
import { join } from "node:path";
import { type Browser, chromium } from "playwright-core";

const ROOT = join(import.meta.dir, "..", "..");

export const CHROMIUM = "/usr/bin/chromium";

export interface RunningChromium extends AsyncDisposable {
  readonly browser: Browser;
  /** Where this suite keeps its screenshots. */
  readonly shots: string;
  stop(): Promise<void>;
}

/** Headless as root, and nothing phoning home: the flags every browser test launches with. */
export const CHROMIUM_ARGS: readonly string[] = [
  "--no-sandbox",
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

export async function startChromium(suite: string): Promise<RunningChromium> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: [...CHROMIUM_ARGS] });
  const shots = join(ROOT, ".cache", "screenshots", suite);
  rmSync(shots, { recursive: true, force: true });
  mkdirSync(shots, { recursive: true });
  const stop = async () => {
    await browser.close();
  };
  return { browser, shots, stop, [Symbol.asyncDispose]: stop };
}
