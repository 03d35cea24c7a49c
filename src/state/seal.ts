// ~/.memnox/sealed.json: the mode and failOpen memnox itself last set (setup, `config set`, `protect --observe`).
// Only memnox writes it (an agent's write to ~/.memnox is refused), so after setup a config.toml that is missing,
// empty, unreadable or a symlink means this mode, never observe; and a config.toml edited by hand to something looser
// than the seal does not loosen anything until a person says so with `memnox config set`.
import { dirname, join } from "node:path";
import { isMode, MODES, type Mode } from "../core/effect.ts";
import { readTextIfExists, writeJsonAtomic } from "../io/files.ts";

interface Seal {
  readonly mode: Mode;
  readonly failOpen: boolean;
}

/** The seal beside a config file (`sealed.json` in the same folder). */
export function sealPath(configFile: string): string {
  return join(dirname(configFile), "sealed.json");
}

/** The seal, or undefined before setup; one that cannot be read seals enforce (only memnox writes it). */
export function readSeal(file: string): Seal | undefined {
  let text: string | undefined;
  try {
    text = readTextIfExists(file);
  } catch {
    return { mode: "enforce", failOpen: false };
  }
  if (text === undefined) return undefined;
  try {
    const v = JSON.parse(text) as { mode?: unknown; failOpen?: unknown };
    if (!isMode(v.mode)) return { mode: "enforce", failOpen: false };
    return { mode: v.mode, failOpen: v.failOpen === true };
  } catch {
    return { mode: "enforce", failOpen: false };
  }
}

export function writeSeal(file: string, seal: Seal, nowMs: number): void {
  writeJsonAtomic(file, { version: 1, mode: seal.mode, failOpen: seal.failOpen, at: new Date(nowMs).toISOString() });
}

/** The stricter of two modes: off < observe < advise < enforce. */
export function stricterMode(a: Mode, b: Mode): Mode {
  return MODES.indexOf(a) >= MODES.indexOf(b) ? a : b;
}
