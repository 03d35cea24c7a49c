// A command line as the exact words a shell would pass, when it is one plain command and nothing else.
import { parseScript } from "./shell/parse.ts";
import { literalText } from "./shell/words.ts";

/** The argv of a single simple command with only literal words; undefined for anything a shell would expand. */
export function commandWords(line: string): string[] | undefined {
  try {
    const script = parseScript(line);
    const only = script.length === 1 ? script[0] : undefined;
    const pipeline = only && only.pipelines.length === 1 ? only.pipelines[0] : undefined;
    const cmd = pipeline && pipeline.commands.length === 1 ? pipeline.commands[0] : undefined;
    if (cmd?.type !== "simple" || cmd.assigns.length > 0 || cmd.redirects.length > 0) return undefined;
    const words = cmd.words.map(literalText);
    return words.every((w): w is string => w !== undefined) ? words : undefined;
  } catch {
    return undefined;
  }
}
