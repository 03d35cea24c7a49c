// What each `memnox protect` step does and says; the command (protect.ts) picks one by its flag.
import type { Action } from "../../../core/action.ts";
import { assess } from "../../../gate/assess.ts";
import type { Combined } from "../../../gate/combine.ts";
import { gateDeps } from "../../../gate/wiring.ts";
import { baselineRules, type RuleSpec } from "../../../policy/baseline.ts";
import type { Context } from "../../../ports/context.ts";
import { actionPattern, verbTable } from "../../../resolve/index.ts";
import type { VerbTable } from "../../../resolve/types.ts";
import { setSetting } from "../../../state/config.ts";
import { installGitHooks } from "../../../wire/git-hooks.ts";
import { installAgentHook, removeAgentHook } from "../../../wire/hooks/install.ts";
import { installInterceptors } from "../../../wire/interceptors.ts";
import { toggled, updateKept } from "../../../wire/kept.ts";
import {
  describeLeftovers,
  describeMerge,
  today,
  writeBaseline,
  writeRepositoryRules,
} from "../../../wire/protect/baseline.ts";
import { applyNative, revertNative } from "../../../wire/protect/native.ts";
import { cliRules, type Said, sayRule } from "../../../wire/protect/rules.ts";
import { applySteps, proposeSteps, revertSteps } from "../../../wire/protect/steps.ts";
import { recordState } from "./_state-record.ts";

/** A step's result: the JSON contract, the human lines, and the exit code. */
export interface Outcome {
  readonly value: unknown;
  readonly lines: readonly string[];
  readonly code?: number;
}

export function propose(ctx: Context): Outcome {
  const { steps, covered } = proposeSteps(ctx);
  const lines = steps.length
    ? [
        "PROPOSED",
        ...steps.flatMap((s, i) => [`  ${i + 1}. ${s.title}`, `     undo: ${s.undo}`]),
        "",
        "Nothing was changed. Run memnox protect --apply to write these.",
      ]
    : ["Nothing to propose: every credential file found here is already refused to agents."];
  if (covered.length) lines.push(`Already refused: ${covered.join(", ")}`);
  return { value: { proposed: steps, covered, changed: false }, lines };
}

export function apply(ctx: Context): Outcome {
  const { steps } = proposeSteps(ctx);
  if (steps.length === 0) return { value: { applied: [], changed: false }, lines: ["Nothing to apply."] };
  const merge = applySteps(ctx, steps);
  recordState(ctx, "memnox.protect", `applied ${steps.map((s) => s.id).join(", ")}`);
  return {
    value: { applied: steps, merge },
    lines: [...describeMerge("machine rules", merge), ...steps.map((s) => `  ${s.title}; undo: ${s.undo}`)],
  };
}

export function revert(ctx: Context, id: string | undefined): Outcome {
  const done = revertSteps(ctx, id);
  if (done.some((d) => d.status === "removed"))
    recordState(ctx, "memnox.protect", `reverted ${done.map((d) => d.id).join(", ")}`);
  const words = {
    removed: "taken out of",
    changed: "changed since memnox wrote it, so it stays in",
    missing: "no longer in",
  };
  return {
    value: { reverted: done },
    lines: done.length
      ? done.map((d) => `${d.id} (${d.rule}): ${words[d.status]} ${d.file}`)
      : ["No protect step to revert."],
  };
}

export function baseline(
  ctx: Context,
  tables: readonly VerbTable[],
  keep: (rule: RuleSpec) => boolean = () => true,
): Outcome {
  const r = writeBaseline(ctx, tables, keep);
  const shadowed =
    ctx.env.MEMNOX_POLICIES && r.repository
      ? [`note: MEMNOX_POLICIES is set, so ${r.repository.path} does not load here`]
      : [];
  return {
    value: r,
    lines: [
      ...describeMerge("machine rules", r.machine),
      ...describeLeftovers(r.repository),
      "what proceeds without a question, and why:",
      ...r.proceeding.map((p) => `  ${p.name}: ${p.reason}`),
      r.mode === "observe"
        ? "mode is observe: verdicts are recorded and nothing is refused; memnox config set mode enforce makes them bite"
        : `mode is ${r.mode}`,
      ...shadowed,
    ],
  };
}

/** The baseline's domains, as `--interactive` walks them: each a question, answered for all its rules at once. */
function baselineDomains(tables: readonly VerbTable[], ctx: Context): { name: string; rules: readonly RuleSpec[] }[] {
  const base = baselineRules(tables, { date: today(ctx), keysDir: ctx.paths.keys });
  const of = (effect: string) => base.repository.filter((r) => r.decision.effect === effect);
  return [
    { name: "secret reads and this machine's own files", rules: base.machine },
    { name: "commands that destroy work, denied", rules: of("deny") },
    { name: "outward, unknown and hidden actions, asked", rules: of("ask") },
    { name: "the local loop, allowed with its reason", rules: of("allow") },
  ].filter((d) => d.rules.length > 0);
}

/**
 * `protect --interactive`: each domain of the baseline shown (its rules and reasons) and put as one question, the
 * recommended answer yes; only what was kept is written. Answers come from the terminal, or one per line on stdin.
 */
export async function interactive(
  ctx: Context,
  tables: readonly VerbTable[],
  ask: (question: string) => Promise<boolean>,
): Promise<Outcome> {
  const domains = baselineDomains(tables, ctx);
  const kept = new Set<string>();
  const chosen: { domain: string; kept: boolean; rules: string[] }[] = [];
  for (const d of domains) {
    ctx.io.err(`\n${d.name} (${d.rules.length} rule(s)):\n`);
    for (const r of d.rules) ctx.io.err(`  ${r.name}: ${r.decision.reason ?? r.description ?? ""}\n`);
    const yes = await ask(`Write these ${d.rules.length} rule(s)?`);
    chosen.push({ domain: d.name, kept: yes, rules: d.rules.map((r) => r.name) });
    if (yes) for (const r of d.rules) kept.add(r.name);
  }
  const out = baseline(ctx, tables, (r) => kept.has(r.name));
  const left = chosen.filter((c) => !c.kept).map((c) => c.domain);
  return {
    value: { ...(out.value as object), domains: chosen },
    lines: [...out.lines, ...(left.length > 0 ? [`left out, as you chose: ${left.join("; ")}`] : [])],
  };
}

export function forCli(ctx: Context, cli: string): Outcome {
  const { rules, credentials } = cliRules(cli, today(ctx));
  const merge = writeRepositoryRules(ctx, rules, `written by memnox protect --for ${cli}`);
  if (merge.added.length) recordState(ctx, "memnox.protect", `--for ${cli}: ${merge.added.join(", ")}`);
  const creds = credentials.length
    ? `agents may not read ${credentials.join(", ")}; ${cli} itself reads it and keeps working`
    : `memnox knows no credential file for ${cli}: only its verbs are ruled`;
  return { value: { cli, credentials, merge }, lines: [...describeMerge("repository rules", merge), creds] };
}

export async function said(ctx: Context, effect: Said, action: string): Promise<Outcome> {
  const r = await sayRule(ctx, effect, action);
  if (r.merge.added.length) recordState(ctx, "memnox.protect", `--${effect} ${action}`);
  // An allow never overrules a stricter rule (deny beats ask beats allow): say what the action gets now, not hope.
  const now = effect === "allow" ? verdictNow(ctx, action) : undefined;
  const still = now && now.effect !== "allow" ? stillStopped(action, now) : undefined;
  const loud =
    effect !== "allow"
      ? []
      : still
        ? [still]
        : [
            `allow: ${action} now runs without a question wherever ${r.merge.path} loads (memnox protect --deny ${action} overrules it)`,
          ];
  if (loud[0]) ctx.io.err(`memnox: ${loud[0]}\n`);
  const remembered = r.decision
    ? `remembered as a decision: ${r.decision}`
    : `not remembered as a decision: ${r.rememberError ?? "the memory store did not take it"}`;
  const stillValue =
    now && still ? { stillStopped: { effect: now.effect, rule: now.rule ?? null, reason: now.reason } } : {};
  return {
    value: { ...r, ...stillValue },
    lines: [...describeMerge(effect === "allow" ? "machine rules" : "repository rules", r.merge), ...loud, remembered],
    ...(still ? { code: 1 } : {}),
  };
}

/** What `action` gets now under the rules in force here, with no targets: the gate's own stages, run dry. */
function verdictNow(ctx: Context, name: string): Combined {
  const cli = name.split(".")[0] ?? "";
  const table = verbTable(cli);
  const entry = table?.verbs.find((v) => actionPattern(v) === name);
  const action: Action = {
    name,
    class: entry?.class ?? "unknown",
    targets: [],
    arguments: {},
    ...(table ? { cli: table.cli } : {}),
  };
  const deps = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
  return assess({ surface: "cli", action, cwd: ctx.cwd, canAsk: true }, deps, deps.now()).combined;
}

/** Which rule still asks or refuses, and what would change it. */
function stillStopped(action: string, c: Combined): string {
  const does = c.effect === "deny" ? "refuses it" : "asks first";
  if (c.rule)
    return `allow: written, but ${action} still does not run without a question: rule ${c.rule.name} (${c.rule.file}:${c.rule.line}) ${does} (${c.reason}), and deny beats ask beats allow, so an allow never overrules it. To let it run, change that rule at ${c.rule.file}:${c.rule.line}: its effect, or a narrower match`;
  return `allow: written, but ${action} still does not run without a question: memnox's own check (${c.deciding.source}) ${does}: ${c.reason}`;
}

export function interceptors(ctx: Context, tables: readonly VerbTable[]): Outcome {
  const r = installInterceptors(ctx, tables);
  if (r.added.length) recordState(ctx, "memnox.protect", `--interceptors: ${r.added.join(", ")}`);
  const path = r.path.ahead
    ? `${r.dir} comes first on PATH`
    : `${r.dir} is ${r.path.onPath ? "on PATH behind the real binaries" : "not on PATH"}: start the agent with memnox run --, which sets PATH for it, or add it first to your login PATH`;
  return {
    value: r,
    lines: [
      `${r.installed.length} interceptor(s) in ${r.dir}${r.added.length ? `, ${r.added.length} new` : ""}: ${r.installed.join(", ")}`,
      `not on this machine, so not intercepted: ${r.absent.join(", ") || "none"}`,
      path,
    ],
  };
}

export async function gitHooks(ctx: Context): Promise<Outcome> {
  const r = await installGitHooks(ctx, ctx.cwd);
  if (r.hooks.some((h) => h.status !== "unchanged")) recordState(ctx, "memnox.protect", `--hooks in ${r.repository}`);
  return {
    value: r,
    lines: r.hooks.map(
      (h) => `${h.path}: ${h.status}${h.words ? ` (${h.words})` : ""}${h.backup ? `, backup ${h.backup}` : ""}`,
    ),
    code: r.hooks.some((h) => h.status === "refused") ? 1 : 0,
  };
}

export function mode(ctx: Context, to: "observe" | "enforce"): Outcome {
  const { previous, config } = setSetting(ctx.paths.config, "mode", to);
  if (previous.mode !== config.mode)
    recordState(ctx, "memnox.config", `mode: ${previous.mode} -> ${config.mode}`, "config");
  const words =
    to === "enforce" ? "verdicts are applied on every seam" : "verdicts are recorded and nothing is refused";
  return { value: { previous: previous.mode, mode: config.mode }, lines: [`mode is ${config.mode}: ${words}`] };
}

export function native(ctx: Context, on: boolean): Outcome {
  if (!on) {
    const r = revertNative(ctx);
    const words = {
      restored: "restored byte for byte from the backup",
      removed: "took out only the entries memnox added: the file changed since",
      unchanged: "held nothing of memnox's",
      missing: "is gone",
      none: "memnox never wrote Claude Code's permissions here",
    };
    if (r.outcome === "restored" || r.outcome === "removed") recordState(ctx, "memnox.protect", "--revert-native");
    return { value: r, lines: [`${r.file ?? "Claude Code's permissions"}: ${words[r.outcome]}`] };
  }
  const r = applyNative(ctx);
  const n = r.added.deny.length + r.added.ask.length;
  if (n) recordState(ctx, "memnox.protect", `--apply-native: ${n} entries`);
  return {
    value: r,
    lines: [
      `${r.file}: added ${r.added.deny.length} deny and ${r.added.ask.length} ask entries${r.already ? `, ${r.already} already there` : ""}${r.backup ? ` (backup ${r.backup})` : ""}`,
      ...r.unexpressible.map((u) => `  not written, Claude Code cannot say it: ${u.rule} (${u.what}): ${u.why}`),
      "allow rules stay memnox's: Claude Code keeps asking its own questions. memnox protect --revert-native undoes this.",
    ],
  };
}

export function claudeHook(ctx: Context, on: boolean): Outcome {
  // The choice is on record before the file changes: the daemon wakes on the change and reads kept.json.
  const kept = updateKept(ctx.paths.kept, (k) => ({
    takenOut: toggled(k.takenOut, "claude-code", !on),
    hooked: toggled(k.hooked, "claude-code", on),
  }));
  const r = on ? installAgentHook(ctx, "claude-code") : removeAgentHook(ctx, "claude-code");
  recordState(ctx, "memnox.protect", on ? "--claude-hook: put back" : "--revert-claude-hook: taken out and kept out");
  const lines = on
    ? [`${r.file}: ${r.status}${r.trust && !r.trust.active ? `; ${r.trust.words} → ${r.trust.step ?? ""}` : ""}`]
    : [`${r.file}: ${r.status}; the daemon leaves it out from now on (memnox protect --claude-hook puts it back)`];
  if (kept === "absent") lines.push("setup has not run here, so there is no kept.json to record it in");
  const bad = r.status === "refused" || r.status === "unparsable";
  return { value: { ...r, kept }, lines, code: bad ? 1 : 0 };
}

export async function osGuard(ctx: Context, on: boolean): Promise<Outcome> {
  const { removeMachineGuard, writeMachineGuard } = await import("../../../wall/os-guard.ts");
  if (!on) {
    const removed = removeMachineGuard(ctx);
    if (removed) recordState(ctx, "memnox.protect", "--revert-os-guard");
    return {
      value: { removed },
      lines: [
        removed
          ? "kernel guard taken off: what a seam starts reads what the rules allow"
          : "no kernel guard was written here",
      ],
    };
  }
  const { shown } = await import("../../../wall/description.ts");
  const { kernelName } = await import("../../../wall/held.ts");
  const { osGuardInput } = await import("../../../wall/facts/gather.ts");
  const g = await writeMachineGuard(ctx, osGuardInput(ctx));
  const paths = g.wall.unreadable.map((u) => shown(g.wall, u.path));
  const value = { file: g.file, held: g.held, kernel: g.kernel, unreadable: paths, unexpressed: g.wall.unexpressed };
  if (!g.held) {
    return {
      value,
      code: 1,
      lines: [`no kernel guard written: ${kernelName(g.kernel)}, so no kernel here can hold one`],
    };
  }
  recordState(ctx, "memnox.protect", `--os-guard: ${paths.length} paths`);
  return {
    value,
    lines: [
      `kernel guard written to ${g.file}, held by ${kernelName(g.kernel)}: ${paths.length} paths stay unreadable to every program the interceptors and the governed shell start, even by absolute path`,
      `  ${paths.slice(0, 8).join(", ")}${paths.length > 8 ? `, and ${paths.length - 8} more` : ""}`,
      "  each CLI's own credential stays readable to its own interceptor (git its keys, gh its login), so it keeps working",
      "  raised again for every program, from what is on disk then: a file a program makes directly in your home is readable from the next one on",
      ...g.wall.unexpressed.map((u) => `  not held, no path stands for it: ${u}`),
      "memnox protect --revert-os-guard takes it off.",
    ],
  };
}
