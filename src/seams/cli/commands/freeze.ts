// `memnox freeze [subject] --for 2h --reason …`: a state fact, until it expires. With no subject the whole machine's
// outward and destructive actions stop; a subject stops those that name it, and every rule whose `state` names it.
import { formatDuration, parseDuration } from "../../../core/duration.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { MACHINE_FREEZE } from "../../../gate/findings.ts";
import { loadRuleSet } from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { personName } from "../../../state/identity.ts";
import { addFact, liftFacts, overlaysInForce, readOverlays } from "../../../state/overlays.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

/** Names of the rules in force here whose `state` names this fact (exactly or by `kind:*`). */
function rulesNaming(ctx: Context, fact: string): string[] {
  const kindAll = `${fact.split(":")[0]}:*`;
  const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  return set.checked
    .filter((c) => c.applies)
    .flatMap((c) => c.rules)
    .filter((r) => (r.match.state ?? []).some((s) => s === fact || s === kindAll || s === "*"))
    .map((r) => r.name);
}

export const freeze: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "freeze",
      description: "stop the actions rules tie to a state fact, for a while; every freeze expires",
    },
    args: {
      subject: {
        type: "positional",
        required: false,
        description:
          "what is frozen, e.g. payments (rules name it as freeze:<subject>); none freezes the whole machine's outward and destructive actions",
      },
      for: { type: "string", description: "how long: 30m, 2h, 1d (required)" },
      reason: { type: "string", description: "why, in the words your team will read" },
      lift: { type: "boolean", description: "end the freeze on <subject> (or the machine's) now" },
      list: { type: "boolean", description: "freezes in force" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const now = ctx.clock.now();
      const file = ctx.paths.overlays;
      // No subject: the whole machine, whose outward and destructive actions stop while it holds.
      const subject =
        args.subject ?? (args.for !== undefined || args.reason !== undefined || args.lift ? MACHINE_FREEZE : undefined);
      if (args.list || !subject) {
        const live = overlaysInForce(readOverlays(file), now).filter((f) => f.kind === "freeze");
        emit(ctx, args.json, { freezes: live }, () =>
          live.length === 0
            ? ["nothing is frozen"]
            : live.map((f) =>
                `freeze:${f.subject}  ${formatDuration(Date.parse(f.expiresAt) - now)} left  ${f.by ?? ""}  ${f.reason ?? ""}`.trimEnd(),
              ),
        );
        return 0;
      }
      const by = personName(ctx.env);
      if (args.lift) {
        const lifted = liftFacts(file, "freeze", subject, by, now);
        if (lifted.length) recordState(ctx, "memnox.freeze-lift", `${by} lifted freeze:${subject}`);
        emit(ctx, args.json, { lifted }, () =>
          lifted.length ? [`lifted freeze:${subject}`] : [`nothing was frozen under ${subject}`],
        );
        return lifted.length ? 0 : 1;
      }
      if (!args.for) throw new MemnoxError("usage", "a freeze needs --for", "every freeze carries an expiry: --for 2h");
      const fact = addFact(file, {
        kind: "freeze",
        subject,
        nowMs: now,
        forMs: parseDuration(args.for),
        by,
        ...(args.reason ? { reason: args.reason } : {}),
      });
      const what = subject === MACHINE_FREEZE ? "this machine" : subject;
      recordState(
        ctx,
        "memnox.freeze",
        `${by} froze ${what} until ${fact.expiresAt}${args.reason ? ` (${args.reason})` : ""}`,
      );
      const naming = rulesNaming(ctx, `freeze:${subject}`);
      emit(ctx, args.json, { freeze: fact, rulesNamingIt: naming }, () => [
        `froze ${what} until ${fact.expiresAt}`,
        subject === MACHINE_FREEZE
          ? "every outward and destructive action (pushes, deploys, sends, deletes) is refused until then; memnox freeze --lift ends it early"
          : `outward and destructive actions that name ${subject} are refused until then${naming.length > 0 ? `, and these rules bite: ${naming.join(", ")}` : `; rules can tie more to it with state = ["freeze:${subject}"]`}`,
      ]);
      return 0;
    },
  });
