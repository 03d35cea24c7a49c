// why, replay and status: the ledger readers `memnox why`, `memnox replay` and `memnox report` use, scoped to this
// session and said compactly.

import { MODE_LINE } from "../../gate/briefing.ts";
import { withLedger } from "../../ledger/open.ts";
import { joinEntries } from "../../ledger/read/entries.ts";
import { buildReplay, pickSession, type Replay, renderReplay } from "../../ledger/read/replay.ts";
import { buildReport, type Report } from "../../ledger/read/report.ts";
import { findEntry, renderWhy } from "../../ledger/read/why.ts";
import { childrenOf, rowsIn } from "../../ledger/read/window.ts";
import type { Ledger } from "../../ledger/store.ts";
import { readConfig } from "../../state/config.ts";
import { pausedLines, pausedSessions } from "../../state/paused.ts";
import { probationInForce, readProbation } from "../../state/probation.ts";
import { stopInForce } from "../../state/stop.ts";
import { withAsides } from "../shared/replay-asides.ts";
import { refused, said, type ToolAnswer } from "./answer.ts";
import type { SessionDeps } from "./deps.ts";
import { noSessionLines, sessionWords, whichSession } from "./which.ts";

const NOTHING_YET = ["memnox has recorded nothing on this machine yet."];

export function why(deps: SessionDeps, args: { event?: string | undefined }): ToolAnswer {
  const { ctx } = deps;
  return withLedger(
    ctx,
    (ledger) => {
      const ref = whichSession(ctx.env, ledger);
      if (!args.event && !ref.id) return refused(noSessionLines(ref));
      const entry = findEntry(ledger, args.event, args.event ? undefined : ref.id);
      if (!entry) return said([`nothing in ${sessionWords(ref)} was refused or asked about: all of it proceeded.`]);
      return said(renderWhy(entry));
    },
    () => said(NOTHING_YET),
  );
}

export async function replay(deps: SessionDeps, args: { session?: string | undefined }): Promise<ToolAnswer> {
  const { ctx } = deps;
  const read = withLedger(
    ctx,
    (ledger): ToolAnswer | Replay => {
      const ref = whichSession(ctx.env, ledger);
      const session = args.session ? pickSession(ledger, args.session) : ref.id;
      if (!session) return refused(noSessionLines(ref));
      const r = buildReplay(ledger, session);
      if (r.steps.length === 0) return said([`nothing recorded for ${sessionWords(ref)} yet.`]);
      return r;
    },
    () => said(NOTHING_YET),
  );
  if (!("steps" in read)) return read;
  // The same holds, pauses and milestones `memnox replay` shows, read after the ledger is closed.
  return said(renderReplay(await withAsides(ctx, read)), { keep: "tail", pinned: 1 });
}

export function status(deps: SessionDeps): ToolAnswer {
  const { ctx } = deps;
  const now = ctx.clock.now();
  const paths = ctx.paths;
  const mode = readConfig(paths.config).mode;
  const stop = stopInForce(paths.stop, now);
  const lines = [
    stop
      ? `protection is stopped until ${stop.until} by ${stop.by}${stop.reason ? ` (${stop.reason})` : ""}: nothing is checked`
      : mode === "off"
        ? "mode off: memnox decides nothing in this session"
        : MODE_LINE[mode],
  ];
  const paused = pausedSessions(paths, now);
  const held = paused.reduce((n, p) => n + p.held.length, 0);
  lines.push(held === 0 ? "nothing is held for a person" : `${held} call(s) held for a person:`);
  for (const p of paused) {
    for (const l of pausedLines(p, now)) lines.push(`  ${p.session ?? "no session"}: ${l}`);
  }
  for (const e of probationInForce(readProbation(paths.probation), now)) {
    lines.push(`probation ${e.kind} ${e.name} until ${e.until}`);
  }
  const recorded = withLedger(
    ctx,
    (ledger) => [todayLine(ledger, startOfDay(now)), `this tool reads ${sessionWords(whichSession(ctx.env, ledger))}`],
    () => ["nothing recorded yet today"],
  );
  lines.push(...recorded);
  return said(lines);
}

function startOfDay(nowMs: number): string {
  const d = new Date(nowMs);
  d.setHours(0, 0, 0, 0);
  return d.toISOString();
}

function todayLine(ledger: Ledger, since: string): string {
  const rows = rowsIn(ledger, { since });
  const decisions = rows.filter((r) => r.kind === "decision");
  const r: Report = buildReport(
    joinEntries(
      rows,
      childrenOf(
        ledger,
        decisions.map((d) => d.id),
      ),
    ),
    { since },
  );
  if (r.actions === 0) return "today: no actions recorded";
  const count = (c: Record<string, number>) => ["allow", "ask", "deny"].map((k) => `${c[k] ?? 0} ${k}`).join(", ");
  const would =
    JSON.stringify(r.verdicts) === JSON.stringify(r.wouldHave) ? "" : `; enforce would have: ${count(r.wouldHave)}`;
  return `today: ${r.actions} action(s): ${count(r.verdicts)}${would}`;
}
