// Which tools the agent may learn of: MEMNOX_TOOLS_ALLOW keeps only matches, MEMNOX_TOOLS_DENY hides matches.
import { MemnoxError } from "../../core/errors.ts";
import type { Env } from "../../ports/index.ts";

export interface Visibility {
  /** Why a tool is hidden (the setting that hid it), or undefined when the agent may see it. */
  hiddenBy(tool: string): string | undefined;
}

export function visibilityFrom(env: Env): Visibility {
  const allow = pattern(env, "MEMNOX_TOOLS_ALLOW");
  const deny = pattern(env, "MEMNOX_TOOLS_DENY");
  return {
    hiddenBy(tool) {
      if (deny?.test(tool)) return "MEMNOX_TOOLS_DENY";
      if (allow && !allow.test(tool)) return "MEMNOX_TOOLS_ALLOW";
      return undefined;
    },
  };
}

/** Case-insensitive, so `delete` also hides `DeleteRepo`; a broken pattern stops the proxy rather than hide nothing. */
function pattern(env: Env, name: string): RegExp | undefined {
  const source = env[name];
  if (!source) return undefined;
  try {
    return new RegExp(source, "i");
  } catch (e) {
    throw new MemnoxError(
      "usage",
      `${name} \`${source}\` is not a valid regular expression: ${(e as Error).message}`,
      `fix or unset ${name}; until then this MCP server does not start`,
    );
  }
}
