// `memnox freeze <subject> --for 2h --reason …`: a state fact every rule naming it bites on, until it expires.
import { formatDuration, parseDuration } from "../../../core/duration.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { loadRuleSet } from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { personName } from "../../../state/identity.ts";
import { addFact, liftFacts, overlaysInForce, readOverlays } from "../../../state/overlays.ts";
import { emit } from "../output.ts";
import { type CommandFactory, command } from "../registry.ts";
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
        description: "what is frozen, e.g. payments (rules name it as freeze:<subject>)",
      },
      for: { type: "string", description: "how long: 30m, 2h, 1d (required)" },
      reason: { type: "string", description: "why, in the words your team will read" },
      lift: { type: "boolean", description: "end the freeze on <subject> now" },
      list: { type: "boolean", description: "freezes in force" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const now = ctx.clock.now();
      const file = ctx.paths.overlays;
      if (!args.subject && (args.for !== undefined || args.reason !== undefined || args.lift)) {
        // Saying nothing is frozen and exiting 0 would read as a freeze that took.
        throw new MemnoxError(
          "usage",
          `a freeze needs a subject: what is frozen${args.lift ? " (the one to lift)" : ""}`,
          `e.g. memnox freeze payments ${args.lift ? "--lift" : `--for ${args.for || "2h"}`}; memnox freeze --list shows what is frozen`,
        );
      }
      if (args.list || !args.subject) {
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
        const lifted = liftFacts(file, "freeze", args.subject, by, now);
        if (lifted.length) recordState(ctx, "memnox.freeze-lift", `${by} lifted freeze:${args.subject}`);
        emit(ctx, args.json, { lifted }, () =>
          lifted.length ? [`lifted freeze:${args.subject}`] : [`nothing was frozen under ${args.subject}`],
        );
        return lifted.length ? 0 : 1;
      }
      if (!args.for) throw new MemnoxError("usage", "a freeze needs --for", "every freeze carries an expiry: --for 2h");
      const fact = addFact(file, {
        kind: "freeze",
        subject: args.subject,
        nowMs: now,
        forMs: parseDuration(args.for),
        by,
        ...(args.reason ? { reason: args.reason } : {}),
      });
      recordState(
        ctx,
        "memnox.freeze",
        `${by} froze ${args.subject} until ${fact.expiresAt}${args.reason ? ` (${args.reason})` : ""}`,
      );
      const naming = rulesNaming(ctx, `freeze:${args.subject}`);
      emit(ctx, args.json, { freeze: fact, rulesNamingIt: naming }, () => [
        `froze ${args.subject} until ${fact.expiresAt}`,
        naming.length > 0
          ? `rules that now bite: ${naming.join(", ")}`
          : `no rule in force here names state freeze:${args.subject}, so this freeze stops nothing yet; add state = ["freeze:${args.subject}"] to the rules it should hold`,
      ]);
      return 0;
    },
  });
