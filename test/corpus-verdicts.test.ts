// The peers' corpora through the whole gate (resolver + the baseline protect --yes writes, in enforce): a line a peer
// stops must not be allowed, a line a peer allows must be. Every difference is either fixed or listed with a reason.
import { afterAll, describe, expect, test } from "bun:test";
import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { agreesWith, baselineVerdicts, type Case, corporaDir, corpusCases } from "./support/corpus.ts";
import { fakeHome } from "./support/index.ts";

const ROOT = resolve(import.meta.dir, "..");

/** Measured agreement per corpus; raise a floor when agreement rises, never lower one. */
const FLOORS: Record<string, number> = { rampart: 79.6, dcg: 90.6, "claude-code-safety-net": 87.7 };

interface Difference {
  readonly corpus: string;
  readonly command: string;
  readonly reason: string;
}

const home = fakeHome();
afterAll(() => home[Symbol.dispose]());

const differences = JSON.parse(
  readFileSync(join(ROOT, "fixtures", "corpus", "verdict-differences.json"), "utf8"),
) as Difference[];
const listed = (c: Case) => differences.find((d) => d.corpus === c.corpus && d.command === c.command);

describe("peer corpora, verdicts under the baseline in enforce", () => {
  const verdict = baselineVerdicts(home);
  const agrees = agreesWith(verdict);
  const cases = corpusCases(corporaDir()).filter((c) => !c.contested);
  const unexplained: { corpus: string; want: string; got: string; command: string }[] = [];

  for (const corpus of Object.keys(FLOORS)) {
    test(`${corpus}: agreement at or above its floor, every difference listed`, () => {
      const mine = cases.filter((c) => c.corpus === corpus);
      const missed = mine.filter((c) => !agrees(c));
      const pct = Math.round(((mine.length - missed.length) / mine.length) * 1000) / 10;
      console.log(`${corpus}: ${mine.length - missed.length}/${mine.length} agree (${pct}%)`);
      for (const m of missed)
        if (!listed(m)) unexplained.push({ corpus, want: m.want, got: verdict(m), command: m.command });
      expect(pct).toBeGreaterThanOrEqual(FLOORS[corpus] ?? 100);
    });
  }

  test("no difference goes unexplained", () => {
    // CORPUS_DUMP=<file> writes them out, to be explained in fixtures/corpus/verdict-differences.json.
    const dump = process.env.CORPUS_DUMP;
    if (dump) writeFileSync(dump, JSON.stringify(unexplained, null, 2));
    expect(unexplained.map((u) => `${u.corpus} ${u.want} ${u.got}: ${u.command}`)).toEqual([]);
  });

  test("every listed difference is still a difference, in the corpus, with a reason", () => {
    const stale = differences.filter((x) => {
      const c = cases.find((k) => k.corpus === x.corpus && k.command === x.command);
      return !c || agrees(c);
    });
    expect(stale.map((x) => `${x.corpus}: ${x.command}`)).toEqual([]);
    for (const x of differences) expect(x.reason.length).toBeGreaterThan(20);
  });
});
