// `memnox memory remember <rule> | --all`: a rule in force that carries a reason, kept as a `decision` page.
import { MemnoxError } from "../../../../core/errors.ts";
import { type DecisionWhere, rememberDecision } from "../../../../memory/decision.ts";
import { MACHINE_PROJECT, projectFromCwd } from "../../../../memory/format/project.ts";
import { decisionSlug } from "../../../../memory/format/slug.ts";
import { findPages, type Store } from "../../../../memory/pages/store.ts";
import type { PolicyRule } from "../../../../policy/engine/index.ts";
import { loadRuleSet, type RuleOrigin } from "../../../../policy/load/index.ts";
import { personName } from "../../../../state/identity.ts";
import { command } from "../../command.ts";
import { common, flag, type MemoryCli, run, say } from "./_cli.ts";

interface Found {
  readonly rule: PolicyRule;
  readonly origin: RuleOrigin;
}

interface Remembered {
  readonly rule: string;
  readonly slug: string;
  readonly file_path: string;
  readonly created: boolean;
}

interface RememberReport {
  readonly remembered: readonly Remembered[];
  /** Rules in force that were not remembered, with why. */
  readonly skipped: readonly { readonly rule: string; readonly why: string }[];
}

// The briefing's reading of origins: only the machine's own file is "decided on this machine".
const WHERE: Readonly<Record<RuleOrigin, DecisionWhere>> = {
  machine: "machine",
  repository: "repository",
  flag: "repository",
  env: "repository",
  registered: "repository",
  workspace: "workspace",
};

function rulesInForce(cli: MemoryCli): Found[] {
  const { ctx } = cli;
  const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  return set.checked.filter((c) => c.applies).flatMap((c) => c.rules.map((rule) => ({ rule, origin: c.origin })));
}

function pick(found: readonly Found[], name: string): Found {
  const named = found.filter((f) => f.rule.name === name);
  if (named.length === 0)
    throw new MemnoxError(
      "refused",
      `no rule named \`${name}\` is in force here`,
      "memnox policy check lists the rules in force",
    );
  if (named.length > 1)
    throw new MemnoxError(
      "refused",
      `more than one rule is named \`${name}\`: ${named.map((f) => `${f.rule.file}:${f.rule.line}`).join(", ")}`,
      "rename one of them, then remember it by its new name",
    );
  return named[0] as Found;
}

async function keep(cli: MemoryCli, store: Store, f: Found, by: string): Promise<Remembered> {
  const reason = f.rule.decision.reason?.trim();
  if (!reason)
    throw new MemnoxError(
      "refused",
      `rule \`${f.rule.name}\` has no reason, and a decision is remembered with its reason`,
      `add decision.reason to it in ${f.rule.file}`,
    );
  const where = WHERE[f.origin];
  const project = where === "machine" ? MACHINE_PROJECT : await projectFromCwd(cli.ctx.git, cli.ctx.cwd);
  // Remembering the same rule again keeps the date it was first remembered, so the page changes only with the rule.
  const [before] = findPages(store, decisionSlug(f.rule.name), { scope: "project", projectId: project.id });
  const first = before?.occurred_at ? Date.parse(before.occurred_at) : Number.NaN;
  const page = rememberDecision(store, {
    rule: f.rule.name,
    reason,
    effect: f.rule.decision.effect,
    actions: f.rule.match.actions ?? [],
    targets: f.rule.match.targets ?? [],
    where,
    by,
    file: f.rule.file,
    project,
    ...(Number.isFinite(first) ? { decidedAt: first } : {}),
  });
  return { rule: f.rule.name, slug: page.slug, file_path: page.file_path, created: page.created };
}

async function rememberRules(
  cli: MemoryCli,
  store: Store,
  opts: { readonly name?: string; readonly all: boolean; readonly by: string },
): Promise<RememberReport> {
  const found = rulesInForce(cli);
  if (!opts.all) {
    if (!opts.name)
      throw new MemnoxError("usage", "name the rule to remember", "or --all for every rule with a reason");
    return { remembered: [await keep(cli, store, pick(found, opts.name), opts.by)], skipped: [] };
  }
  const remembered: Remembered[] = [];
  const skipped: { rule: string; why: string }[] = [];
  for (const f of found) {
    if (!f.rule.decision.reason?.trim()) skipped.push({ rule: f.rule.name, why: "it has no reason" });
    else remembered.push(await keep(cli, store, f, opts.by));
  }
  return { remembered, skipped };
}

export const rememberCommand = (cli: MemoryCli) =>
  command({
    meta: { name: "remember", description: "keep a rule in force, with its reason, as a decision page" },
    args: {
      ...common,
      rule: { type: "positional", description: "the rule's name", required: false },
      all: { type: "boolean", description: "every rule in force here that has a reason" },
      by: { type: "string", description: "who decided it (default: you)" },
    },
    run: ({ args }) =>
      run(cli, args, async (store) => {
        const name = typeof args.rule === "string" && args.rule ? args.rule : undefined;
        const r = await rememberRules(cli, store, {
          ...(name ? { name } : {}),
          all: args.all === true,
          by: flag(args, "by") ?? personName(cli.ctx.env),
        });
        say(cli, args, r, () => [
          ...r.remembered.map((p) => `${p.rule}: remembered as ${p.slug} (${p.file_path})`),
          ...r.skipped.map((s) => `${s.rule}: not remembered, ${s.why}`),
        ]);
        return 0;
      }),
  });
