// `memnox status` (and bare `memnox` once setup ran): where this machine stands.
import type { Context } from "../../../ports/context.ts";
import { machineStatus } from "../../../scan/status.ts";
import { renderStatus } from "../../../scan/status-render.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

export async function runStatus(ctx: Context, json: boolean | undefined): Promise<number> {
  const s = await machineStatus(ctx);
  emit(ctx, json, s, () => renderStatus(s));
  return 0;
}

export const status: CommandFactory = (ctx) =>
  command({
    meta: { name: "status", description: "where this machine stands: what is held, and what happened today" },
    args: { json: { type: "boolean", description: "the same facts for a script" } },
    run: ({ args }) => runStatus(ctx, args.json),
  });
