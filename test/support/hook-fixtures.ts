// The hook fixtures under fixtures/hooks/<agent>/<event>/<scenario>.json, for the in-process and binary tests.
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import type { FailurePosture } from "../../src/gate/posture.ts";
import type { Briefing, GateAnswer } from "../../src/gate/types.ts";

const ROOT = join(import.meta.dir, "..", "..", "fixtures", "hooks");

/** One scenario: the payload, the scripted gate, and the bytes and exit code the agent must get. */
export interface HookFixture {
  readonly scenario: string;
  readonly source: string;
  readonly args?: readonly string[];
  readonly payload?: unknown;
  readonly stdin?: string;
  readonly gate: readonly Partial<GateAnswer>[];
  readonly briefing?: Briefing;
  readonly posture?: FailurePosture;
  readonly notice?: { readonly session: string; readonly calls: Record<string, unknown> };
  readonly expect: {
    readonly exitCode: number;
    readonly stdout: string | Record<string, unknown>;
    readonly stderr?: string;
    readonly requests: readonly Record<string, unknown>[];
    readonly calls?: readonly Record<string, unknown>[];
    readonly notice?: Record<string, { eventIds: string[]; asked?: boolean }>;
  };
}

export interface FixtureFile {
  readonly agent: string;
  readonly event: string;
  readonly file: string;
  readonly fx: HookFixture;
}

export function loadFixtures(): FixtureFile[] {
  const out: FixtureFile[] = [];
  for (const agent of readdirSync(ROOT).sort()) {
    for (const event of readdirSync(join(ROOT, agent)).sort()) {
      const dir = join(ROOT, agent, event);
      if (event === "schema" || !statSync(dir).isDirectory()) continue;
      for (const name of readdirSync(dir).sort()) {
        if (!name.endsWith(".json")) continue;
        const file = join(dir, name);
        out.push({ agent, event, file, fx: JSON.parse(readFileSync(file, "utf8")) as HookFixture });
      }
    }
  }
  return out;
}

/** What the bytes on stdout must be: exactly the string, or exactly one line of that JSON. */
export function expectedStdout(stdout: string | Record<string, unknown>): string {
  return typeof stdout === "string" ? stdout : `${JSON.stringify(stdout)}\n`;
}
