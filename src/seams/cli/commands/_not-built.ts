// A command whose part of memnox has not landed yet: a clear error and exit 2, never a silent success.
import { defineCommand } from "citty";
import { MemnoxError } from "../../../core/errors.ts";
import type { CommandFactory } from "../registry.ts";

export function notBuilt(name: string, area: string): CommandFactory {
  return () =>
    defineCommand({
      meta: { name, description: `not built yet (${area})` },
      run() {
        throw new MemnoxError("not_built", `memnox ${name} is not built yet`, `it arrives with the ${area} work`);
      },
    });
}
