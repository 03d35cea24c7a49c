// Tables of lines and the verdict the gate must give each, as describe blocks: a class of indirection stopped by the
// rule that names it, and the local loop beside it proceeding.
import { describe, expect, test } from "bun:test";
import type { assess } from "../../src/gate/assess.ts";

type Judged = ReturnType<typeof assess>;

/** [line, effect, the rule (or memnox's own check) that decides] */
export type VerdictCase = readonly [string, "deny" | "ask", string?];

export function describeClasses(
  classes: Record<string, readonly VerdictCase[]>,
  judge: (line: string) => Judged,
): void {
  for (const [cls, cases] of Object.entries(classes)) {
    describe(cls, () => {
      for (const [line, effect, rule] of cases) {
        test(line, () => {
          const a = judge(line);
          expect({ line, effect: a.combined.effect }).toEqual({ line, effect });
          if (rule) expect(a.combined.deciding.verdict?.rule?.name).toBe(rule);
        });
      }
    });
  }
}

export function describeLocalLoop(lines: readonly string[], judge: (line: string) => Judged): void {
  for (const line of lines) {
    test(line, () => {
      const a = judge(line);
      expect({ line, effect: a.combined.effect, because: a.combined.reason }).toEqual({
        line,
        effect: "allow",
        because: expect.any(String),
      });
    });
  }
}
