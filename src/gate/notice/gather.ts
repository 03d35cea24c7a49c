// What the notice layer hands the findings: the call's novelty keys checked against the agent's history, what the
// session took lately, the credential shapes its payload carries. Read through the ledger's notice index (one seek per
// key, one range per session) only when the call could produce a finding; the result is plain facts, recorded on
// the row, so the findings stay pure and a replay reads the same facts back.
import type { Action } from "../../core/action.ts";
import type { Surface } from "../../core/event.ts";
import type { StateFact } from "../../core/request.ts";
import type { NoticeHistory, NoticeRead } from "../../ledger/notices.ts";
import type { Boundary } from "../boundary.ts";
import { CARRIES, NOVEL, TAKEN } from "./findings.ts";
import {
  CHAIN_MINUTES,
  HISTORY_DAYS,
  NOTICED_SURFACES,
  noveltiesOf,
  sendsOutward,
  takenWords,
  takesCredential,
} from "./table.ts";

const DAY_MS = 86_400_000;

export interface NoticeSettings {
  /** `noticeUnusual`: off, nothing is read and nothing asks; what a call does is still remembered. */
  readonly on: boolean;
  /** `noticeWarmupDays`: days from when the history began in which a first is only recorded. */
  readonly warmupDays: number;
}

export interface NoticeAsk {
  readonly surface: Surface;
  readonly agent: string | undefined;
  readonly session: string | undefined;
  readonly actions: readonly Action[];
  readonly boundary: Boundary | undefined;
  readonly nowMs: number;
  /** Per action: a rule in force asks about or refuses it (what it reads is guarded). */
  readonly guarded: readonly boolean[];
  /** The state facts in force (probation among them). */
  readonly facts: readonly StateFact[];
  /** Credential kinds the call's payload carries by shape. */
  readonly carries: readonly string[];
}

export interface Noticed {
  /** Facts for this call only, recorded on its row beside the state facts. */
  readonly facts: readonly StateFact[];
  /** Every novelty key the call does, so the next call finds it done. */
  readonly seen: readonly string[];
  /** What this call takes, when it reads something a rule guards. */
  readonly taken?: string;
  /** Firsts noticed while the history is warming up: recorded, never asked. */
  readonly noted: readonly string[];
}

const NOTHING: Noticed = { facts: [], seen: [], noted: [] };

/** What the history is asked for this call, or undefined when nothing it could find would change the verdict. */
export function noticeQuery(
  ask: Pick<NoticeAsk, "surface" | "agent" | "session" | "actions" | "boundary" | "nowMs">,
  settings: NoticeSettings,
): NoticeRead | undefined {
  if (!settings.on || !NOTICED_SURFACES.has(ask.surface)) return undefined;
  const keys = [...new Set(ask.actions.flatMap((a) => noveltiesOf(a, ask.boundary)).map((n) => n.key))];
  const sends = ask.session !== undefined && ask.actions.some((a) => sendsOutward(a) !== undefined);
  const asksNovel = ask.agent !== undefined && keys.length > 0;
  if (!asksNovel && !sends) return undefined;
  return {
    agent: ask.agent,
    session: sends ? ask.session : undefined,
    keys: asksNovel ? keys : [],
    doneSince: new Date(ask.nowMs - HISTORY_DAYS * DAY_MS).toISOString(),
    takenSince: new Date(ask.nowMs - CHAIN_MINUTES * 60_000).toISOString(),
  };
}

/** The notice facts of one call, from the history `noticeQuery`'s question reads (absent: none is read). */
export function gatherNotice(
  ask: NoticeAsk,
  settings: NoticeSettings,
  history: ((q: NoticeRead) => NoticeHistory) | undefined,
): Noticed {
  if (!NOTICED_SURFACES.has(ask.surface)) return NOTHING;
  const novelties = [
    ...new Map(ask.actions.flatMap((a) => noveltiesOf(a, ask.boundary)).map((n) => [n.key, n])).values(),
  ];
  const seen = novelties.map((n) => n.key);
  const takes = ask.session
    ? ask.actions.findIndex((a, i) => takesGuarded(a, ask.guarded[i]) || takesCredential(a))
    : -1;
  const took = takes >= 0 ? ask.actions[takes] : undefined;
  const base = { seen, ...(took ? { taken: takenWords(took) } : {}) };
  const sends = ask.session !== undefined && ask.actions.some((a) => sendsOutward(a) !== undefined);
  const asksNovel = ask.agent !== undefined && novelties.length > 0;
  const q = history ? noticeQuery(ask, settings) : undefined;
  if (!q || !history) return { ...base, facts: [], noted: [] };
  const at = ask.nowMs;
  const h = history(q);
  const done = new Set(h.done);
  const fresh = asksNovel ? novelties.filter((n) => !done.has(n.key)) : [];
  const began = h.since ? Date.parse(h.since) : at;
  // A new agent or server on probation is what novelty is for: the machine's warm-up does not excuse it.
  const warming = settings.warmupDays > 0 && at < began + settings.warmupDays * DAY_MS && !onProbation(ask);
  const soon = new Date(at + 60_000).toISOString();
  const facts: StateFact[] = warming
    ? []
    : fresh.map((n) => ({ kind: NOVEL, subject: n.key, reason: n.words, expiresAt: soon }));
  const last = sends ? h.taken[0] : undefined;
  if (last && ask.session) {
    const until = new Date(Date.parse(last.at) + CHAIN_MINUTES * 60_000).toISOString();
    facts.push({ kind: TAKEN, subject: ask.session, reason: last.what, setAt: last.at, expiresAt: until });
    if (ask.carries.length > 0) facts.push({ kind: CARRIES, subject: ask.carries.join(", "), expiresAt: soon });
  }
  return { ...base, facts, noted: warming ? fresh.map((n) => n.words) : [] };
}

function onProbation(ask: NoticeAsk): boolean {
  const servers = new Set(
    ask.actions.flatMap((a) => (a.name.startsWith("mcp.") ? [`server:${a.name.split(".")[1]}`] : [])),
  );
  return ask.facts.some(
    (f) => f.kind === "probation" && (f.subject === `agent:${ask.agent}` || servers.has(f.subject)),
  );
}

/** A read a rule guards takes what it reads; the command line around it, and a request (which sends), take nothing. */
function takesGuarded(a: Action, guarded: boolean | undefined): boolean {
  return guarded === true && a.class === "read" && a.name !== "shell.execute" && !a.name.startsWith("http.");
}
