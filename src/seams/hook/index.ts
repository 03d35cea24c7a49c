// The hook face: `memnox hook <agent> [event]`, one agent hook call per process.
import { join } from "node:path";
import { ADAPTERS } from "../../../hooks/index.ts";
import { isAgentName } from "../../../hooks/types.ts";
import { failsClosed } from "../../gate/posture.ts";
import type { Context } from "../../ports/context.ts";
import type { Stdio } from "../../ports/index.ts";
import { realDeps } from "./deps.ts";
import { failedReply, handleHook } from "./handle.ts";

export function run(ctx: Context): Promise<number> {
  return handleHook(ctx, realDeps(ctx));
}

/**
 * The face could not even be built (no HOME, a module that would not load): the answer is still in the agent's own
 * protocol, a refusal where memnox's home says enforce, or where no home can be found at all (fail closed).
 */
export async function answerUnbuilt(
  args: readonly string[],
  io: Stdio,
  root: string | undefined,
  why: string,
): Promise<number> {
  const [agent, eventArg] = args;
  const { postureAt } = await import("../../gate/posture-read.ts");
  const posture = root
    ? postureAt(join(root, "config.toml"), join(root, "stop.json"), Date.now())
    : { mode: "enforce" as const, failOpen: false, stopped: false, note: "memnox's home could not be found" };
  if (!agent || !isAgentName(agent)) {
    io.err(`memnox: ${why}\n`);
    return failsClosed(posture) ? 2 : 0;
  }
  const adapter = await ADAPTERS[agent]();
  let event = eventArg ?? "";
  if (!event) {
    try {
      event = adapter.eventOf(JSON.parse(await io.readAll())) ?? "";
    } catch {
      // no event to answer for: the failure below still speaks the agent's protocol
    }
  }
  const reply = failedReply(adapter, event, posture, why);
  if (reply.stdout) io.out(reply.stdout);
  if (reply.stderr) io.err(reply.stderr);
  return reply.exitCode;
}
