// `memnox claims [session]`: what an agent said it did (its transcript, where the agent keeps one) against what the
// record says it did, claim by claim. Reported, never refereed: `contradicted` is the one that matters.
import { existsSync } from "node:fs";
import { resolve } from "node:path";
import { MemnoxError } from "../../../core/errors.ts";
import { maskSecrets } from "../../../core/secrets.ts";
import { withLedger } from "../../../ledger/open.ts";
import { checkClaims, claimsReport, renderClaims } from "../../../ledger/read/claims.ts";
import { latestAgentSessionRow } from "../../../ledger/read/rows.ts";
import { childrenOf, sessionRows } from "../../../ledger/read/window.ts";
import type { LedgerRow } from "../../../ledger/row.ts";
import type { Ledger } from "../../../ledger/store.ts";
import { agentTranscript } from "../../../scan/transcripts.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

/** The newest session an agent's rows name. */
function latestSession(l: Ledger): string | undefined {
  return latestAgentSessionRow(l)?.agentSessionId;
}

function agentOf(rows: readonly LedgerRow[]): string | undefined {
  const n = new Map<string, number>();
  for (const r of rows) if (r.agent) n.set(r.agent, (n.get(r.agent) ?? 0) + 1);
  return [...n.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

export const claims: CommandFactory = (ctx) =>
  command({
    meta: { name: "claims", description: "what an agent said it did, against what the record says it did" },
    args: {
      session: { type: "positional", required: false, description: "the session (default: the most recent)" },
      transcript: { type: "string", description: "read this transcript file instead of looking for the agent's own" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const found = withLedger(
        ctx,
        (l) => {
          const session = args.session ?? latestSession(l);
          if (!session) return undefined;
          const rows = sessionRows(l, session);
          const ids = rows.filter((r) => r.kind === "decision").map((r) => r.id);
          return { session, rows, children: childrenOf(l, ids) };
        },
        () => undefined,
      );
      if (!found)
        throw new MemnoxError(
          "not_found",
          "no session in the ledger to read claims for",
          "memnox timeline lists sessions",
        );
      if (found.rows.length === 0)
        throw new MemnoxError(
          "not_found",
          `no session \`${found.session}\` in the ledger`,
          "memnox timeline lists sessions",
        );
      // A transcript named on the command line that is not there is an error, never an empty report.
      if (args.transcript !== undefined && !existsSync(resolve(ctx.cwd, args.transcript)))
        throw new MemnoxError("not_found", `no transcript at \`${args.transcript}\``, "name a file the agent wrote");
      const agent = agentOf(found.rows);
      const t = agent
        ? agentTranscript({ home: ctx.paths.home, env: ctx.env, agent, session: found.session }, args.transcript)
        : undefined;
      const report = claimsReport({
        session: found.session,
        agent: agent ?? null,
        transcript: t?.path ?? null,
        claims: t ? checkClaims(t.said, found.rows, found.children, (text) => maskSecrets(text)) : [],
      });
      emit(ctx, args.json, report, () => renderClaims(report));
      return 0;
    },
  });
