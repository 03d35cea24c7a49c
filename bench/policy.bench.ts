// Evaluations per second at 10, 100 and 1,000 rules, beside a same-run floor (JSON.stringify of the same request).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Action } from "../src/core/action.ts";
import type { PolicyRequest, StateFact } from "../src/core/request.ts";
import { compile, evaluate, type PolicyRule } from "../src/policy/engine/index.ts";
import { loadRuleSet } from "../src/policy/load/index.ts";
import { renderRuleFile } from "../src/policy/render.ts";

const AT = { epochMs: Date.parse("2026-11-30T20:00:00Z"), utcOffsetMinutes: 60 };
const CLIS = ["git", "gh", "aws", "kubectl", "terraform", "docker", "npm", "psql", "vercel", "fly"];
const VERBS = ["push", "push-force", "pr-merge", "delete", "apply", "destroy", "publish", "drop", "deploy", "status"];

/** A realistic mix: mostly literal actions, some wildcards, paths, branches, windows, state and arguments. */
function rules(n: number): PolicyRule[] {
  return Array.from({ length: n }, (_, i) => {
    const cli = CLIS[i % CLIS.length] ?? "git";
    const verb = VERBS[Math.floor(i / CLIS.length) % VERBS.length] ?? "status";
    const kind = i % 10;
    const match: PolicyRule["match"] =
      kind === 0
        ? { actions: [`${cli}.*`], branches: ["main", `release/${i}/*`] }
        : kind === 1
          ? { actions: ["filesystem.read"], targets: [`~/.secret-${i}/**`, `.env.${i}`] }
          : kind === 2
            ? {
                actions: ["shell.execute"],
                arguments: { command: [`*${cli} ${verb}*`] },
                workingDirectories: [`/srv/${i}*`],
              }
            : kind === 3
              ? { actions: [`${cli}.${verb}`], state: [`freeze:${cli}`] }
              : kind === 4
                ? { actions: [`${cli}.${verb}`], windows: [{ days: [1, 2, 3, 4, 5], startHour: 17, endHour: 9 }] }
                : { actions: [`${cli}.${verb}-${i}`, `${cli}.${verb}`], environments: ["production", "staging"] };
    const effect = (["allow", "ask", "deny"] as const)[i % 3] ?? "ask";
    return {
      name: `rule-${i}`,
      match,
      decision: { effect, reason: `reason ${i}` },
      file: "/repo/memnox.policies.toml",
      line: i + 1,
    };
  });
}

const act = (name: string, targets: string[] = [], args: Record<string, string[]> = {}): Action => ({
  name,
  class: "unknown",
  targets,
  arguments: args,
});

const REQUESTS: PolicyRequest[] = [
  { action: { ...act("git.push-force", ["origin", "+main"]), branch: "main" }, cwd: "/repo", scope: "undeclared" },
  { action: act("filesystem.read", ["/home/sam/.secret-11/key"]), cwd: "/repo", scope: "undeclared" },
  {
    action: act("shell.execute", ["aws delete x"], { command: ["aws delete x"] }),
    cwd: "/srv/22/a",
    scope: "undeclared",
  },
  { action: act("kubectl.apply"), cwd: "/repo", scope: "in_scope", environment: "production" },
  { action: act("git.status"), cwd: "/repo", scope: "undeclared" },
  { action: act("mcp.github.create_issue"), cwd: "/repo", scope: "undeclared" },
];
const FACTS: StateFact[] = [{ kind: "freeze", subject: "aws", expiresAt: "2026-11-30T23:00:00Z" }];

function timeIt(iterations: number, fn: (i: number) => unknown): number {
  let sink = 0;
  for (let i = 0; i < Math.min(iterations, 2_000); i++) sink += fn(i) ? 1 : 0;
  const t0 = performance.now();
  for (let i = 0; i < iterations; i++) sink += fn(i) ? 1 : 0;
  const ns = ((performance.now() - t0) * 1e6) / iterations;
  if (sink < 0) console.log(sink);
  return ns;
}

const ITER = 200_000;
const floor = timeIt(ITER, (i) => JSON.stringify(REQUESTS[i % REQUESTS.length]).length);
console.log(`floor (JSON.stringify of the request): ${(floor / 1000).toFixed(2)} µs/op`);
console.log("rules   compile      µs/eval   evals/s     x floor");
for (const n of [10, 100, 1000]) {
  const rs = rules(n);
  const t0 = performance.now();
  const set = compile(rs, { home: "/home/sam" });
  const compileMs = performance.now() - t0;
  const ns = timeIt(n >= 1000 ? ITER / 4 : ITER, (i) =>
    evaluate(set, REQUESTS[i % REQUESTS.length] as PolicyRequest, FACTS, AT),
  );
  const line = [
    String(n).padEnd(8),
    `${compileMs.toFixed(2)} ms`.padEnd(13),
    (ns / 1000).toFixed(2).padEnd(10),
    Math.round(1e9 / ns)
      .toLocaleString("en-US")
      .padEnd(12),
    (ns / floor).toFixed(1),
  ];
  console.log(line.join(""));
}

// What a hook pays once per call: find, read, parse, validate and compile a 100-rule file from disk.
const dir = mkdtempSync(join(tmpdir(), "memnox-bench-"));
try {
  writeFileSync(join(dir, ".git"), "gitdir: nowhere\n");
  writeFileSync(join(dir, "memnox.policies.toml"), renderRuleFile(["bench"], rules(100)));
  const paths = {
    home: "/home/sam",
    machinePolicies: join(dir, "none.toml"),
    policiesRegistry: join(dir, "none.json"),
  };
  const loadNs = timeIt(500, () => loadRuleSet({ cwd: dir, env: {}, paths }).compiled.rules.length);
  console.log(
    `load 100 rules from disk (find, parse, validate, compile): ${(loadNs / 1e6).toFixed(2)} ms, ${(loadNs / floor).toFixed(0)}x floor`,
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
