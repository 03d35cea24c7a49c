// `memnox next --hand-over`: an allow rule for each ready action, written into the file of the rule that asks about
// it, relaxing exactly that rule (never a deny). Each is checked by the engine against the planned text before
// anything is written, shown as a diff, written only after a yes, backed up, read back, and asked about again.
import { sha256Hex } from "../../../io/hash.ts";
import type { NextItem } from "../../../ledger/read/next.ts";
import type { LedgerRow } from "../../../ledger/row.ts";
import type { RuleSpec } from "../../../policy/baseline.ts";
import { ruleSetFromSources, sha256 } from "../../../policy/load/index.ts";
import { type MergePlan, mergeRules, planMerge } from "../../../policy/write.ts";
import type { Context } from "../../../ports/context.ts";
import { personName } from "../../../state/identity.ts";
import { copyAside, today } from "../../../wire/protect/baseline.ts";
import { type Asked, askEngine, type DryDeps, dryDeps } from "./_engine.ts";

interface HandedOver {
  readonly action: string;
  readonly targets: readonly string[];
  readonly rule: string;
  readonly file: string;
  readonly relaxes: string;
}

interface Skipped {
  readonly action: string;
  readonly targets: readonly string[];
  readonly why: string;
}

export interface HandOverPlan {
  readonly rules: readonly HandedOver[];
  readonly skipped: readonly Skipped[];
  /** Per file: the text before and after, and the diff a person reads. */
  readonly files: readonly {
    readonly path: string;
    readonly diff: readonly string[];
    readonly plan: MergePlan;
    readonly specs: readonly RuleSpec[];
  }[];
}

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

function asked(row: LedgerRow): Asked {
  const r = row.request;
  return {
    action: row.operation,
    targets: r?.targets ?? [],
    cwd: r?.cwd ?? row.cwd ?? "/",
    class: r?.class ?? "unknown",
    ...(row.agent ? { agent: row.agent } : {}),
    ...(r?.environment ? { environment: r.environment } : {}),
  };
}

function ruleFor(item: NextItem, relaxes: string, by: string, date: string): RuleSpec {
  const suffix = item.targets.length ? `-${sha256Hex(item.targets.join("\u0000")).slice(0, 8)}` : "";
  const words = `approved ${item.approvals} times on ${item.days} days and never refused`;
  return {
    name: `handed-over-${slug(item.action)}${suffix}`,
    description: `handed over by ${by} with memnox next --hand-over on ${date}: ${words} since ${item.firstAt.slice(0, 10)}`,
    match: { actions: [item.action], ...(item.targets.length ? { targets: item.targets } : {}) },
    decision: { effect: "allow", reason: `${by} ${words}, so it no longer asks`, relaxes: [relaxes] },
  };
}

/** Whether, with `planned` texts in place of the files', the engine lets the asked call through. */
function proceedsWith(ctx: Context, deps: DryDeps, call: Asked, planned: ReadonlyMap<string, string>): boolean {
  const now = deps.rules(call.cwd);
  const sources = now.sources.map((s) => {
    const text = planned.get(s.path);
    return text === undefined ? s : { ...s, text, hash: sha256(text) };
  });
  const set = ruleSetFromSources(sources, ctx.paths.home);
  return askEngine({ ...deps, rules: () => set }, call).combined.effect === "allow";
}

function diffOf(plan: MergePlan): string[] {
  const before = (plan.before ?? "").split("\n");
  const after = plan.after.split("\n");
  let same = 0;
  while (same < before.length && same < after.length && before[same] === after[same]) same += 1;
  return [
    `--- ${plan.result.path}`,
    `+++ ${plan.result.path}`,
    ...before.slice(same).map((l) => `- ${l}`),
    ...after.slice(same).map((l) => `+ ${l}`),
  ];
}

/** What the hand-over would write, with each rule proven against the planned text first. */
export function planHandOver(
  ctx: Context,
  ready: readonly NextItem[],
  rows: ReadonlyMap<string, LedgerRow>,
): HandOverPlan {
  const deps = dryDeps(ctx);
  const by = personName(ctx.env);
  const date = today(ctx);
  const skipped: Skipped[] = [];
  const chosen: { item: NextItem; call: Asked; spec: RuleSpec; file: string }[] = [];
  for (const item of ready) {
    const row = rows.get(item.lastAskId);
    const skip = (why: string) => skipped.push({ action: item.action, targets: item.targets, why });
    if (!row) {
      skip("its ask is no longer in the ledger");
      continue;
    }
    const call = asked(row);
    const a = askEngine(deps, call);
    const c = a.combined;
    if (c.effect !== "ask") {
      skip(c.effect === "allow" ? "it already proceeds without a question" : "the rules now refuse it");
      continue;
    }
    if (c.deciding.source !== "rule" || !c.rule) {
      skip(`it is asked by memnox's own check (${c.deciding.source}), which no rule relaxes`);
      continue;
    }
    const spec = ruleFor(item, c.rule.name, by, date);
    const file = c.rule.file;
    const alone = planMerge(file, [spec], { header: [] });
    if (!proceedsWith(ctx, deps, call, new Map([[file, alone.after]]))) {
      skip(`another rule would still ask (${c.rule.name} is not the only one in ${file})`);
      continue;
    }
    chosen.push({ item, call, spec, file });
  }
  const byFile = new Map<string, RuleSpec[]>();
  for (const c of chosen) byFile.set(c.file, [...(byFile.get(c.file) ?? []), c.spec]);
  const files = [...byFile.entries()].map(([path, specs]) => {
    const plan = planMerge(path, specs, { header: [] });
    return { path, plan, specs, diff: plan.before === plan.after ? [] : diffOf(plan) };
  });
  return {
    rules: chosen.map((c) => ({
      action: c.item.action,
      targets: c.item.targets,
      rule: c.spec.name,
      file: c.file,
      relaxes: c.spec.decision.relaxes?.[0] ?? "",
    })),
    skipped,
    files,
  };
}

/** Writes the plan (backed up, read back by the writer) and asks the engine again about each handed-over call. */
export function writeHandOver(
  ctx: Context,
  plan: HandOverPlan,
  ready: readonly NextItem[],
  rows: ReadonlyMap<string, LedgerRow>,
): { written: readonly string[]; proceeds: readonly string[]; stillAsks: readonly string[] } {
  const written: string[] = [];
  for (const f of plan.files) {
    if (f.diff.length === 0) continue;
    mergeRules(f.path, f.specs, {
      header: [],
      mode: f.path === ctx.paths.machinePolicies ? 0o600 : 0o644,
      backup: copyAside(ctx),
    });
    written.push(f.path);
  }
  // Read back from disk: a fresh load, the same question as the ask that was answered five times.
  const deps = dryDeps(ctx);
  const proceeds: string[] = [];
  const stillAsks: string[] = [];
  for (const r of plan.rules) {
    const item = ready.find((i) => i.action === r.action && i.targets.join() === r.targets.join());
    const row = item ? rows.get(item.lastAskId) : undefined;
    if (!row) continue;
    (askEngine(deps, asked(row)).combined.effect === "allow" ? proceeds : stillAsks).push(r.rule);
  }
  return { written, proceeds, stillAsks };
}
