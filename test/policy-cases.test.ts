// Every case in fixtures/policies/: real rule files through the real loader, each request against its expected verdict.
import { describe, expect, test } from "bun:test";
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Action } from "../src/core/action.ts";
import type { PolicyRequest, StateFact } from "../src/core/request.ts";
import { compile, evaluate } from "../src/policy/engine/index.ts";
import { checkText } from "../src/policy/load/index.ts";

const ROOT = join(import.meta.dir, "..", "fixtures", "policies");

interface Case {
  readonly name: string;
  readonly at?: string;
  readonly utcOffsetMinutes?: number;
  readonly request: Omit<PolicyRequest, "action" | "scope"> & {
    readonly action: Partial<Action> & { readonly name: string };
    readonly scope?: PolicyRequest["scope"];
  };
  readonly facts?: readonly StateFact[];
  readonly expect: Record<string, unknown>;
}

interface CaseFile {
  readonly home: string;
  readonly at: string;
  readonly cases: readonly Case[];
}

const dirs = readdirSync(ROOT, { withFileTypes: true }).filter((d) => d.isDirectory());

test("there are policy cases to run", () => {
  expect(dirs.length).toBeGreaterThanOrEqual(7);
});

for (const dir of dirs) {
  const base = join(ROOT, dir.name);
  const spec = JSON.parse(readFileSync(join(base, "cases.json"), "utf8")) as CaseFile;
  const files = readdirSync(base).filter((f) => /\.(toml|ya?ml)$/.test(f));
  const checked = files.map((f) => checkText(join(base, f), "repository", readFileSync(join(base, f), "utf8")));
  const set = compile(
    checked.flatMap((c) => c.rules),
    { home: spec.home },
  );

  describe(dir.name, () => {
    test("its rule files load without a problem", () => {
      expect(files.length).toBeGreaterThan(0);
      expect(checked.flatMap((c) => c.problems)).toEqual([]);
    });

    for (const c of spec.cases) {
      test(c.name, () => {
        const action: Action = { class: "unknown", targets: [], arguments: {}, ...c.request.action };
        const request: PolicyRequest = { scope: "undeclared", ...c.request, action };
        const at = { epochMs: Date.parse(c.at ?? spec.at), utcOffsetMinutes: c.utcOffsetMinutes ?? 0 };
        const v = evaluate(set, request, c.facts ?? [], at);
        const { rule, ...rest } = c.expect;
        expect(v).toMatchObject(rest);
        if (rule !== undefined) expect(v.rule?.name).toBe(rule as string);
      });
    }
  });
}
