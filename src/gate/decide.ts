// decide(): gather the call's facts, judge them, commit the ruling. Every seam calls this and nothing else; a dry
// run is judged and never committed.
import { commit } from "./commit.ts";
import type { GateDeps } from "./deps.ts";
import { gather } from "./facts.ts";
import { judgeAssessed, type Ruling, unkept } from "./judge.ts";
import type { GateAnswer, GateRequest } from "./types.ts";

/** Judged again at most this often when the grant or code a ruling rests on is spent by another call meanwhile. */
const TRIES = 3;

export async function decide(req: GateRequest, deps: GateDeps): Promise<GateAnswer> {
  for (let i = 1; ; i++) {
    const { facts, assessed } = gather(req, deps);
    const ruling = judgeAssessed(req, facts, assessed);
    if (deps.dry) return ruling.answer;
    try {
      const answer = commit(ruling, deps);
      if (answer) return answer;
      // Another call spent the grant or code this ruling rests on: judged again on what is left, a few times at most.
      if (i < TRIES) continue;
      return kept(unkept(req, facts, "the grant it rested on was spent by another call meanwhile"), deps);
    } catch (e) {
      // A write that failed half way (a hold's file): the call is refused as one memnox could not decide.
      return kept(unkept(req, facts, e), deps);
    }
  }
}

/** A ruling that spends nothing, committed. */
function kept(r: Ruling, deps: GateDeps): GateAnswer {
  return commit(r, deps) ?? r.answer;
}
