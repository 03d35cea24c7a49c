// The peers' corpora through the resolver: stopped lines must resolve to something stoppable, allowed ones to reads.
import { describe, expect, test } from "bun:test";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { resolveCommand } from "../src/resolve/index.ts";
import {
  type Case,
  CORPUS_CTX as CTX,
  corporaDir,
  corpusCases,
  readJsonl,
  stoppable,
  type Want,
} from "./support/corpus.ts";

const ROOT = resolve(import.meta.dir, "..");

interface Exception {
  readonly corpus: string;
  readonly command: string;
  readonly reason: string;
}

/** Agreement floors from the measured figures; raise them as the resolver improves, never lower them. */
// dcg went from 70.0 to 69.9 on purpose: `sudo` is privilege.escalate now (see resolution-exceptions.json).
const FLOORS: Record<string, number> = { rampart: 84.7, dcg: 72.3, "claude-code-safety-net": 76.6 };

function agrees(c: Case): boolean {
  const { actions } = resolveCommand(c.command, CTX);
  return c.want === "stop" ? stoppable(actions) : actions.every((a) => a.class === "read");
}

const dir = corporaDir();

interface Pair {
  readonly input: string;
  readonly normalized: string;
}

/** Pairs `{input, normalized}`: treat the input at least as strictly as its normalised form. */
function pairs(): Pair[] {
  return (dir ? readJsonl(join(dir, "rampart-normalization.jsonl")) : []).filter(
    (p): p is Record<string, unknown> & Pair => typeof p.input === "string" && typeof p.normalized === "string",
  );
}

function pairHolds(p: Pair): boolean {
  const names = (line: string) => new Set(resolveCommand(line, CTX).actions.map((a) => a.name));
  const from = names(p.input);
  return [...names(p.normalized)].every((n) => from.has(n));
}
const exceptionsFile = join(ROOT, "fixtures", "corpus", "resolution-exceptions.json");
const exceptions = JSON.parse(readFileSync(exceptionsFile, "utf8")) as Exception[];
const excepted = (c: Case) => exceptions.find((e) => e.corpus === c.corpus && e.command === c.command);

describe.skipIf(!dir)("peer corpora, resolution", () => {
  const all = dir ? corpusCases(dir) : [];
  const misses: Case[] = [];

  for (const corpus of ["rampart", "dcg", "claude-code-safety-net"]) {
    test(`${corpus}: agreement at or above its floor, every miss explained`, () => {
      const scored = all.filter((c) => c.corpus === corpus && !c.contested);
      const missed = scored.filter((c) => !agrees(c));
      const agreed = scored.length - missed.length;
      const explained = missed.filter(excepted);
      const pct = (n: number) => ((100 * n) / Math.max(1, scored.length)).toFixed(1);
      const side = (w: Want) => {
        const of = scored.filter((c) => c.want === w);
        return `${of.length - missed.filter((c) => c.want === w).length}/${of.length}`;
      };
      console.log(
        `corpus ${corpus}: ${agreed}/${scored.length} agree (${pct(agreed)}%; must-stop ${side("stop")}, ` +
          `must-allow ${side("allow")}), ${explained.length} deliberate differences, ` +
          `${missed.length - explained.length} unexplained`,
      );
      misses.push(...missed.filter((c) => !excepted(c)));
      if (process.env.CORPUS_VERBOSE)
        for (const m of missed.filter((c) => !excepted(c)))
          console.log(`  miss [${m.want}] ${JSON.stringify(m.command)}  (${m.label})`);
      expect((100 * agreed) / Math.max(1, scored.length)).toBeGreaterThanOrEqual(FLOORS[corpus] ?? 100);
      expect(missed.filter((c) => !excepted(c)).map((c) => c.command)).toEqual([]);
    });
  }

  test("every listed difference is still a difference, and still in the corpus", () => {
    const stale = exceptions.filter((e) => {
      if (e.corpus === "rampart-normalization") return pairs().every((p) => p.input !== e.command || pairHolds(p));
      const c = all.find((x) => x.corpus === e.corpus && x.command === e.command && !x.contested);
      return !c || agrees(c);
    });
    expect(stale.map((e) => `${e.corpus}: ${e.command}`)).toEqual([]);
    for (const e of exceptions) expect(e.reason.length, `${e.command} needs a reason`).toBeGreaterThan(20);
  });

  test("contested cases are reported, not scored", () => {
    const contested = all.filter((c) => c.contested);
    const agreed = contested.filter(agrees).length;
    console.log(`contested: ${agreed}/${contested.length} agree (not scored)`);
    expect(contested.length).toBeGreaterThan(0);
  });
});

describe.skipIf(!dir)("rampart normalisation pairs", () => {
  test("every action name resolved from `normalized` is also resolved from `input`", () => {
    const all = pairs();
    const failures = all.filter(
      (p) => !pairHolds(p) && !exceptions.some((e) => e.corpus === "rampart-normalization" && e.command === p.input),
    );
    const held = all.filter(pairHolds).length;
    console.log(`rampart normalisation: ${held}/${all.length} pairs hold, the rest listed as deliberate differences`);
    expect(failures.map((p) => `${p.input} -> ${p.normalized}`)).toEqual([]);
  });
});
