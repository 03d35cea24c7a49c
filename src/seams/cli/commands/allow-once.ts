// `memnox allow-once <code>`: a refusal by a rule prints a code; typed here, at a person's own terminal, it lets that
// exact call (the same action on the same target, for the same agent) run once within the next minutes. It loosens
// governance, so it is refused from an agent's seat (`memnox.allow-once` in the resolver's table of loosening
// commands), and the gate refuses an agent's attempt wherever it is typed.
import { MemnoxError } from "../../../core/errors.ts";
import { approveAllowOnce, USE_TTL_MS } from "../../../state/allow-once.ts";
import { personName } from "../../../state/identity.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

export const allowOnce: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "allow-once",
      description: "let one refused call through once, by the code its refusal printed (from your own terminal)",
    },
    args: {
      code: { type: "positional", required: true, description: "the code the refusal printed, like K7QF-2MXD" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const by = personName(ctx.env);
      const r = approveAllowOnce(ctx.paths.allowOnce, args.code, by, ctx.clock.now());
      if (!r.ok)
        throw new MemnoxError("not_found", r.why, "run the command again to get a fresh code from its refusal");
      const what = `${r.record.action}${r.record.target ? ` ${r.record.target}` : ""}`;
      recordState(ctx, "memnox.allow-once", `${what} may run once, until ${r.until} (${by})`);
      emit(ctx, args.json, { allowed: what, until: r.until, by, reason: r.record.reason }, () => [
        `allowed once: ${what}`,
        `  it was refused because ${r.record.reason}`,
        `  run it again within ${USE_TTL_MS / 60_000} minutes; it goes through once, and the next time it is refused again`,
      ]);
      return 0;
    },
  });
