import { dirname, resolve } from "node:path";
import { MemnoxError } from "../../../core/errors.ts";
import { readTextIfExists } from "../../../io/files.ts";
import { realOr } from "../../../io/real.ts";
import { repoRoot } from "../../../io/repo.ts";
import {
  type CheckedFile,
  checkText,
  formatProblem,
  loadRuleSet,
  registerFile,
  unregisterFile,
} from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";
import { policyTest } from "./verdicts.ts";

/**
 * Match fields nothing on this machine gives a value, so a rule naming them never matches (an omitted value never
 * meets a pattern), and fields that match only under a condition a person should know about.
 */
const SILENT_FIELDS: Readonly<Record<string, string>> = {
  dataClassifications:
    "can never fire here: nothing on this machine states what data an action touches, so no call carries a classification",
  jurisdictions:
    "can never fire here: nothing on this machine states where an action's data may go, so no call carries a jurisdiction",
};

interface FieldNote {
  readonly rule: string;
  readonly line: number;
  readonly field: string;
  readonly note: string;
}

function fieldNotes(c: CheckedFile): FieldNote[] {
  const out: FieldNote[] = [];
  for (const r of c.rules) {
    const m = r.match as Readonly<Record<string, unknown>>;
    for (const [field, note] of Object.entries(SILENT_FIELDS)) {
      if (m[field] !== undefined) out.push({ rule: r.name, line: r.line, field, note });
    }
    if (m.scope !== undefined)
      out.push({
        rule: r.name,
        line: r.line,
        field: "scope",
        note: "matches only in a session that declared its task (memnox run --task, --paths, --repos, --services or --envs); elsewhere the scope is undeclared and the rule never fires",
      });
  }
  return out;
}

function fileJson(c: CheckedFile) {
  return {
    path: c.path,
    origin: c.origin,
    applies: c.applies,
    exists: c.exists,
    ...(c.hash ? { hash: c.hash } : {}),
    ...(c.project ? { project: c.project } : {}),
    rules: c.rules.map((r) => ({ name: r.name, line: r.line, effect: r.decision.effect })),
    problems: c.problems,
    notes: fieldNotes(c),
  };
}

function fileLine(c: CheckedFile): string {
  const state = c.problems.length ? `${c.problems.length} problem(s)` : "ok";
  const where = c.applies ? "" : ", not here";
  return `  ${c.path}  (${c.origin}${where})  ${c.rules.length} rule(s)  ${state}`;
}

function noteLines(c: CheckedFile): string[] {
  return fieldNotes(c).map((n) => `    ${n.rule} (line ${n.line}): \`${n.field}\` ${n.note}`);
}

function readNamed(ctx: Context, file: string): { path: string; text: string } {
  const path = resolve(ctx.cwd, file);
  const text = readTextIfExists(path);
  if (text === undefined) throw new MemnoxError("not_found", `no rule file at \`${path}\``);
  return { path, text };
}

const check = (ctx: Context) =>
  command({
    meta: {
      name: "check",
      description: "every rule file this machine loads here (or one file): rules, hash, problems",
    },
    args: {
      path: { type: "positional", required: false, description: "check this one file only" },
      file: { type: "string", alias: "f", description: "check this one file only (the same as naming it)" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      const named = args.path ?? args.file;
      if (named) {
        const { path, text } = readNamed(ctx, named);
        const c = checkText(path, "flag", text);
        emit(ctx, args.json, fileJson(c), () => [
          fileLine(c),
          ...c.problems.map((p) => `  ${formatProblem(p)}`),
          ...noteLines(c),
        ]);
        return c.problems.length ? 1 : 0;
      }
      const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
      const problems = set.checked.flatMap((c) => c.problems);
      const rules = set.compiled.rules.length;
      const value = { cwd: ctx.cwd, hash: set.hash, rules, files: set.checked.map(fileJson), problems };
      emit(ctx, args.json, value, () => [
        `in force at ${ctx.cwd}: ${rules} rule(s) from ${set.files.length} file(s), hash ${set.hash.slice(0, 16)}`,
        ...(set.checked.length
          ? set.checked.flatMap((c) => [fileLine(c), ...noteLines(c)])
          : ["  no rule file applies here: every action is ungoverned"]),
        ...(problems.length
          ? ["", `${problems.length} problem(s); in enforce a broken file that applies refuses every action:`]
          : []),
        ...problems.map((p) => `  ${formatProblem(p)}`),
      ]);
      return problems.length ? 1 : 0;
    },
  });

const use = (ctx: Context) =>
  command({
    meta: { name: "use", description: "register a rule file so it loads (inside its repository, or everywhere)" },
    args: {
      file: { type: "positional", required: false, description: "the rule file" },
      remove: { type: "boolean", description: "forget a registered file instead" },
      json: { type: "boolean", description: "structured output" },
    },
    run({ args }) {
      if (!args.file) throw new MemnoxError("usage", "which rule file?", "memnox policy use <file>");
      const registry = ctx.paths.policiesRegistry;
      const given = resolve(ctx.cwd, args.file);
      const path = realOr(given);
      if (args.remove) {
        const removed = unregisterFile(registry, path);
        emit(ctx, args.json, { path, removed }, () => [removed ? `forgot ${path}` : `${path} was not registered`]);
        return removed ? 0 : 1;
      }
      const { text } = readNamed(ctx, path);
      const c = checkText(path, "registered", text);
      if (c.problems.length)
        throw new MemnoxError(
          "policy_invalid",
          `\`${path}\` has ${c.problems.length} problem(s), so it was not registered: ${formatProblem(c.problems[0] ?? { file: path, message: "" })}`,
          "memnox policy check <file> lists them all",
        );
      const added = registerFile(registry, path);
      const root = repoRoot(dirname(path));
      const appliesIn = root ?? "everywhere";
      emit(ctx, args.json, { path, added, rules: c.rules.length, appliesIn }, () => [
        `${added ? "registered" : "already registered:"} ${path} (${c.rules.length} rule(s)), applies ${root ? `inside ${root}` : "everywhere"}`,
      ]);
      return 0;
    },
  });

export const policy: CommandFactory = (ctx) =>
  command({
    meta: { name: "policy", description: "check, register and test rule files" },
    subCommands: { check: check(ctx), use: use(ctx), test: policyTest(ctx) },
  });
