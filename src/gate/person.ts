// A person's own command at their own terminal, where no rule file here names `person` (person-rules.ts): nothing the
// person wrote for themselves can apply, so it ran as typed and one row records it as theirs. Where a rule file
// names `person`, the seam asks decide() with the person's seat instead (assess.ts), which applies only those rules.
// The row goes to the daemon with the argv, which names the action with the resolver it already holds; only with no
// daemon does the seam load the resolver and the ledger itself.
import type { EventInput } from "../core/event.ts";
import { PERSON } from "../policy/engine/types.ts";
import type { Context } from "../ports/context.ts";
import { postureAt } from "./posture-read.ts";
import { CALL_TIMEOUT_MS, daemonClient } from "./remote/client.ts";

interface PersonCall {
  readonly argv: readonly string[];
  readonly cwd: string;
  readonly exitCode: number;
  readonly durationMs: number;
  readonly startedAtMs: number;
}

/** The row before its action is named: who, when, how it ended, and why it was not ruled. */
function personEvent(ctx: Pick<Context, "paths">, call: PersonCall): EventInput {
  return {
    kind: "decision",
    occurredAt: new Date(call.startedAtMs).toISOString(),
    surface: "interceptor",
    operation: `${call.argv[0] ?? "command"}.run`,
    agent: PERSON,
    effect: "allow",
    enforceEffect: "allow",
    mode: postureAt(ctx.paths.config, ctx.paths.stop, call.startedAtMs).mode,
    governed: false,
    reason: 'a person\'s own command at their own terminal: no rule here names agents = ["person"], so it ran as typed',
    cwd: call.cwd,
    exitCode: call.exitCode,
    durationMs: call.durationMs,
    detail: { source: "person" },
  };
}

/** Records the person's command: through the daemon when one answers, else straight into the ledger. */
export async function recordPersonCall(ctx: Pick<Context, "paths" | "io">, call: PersonCall): Promise<void> {
  const event = personEvent(ctx, call);
  const daemon = daemonClient(ctx.paths.sock);
  try {
    if (daemon.reachable) {
      const reply = await daemon.call(
        { method: "record", event, personArgv: call.argv },
        { timeoutMs: CALL_TIMEOUT_MS },
      );
      if (reply?.eventId) return;
    }
  } finally {
    daemon.close();
  }
  const [{ createRecorder }, { personRow }] = await Promise.all([
    import("../ledger/recorder.ts"),
    import("./person-row.ts"),
  ]);
  using recorder = createRecorder(ctx.paths, (t) => ctx.io.err(t));
  recorder.record(personRow(event, call.argv, ctx.paths.home));
}
