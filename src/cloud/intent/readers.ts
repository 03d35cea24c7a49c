// Who is reading, as need to know sees them: resolved live on every question from the member and agent rows, so a
// clearance changed or a principal gone bites on the next answer.

import type { Call } from "../http.ts";
import { HttpError } from "../http-error.ts";
import type { Principal } from "../roles.ts";
import type { Db } from "../store/db.ts";
import * as store from "../store/people.ts";
import { agentReader, defaultCeiling, narrower, type Reader } from "./clearance.ts";

async function memberReader(db: Db, orgId: string, by: { id?: string; email?: string }): Promise<Reader | "gone"> {
  const m = await store.memberClearance(db, orgId, by);
  if (m?.status !== "active") return "gone";
  return { ceiling: m.clearance ?? defaultCeiling(m.role), audiences: m.audiences, person: true };
}

/** The caller's reader: a person by their member row; an operator token by its role, never a person; a machine by nothing it may not carry. */
export async function readerOf(db: Db, who: Principal): Promise<Reader> {
  if (who.kind === "person") {
    const r = await memberReader(db, who.orgId, { id: who.memberId });
    return r === "gone" ? { ceiling: "none", audiences: [], person: false } : r;
  }
  if (who.kind === "operator") return { ceiling: defaultCeiling(who.role), audiences: [], person: false };
  return { ceiling: "internal", audiences: [], person: false };
}

/** An agent's effective clearance: its own grant narrowed by its principal's, on both axes. */
async function agentReaderOf(db: Db, who: Principal, name: string): Promise<Reader | undefined> {
  const a = await store.agentClearance(db, who.workspaceId, name);
  if (!a) return undefined;
  const principal = a.principal ? await memberReader(db, who.orgId, { email: a.principal }) : undefined;
  return agentReader({ ceiling: a.clearance ?? "internal", audiences: a.audiences }, principal);
}

/** Whose reader answers: the caller, or (?agent=name) that agent's effective clearance, never past the asker's own. */
export async function answerReader(c: Call): Promise<Reader> {
  const who = c.who;
  if (!who) throw new HttpError(401, "unauthenticated", "this needs a token");
  const agent = c.url.searchParams.get("agent");
  if (!agent) return readerOf(c.db, who);
  const r = await agentReaderOf(c.db, who, agent);
  if (!r) throw new HttpError(404, "not_found", "no such agent");
  // Asking on an agent's behalf never reads past the asker either.
  return narrower(r, await readerOf(c.db, who));
}
