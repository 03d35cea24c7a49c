// memex's write boundary: the masker's memory catalog, each match a typed `[REDACTED:<kind>]`; callers log the kinds.
import { maskSecrets, secretKinds } from "../../core/secrets.ts";

interface Scrubbed {
  readonly text: string;
  readonly kinds: readonly string[];
}

export function scrub(text: string): Scrubbed {
  const kinds = secretKinds(text, "memory");
  if (kinds.length === 0) return { text, kinds };
  return { text: maskSecrets(text, { catalog: "memory", render: (kind) => `[REDACTED:${kind}]` }), kinds };
}
