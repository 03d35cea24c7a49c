// `memnox allow "<action glob>" [--env e] [--for 30m] --reason "…"`: a grant for a scope and a while. It is a state
// fact with an expiry (overlays.json) that lets an ask a rule made proceed for that scope; a deny stays a deny. It
// loosens governance, so it is one of the commands refused from an agent's seat (`memnox.allow` in the resolver's
// table of loosening commands).
import { formatDuration, parseDuration } from "../../../core/duration.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { grantScope } from "../../../gate/grants.ts";
import type { Context } from "../../../ports/context.ts";
import { personName } from "../../../state/identity.ts";
import { addFact, liftFacts, type OverlayFact, overlaysInForce, readOverlays } from "../../../state/overlays.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { recordState } from "./_state-record.ts";

const DEFAULT_FOR = "30m";
const ACTION_GLOB = /^[a-z0-9*][a-z0-9_.*:-]*$/i;

/** Grants in force, newest last. */
function grantsInForce(ctx: Context, now: number): OverlayFact[] {
  return overlaysInForce(readOverlays(ctx.paths.overlays), now).filter((f) => f.kind === "grant");
}

function checkGlob(glob: string): string {
  if (!ACTION_GLOB.test(glob))
    throw new MemnoxError(
      "usage",
      `\`${glob}\` is not an action pattern`,
      'name actions as rules do: "railway.*", "gh.pr-merge", "mcp.github.*"',
    );
  if (/^[*.:]*$/.test(glob))
    throw new MemnoxError(
      "usage",
      `\`${glob}\` names every action`,
      'a grant is for a scope: name one ("railway.*"); "memnox stop --for" is the switch for everything',
    );
  return glob;
}

function grantLine(f: OverlayFact, now: number): string {
  const left = formatDuration(Date.parse(f.expiresAt) - now);
  return `${grantScope(f)}  ${left} left  ${f.by ?? ""}  ${f.reason ?? ""}`.trimEnd();
}

export const allow: CommandFactory = (ctx) =>
  command({
    meta: {
      name: "allow",
      description: "let what a rule asks about proceed, for a scope and a while; never what a rule refuses",
    },
    args: {
      actions: { type: "positional", required: false, description: 'the action pattern, e.g. "railway.*"' },
      env: { type: "string", description: "only in this declared environment (MEMNOX_ENV)" },
      for: { type: "string", description: `how long: 30m, 2h (default ${DEFAULT_FOR}); every grant expires` },
      reason: { type: "string", description: "why, in the words your team will read (required)" },
      lift: { type: "boolean", description: "end the grant on <actions> now (with --env, that one)" },
      list: { type: "boolean", description: "grants in force" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const now = ctx.clock.now();
      const file = ctx.paths.overlays;
      if (args.list || (!args.actions && !args.lift)) {
        const live = grantsInForce(ctx, now);
        emit(ctx, args.json, { grants: live }, () =>
          live.length === 0 ? ["nothing is granted"] : live.map((f) => grantLine(f, now)),
        );
        return 0;
      }
      if (!args.actions)
        throw new MemnoxError("usage", "--lift needs the action pattern", 'memnox allow "railway.*" --lift');
      const glob = checkGlob(args.actions);
      const scope = grantScope({ actions: [glob], subject: glob, ...(args.env ? { environment: args.env } : {}) });
      const by = personName(ctx.env);
      if (args.lift) {
        const lifted = liftFacts(file, "grant", scope, by, now);
        if (lifted.length) recordState(ctx, "memnox.allow-lift", `${by} lifted the grant on ${scope}`);
        emit(ctx, args.json, { lifted }, () =>
          lifted.length ? [`lifted the grant on ${scope}: it asks again`] : [`nothing was granted on ${scope}`],
        );
        return lifted.length ? 0 : 1;
      }
      if (!args.reason?.trim())
        throw new MemnoxError(
          "usage",
          "a grant needs --reason",
          'say why, for the record: --reason "reproducing the retry bug"',
        );
      const forMs = parseDuration(args.for ?? DEFAULT_FOR);
      const fact = addFact(file, {
        kind: "grant",
        subject: scope,
        actions: [glob],
        ...(args.env ? { environment: args.env } : {}),
        reason: args.reason.trim(),
        by,
        nowMs: now,
        forMs,
      });
      recordState(ctx, "memnox.allow", `${by} allowed ${scope} until ${fact.expiresAt} (${fact.reason})`);
      emit(ctx, args.json, { grant: fact }, () => [
        `allowed ${scope} until ${fact.expiresAt} (${formatDuration(forMs)}): what a rule asks about there proceeds, and what a rule refuses is still refused`,
        args.env
          ? `only for calls that declare MEMNOX_ENV=${args.env}`
          : "for calls that declare no environment; --env <name> grants one that does",
        `"memnox allow ${glob}${args.env ? ` --env ${args.env}` : ""} --lift" ends it early`,
      ]);
      return 0;
    },
  });
