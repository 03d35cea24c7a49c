// What happens around an agent started by `memnox run`: the session on the record, and (with their issues) the
// working-tree milestone and the egress proxy. One place, so each wires itself in here.
import type { Context } from "../../../ports/context.ts";

export interface RunHookInput {
  readonly session: string;
  readonly agent: string;
  readonly root: string;
  readonly milestone: boolean;
}

export interface RunHooks {
  before(): Promise<void>;
  after(exitCode: number, durationMs: number): Promise<void>;
}

export function runHooks(_ctx: Context, _input: RunHookInput): RunHooks {
  return {
    async before() {},
    async after() {},
  };
}
