// Friction: the share of an agent's local loop (fixtures/friction/local-loop.jsonl, or FRICTION_CORPUS) that enforce
// stops under the baseline, through the compiled binary's real Claude Code PreToolUse hook, one process per call in
// a realistic repository; beside it, the peer corpora agreement of the same baseline (what it still catches).
// FRICTION_BINARY measures another build (a release, main) against the same corpus.
import { build, hostTarget } from "../build.ts";
import { agreesWith, baselineVerdicts, corporaDir, corpusCases } from "../test/support/corpus.ts";
import { binaryHook, describeCase, frictionBench, frictionCases, measureFriction } from "../test/support/friction.ts";
import { fakeHome } from "../test/support/home.ts";

const memnox = process.env.FRICTION_BINARY || (await build(hostTarget(), true));
const cases = frictionCases();
const kinds = new Map<string, { total: number; stopped: number }>();
for (const c of cases) kinds.set(c.kind, { total: (kinds.get(c.kind)?.total ?? 0) + 1, stopped: 0 });

{
  using bench = frictionBench(memnox);
  const r = await measureFriction(bench, cases, binaryHook(memnox));
  for (const s of r.stopped) {
    const k = kinds.get(s.c.kind);
    if (k) k.stopped += 1;
  }
  console.log(
    `friction: ${r.stopped.length}/${r.total} of the local loop stopped in enforce (${(100 * r.share).toFixed(1)}%; goal 2%)`,
  );
  for (const [kind, k] of [...kinds].sort()) console.log(`  ${kind.padEnd(9)} ${k.stopped}/${k.total}`);
  for (const s of r.stopped) console.log(`  ${s.v.decision.padEnd(5)} ${describeCase(s.c)}`);
}

using home = fakeHome();
const agrees = agreesWith(baselineVerdicts(home));
const peers = corpusCases(corporaDir()).filter((c) => !c.contested);
for (const corpus of ["rampart", "dcg", "claude-code-safety-net"]) {
  const mine = peers.filter((c) => c.corpus === corpus);
  const agreed = mine.filter(agrees).length;
  console.log(`peer ${corpus}: ${agreed}/${mine.length} agree (${((100 * agreed) / mine.length).toFixed(1)}%)`);
}
