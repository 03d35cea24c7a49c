// `memnox policy test '<cmd>'` and `memnox check '<line>'`: the gate's own stages, run dry, nothing recorded.
import { basename, resolve } from "node:path";
import type { Action } from "../../../core/action.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { type Assessment, assess } from "../../../gate/assess.ts";
import type { Combined } from "../../../gate/combine.ts";
import { gateDeps } from "../../../gate/wiring.ts";
import { findRealBinary } from "../../../io/real-binary.ts";
import type { Context } from "../../../ports/context.ts";
import { verbTables } from "../../../resolve/index.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { readPhrase } from "./_phrase.ts";

/** One action of `check` with its verdict, as the JSON and the lines show it. */
function checkRow(action: Action, c: Combined) {
  return {
    action: action.name,
    class: action.class,
    targets: action.targets,
    effect: c.effect,
    governed: c.governed,
    rule: c.rule?.name ?? null,
    reason: c.reason,
    alternative: c.alternative ?? null,
  };
}

function dryRun(ctx: Context, line: string, file: string | undefined): { a: Assessment; mode: string } {
  const deps = gateDeps(
    ctx,
    { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} },
    file ? { ruleFile: resolve(ctx.cwd, file) } : {},
  );
  const a = assess({ surface: "cli", command: line, cwd: ctx.cwd, canAsk: true }, deps, deps.now());
  return { a, mode: deps.settings().mode };
}

const ARGS = {
  line: { type: "positional", description: "the command line, quoted" },
  file: { type: "string", alias: "f", description: "the rule file to read instead of the ones in force here" },
  json: { type: "boolean", description: "structured output" },
} as const;

export const policyTest: CommandFactory = (ctx) =>
  command({
    meta: { name: "test", description: "what one command line would get under the rules; runs and records nothing" },
    args: ARGS,
    run({ args }) {
      const line = args.line ?? "";
      const { a, mode } = dryRun(ctx, line, args.file);
      const c = a.combined;
      const out = {
        command: line,
        effect: c.effect,
        wouldEffect: c.wouldEffect,
        mode,
        governed: c.governed,
        action: c.deciding.action.name,
        actions: a.resolution.actions.map((x) => x.name),
        rule: c.rule ?? null,
        reason: a.because,
        alternative: c.alternative ?? null,
        policyHash: a.rules.hash,
      };
      emit(ctx, args.json, out, () => [
        `${c.effect.toUpperCase()}  ${out.action}${c.governed ? "" : " (ungoverned)"}`,
        ...(c.rule ? [`rule        ${c.rule.name} (${c.rule.file}:${c.rule.line})`] : []),
        `reason      ${a.because}`,
        ...(c.alternative ? [`instead     ${c.alternative.note} (${c.alternative.action})`] : []),
        ...(c.wouldEffect !== c.effect ? [`observe     a rule in observe mode would ${c.wouldEffect}`] : []),
        `resolved to ${out.actions.join(", ")}`,
        ...(mode !== "enforce" ? [`mode is ${mode}: in a seam this is recorded, not applied`] : []),
      ]);
      return c.effect === "allow" ? 0 : 1;
    },
  });

/**
 * A phrase ("deploy the payments service") rather than a command line, told by whether the line resolves, never by
 * its words: every program in it is one no handler, verb table or toolchain entry knows, and none is a path or a
 * program on this machine's PATH. The program names it could not place, when it is one.
 */
function unplaced(ctx: Context, a: Assessment): string[] | undefined {
  const r = a.resolution;
  if (r.parseError !== undefined) return undefined;
  const own = r.actions.filter((x) => x.name !== "shell.execute" && x.name !== "filesystem.read");
  const programs = own.map((x) => {
    const word = x.arguments.argv?.[0] ?? "";
    const known = x.class !== "unknown" || !r.unknown.includes(basename(word).toLowerCase());
    return known || word.includes("/") || findRealBinary(word, ctx.env.PATH, [], ctx.execPath) ? undefined : word;
  });
  if (own.length === 0 || programs.some((p) => p === undefined)) return undefined;
  return [...new Set(programs as string[])];
}

export const check: CommandFactory = (ctx) =>
  command({
    meta: { name: "check", description: "every action a command line resolves to, with its verdict; nothing runs" },
    args: ARGS,
    run({ args }) {
      const line = args.line ?? "";
      if (!line.trim())
        throw new MemnoxError("usage", "memnox check needs a command line", "memnox check 'git push origin main'");
      const { a, mode } = dryRun(ctx, line, args.file);
      const phrase = unplaced(ctx, a);
      if (phrase) return checkPhrase(ctx, line, phrase, args.file, Boolean(args.json));
      const rows = a.perAction.map(({ action, combined }) => checkRow(action, combined));
      const stops = a.combined.effect !== "allow";
      emit(
        ctx,
        args.json,
        { command: line, mode, effect: a.combined.effect, actions: rows, policyHash: a.rules.hash },
        () => [
          ...rows.map(
            (r) =>
              `${r.effect.padEnd(5)}  ${r.action}${r.targets.length ? ` ${r.targets.join(" ").slice(0, 80)}` : ""}  ${r.governed ? `(${r.rule ?? "memnox"}: ${r.reason})` : "(ungoverned)"}`,
          ),
          stops ? `would stop: ${a.because}` : "nothing here would stop",
        ],
      );
      return stops ? 1 : 0;
    },
  });

/**
 * A phrase: every action it could mean (on the CLIs this machine has, or the ones it names), each decided dry with
 * the words it named as what it acts on; its reading is printed, so a wrong reading shows rather than misleads.
 */
function checkPhrase(ctx: Context, line: string, words: readonly string[], file: string | undefined, json: boolean) {
  const tables = verbTables();
  const named = tables.some((t) => line.toLowerCase().split(/\W+/).includes(t.cli));
  const here = named
    ? tables
    : tables.filter((t) => findRealBinary(t.cli, ctx.env.PATH, [ctx.paths.bin], ctx.execPath));
  // What it could mean here; where nothing here does it, what it could mean on any CLI memnox knows.
  const local = readPhrase(line, here);
  const reading = local.actions.length > 0 ? local : readPhrase(line, tables);
  if (reading.actions.length === 0)
    throw new MemnoxError(
      "usage",
      `\`${line}\` reads as a phrase (${words.map((w) => `\`${w}\``).join(", ")} is no program memnox knows), and no act in it is one a verb table names`,
      "name the act (deploy, merge, push, delete, publish, migrate…) or give the command line it would run",
    );
  const deps = gateDeps(
    ctx,
    { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} },
    file ? { ruleFile: resolve(ctx.cwd, file) } : {},
  );
  const at = deps.now();
  const rows = reading.actions.map((action) =>
    checkRow(action, assess({ surface: "cli", action, cwd: ctx.cwd, canAsk: true }, deps, at).combined),
  );
  const stopping = rows.filter((r) => r.effect !== "allow");
  const effect = rows.some((r) => r.effect === "deny") ? "deny" : stopping.length > 0 ? "ask" : "allow";
  emit(
    ctx,
    json,
    {
      command: line,
      phrase: { acts: reading.acts, names: reading.names },
      mode: deps.settings().mode,
      effect,
      actions: rows,
    },
    () => [
      `read as: ${[...reading.acts, ...reading.names].join(" · ")}`,
      ...rows.map((r) => `${r.effect.padEnd(5)}  ${r.action}  ${r.governed ? r.reason : "(ungoverned)"}`),
      `${stopping.length} of ${rows.length} would stop, and nothing was run to find out.`,
      ...(rows.some((r) => r.reason.includes(" is frozen"))
        ? ["memnox freeze --lift (or memnox freeze <subject> --lift) when the incident is over"]
        : []),
    ],
  );
  return stopping.length > 0 ? 1 : 0;
}
