// Rules a person says at the terminal: `--ask/--deny <action>` written at once into this repository's rule file,
// `--allow <action>` into the machine file relaxing the baseline asks it meets, each remembered as a decision; and
// `--for <cli>`: that CLI's credential files closed, its verbs from its table.

import type { ActionClass } from "../../core/action.ts";
import { MemnoxError } from "../../core/errors.ts";
import { readTextIfExists } from "../../io/files.ts";
import { memoryDir, openStore, projectFromCwd, rememberDecision } from "../../memory/index.ts";
import { entryPattern, REASONS, type RuleSpec } from "../../policy/baseline.ts";
import { compile, evaluate } from "../../policy/engine/index.ts";
import { checkText } from "../../policy/load/index.ts";
import type { MergeResult } from "../../policy/write.ts";
import type { Context } from "../../ports/context.ts";
import { verbTable } from "../../resolve/index.ts";
import { personName } from "../../state/identity.ts";
import { today, writeMachineRules, writeRepositoryRules } from "./baseline.ts";
import { CLI_CREDENTIALS } from "./credentials.ts";

export type Said = "ask" | "deny" | "allow";

const SAID_REASON: Readonly<Record<Said, string>> = {
  deny: "a person decided this never runs here",
  ask: "a person decided this is asked about first",
  allow: "a person decided this runs without a question",
};

function slug(s: string): string {
  return s
    .toLowerCase()
    .replace(/[^a-z0-9*]+/g, "-")
    .replace(/\*/g, "any")
    .replace(/^-+|-+$/g, "");
}

/** The rule `protect --<effect> <action>` writes. */
function saidRule(effect: Said, action: string, by: string, date: string): RuleSpec {
  if (!/^[a-z0-9*][a-z0-9_.*:-]*$/i.test(action)) {
    throw new MemnoxError(
      "usage",
      `\`${action}\` is not an action name`,
      "an action is like git.push-force, gh.pr-merge or mcp.github.*",
    );
  }
  return {
    name: `${effect}-${slug(action)}`,
    description: `said by ${by} with memnox protect --${effect} on ${date}`,
    match: { actions: [action] },
    decision: { effect, reason: SAID_REASON[effect] },
  };
}

interface SaidResult {
  readonly rule: RuleSpec;
  readonly merge: MergeResult;
  /** The decision page it is remembered as, when the memory store took it. */
  readonly decision?: string;
  readonly rememberError?: string;
}

/**
 * The machine file's ask rules that `action` meets (its class from its verb table, no targets): what an allow of it
 * relaxes, so `--allow` stops exactly those questions. Denies, and other files' asks, it never touches.
 */
function machineAsksFor(ctx: Context, action: string): string[] {
  const text = readTextIfExists(ctx.paths.machinePolicies);
  if (text === undefined) return [];
  const checked = checkText(ctx.paths.machinePolicies, "machine", text);
  const set = compile(checked.rules, { home: ctx.paths.home });
  const cli = action.split(".")[0] ?? "";
  const entry = verbTable(cli)?.verbs.find((v) => entryPattern(v) === action);
  const cls: ActionClass = entry?.class ?? "unknown";
  const v = evaluate(
    set,
    { action: { name: action, class: cls, targets: [], arguments: {} }, cwd: ctx.cwd, scope: "undeclared" },
    [],
    { epochMs: ctx.clock.now(), utcOffsetMinutes: 0 },
  );
  const asks = new Set(
    checked.rules.filter((r) => r.decision.effect === "ask" && r.decision.mode !== "observe").map((r) => r.name),
  );
  return [...new Set(v.matched.map((m) => m.name).filter((n) => asks.has(n)))].sort();
}

/**
 * Writes the rule and remembers it as a decision a later session is reminded of. `--ask` and `--deny` go into this
 * repository's file; `--allow` into the machine file beside the baseline's asks, relaxing the ones it meets (an
 * allow in another file could never take a stricter rule's place).
 */
export async function sayRule(ctx: Context, effect: Said, action: string): Promise<SaidResult> {
  const by = personName(ctx.env);
  const said = saidRule(effect, action, by, today(ctx));
  const relaxes = effect === "allow" ? machineAsksFor(ctx, action) : [];
  const rule: RuleSpec = relaxes.length > 0 ? { ...said, decision: { ...said.decision, relaxes } } : said;
  const merge =
    effect === "allow"
      ? writeMachineRules(ctx, [rule], "written by memnox protect --allow")
      : writeRepositoryRules(ctx, [rule], `written by memnox protect --${effect}`);
  try {
    const store = openStore({ dir: memoryDir(ctx.env, ctx.paths, ctx.cwd), now: () => ctx.clock.now(), env: ctx.env });
    try {
      const project = await projectFromCwd(ctx.git, ctx.cwd);
      const page = rememberDecision(store, {
        rule: rule.name,
        reason: rule.decision.reason ?? SAID_REASON[effect],
        effect,
        actions: [action],
        where: effect === "allow" ? "machine" : "repository",
        by,
        file: merge.path,
        project,
        decidedAt: ctx.clock.now(),
      });
      return { rule, merge, decision: page.file_path };
    } finally {
      store.close();
    }
  } catch (e) {
    return { rule, merge, rememberError: e instanceof Error ? e.message : String(e) };
  }
}

function actionsOf(cli: string, cls: ActionClass): string[] {
  const t = verbTable(cli);
  return t ? [...new Set(t.verbs.filter((e) => e.class === cls).map(entryPattern))].sort() : [];
}

/** `--for <cli>`: its credential files unreadable to agents, its destructive verbs denied, outward ones asked, reads allowed. */
export function cliRules(cli: string, date: string): { rules: RuleSpec[]; credentials: readonly string[] } {
  const table = verbTable(cli);
  if (!table)
    throw new MemnoxError("usage", `memnox has no verb table for \`${cli}\``, "memnox explain lists the CLIs it knows");
  const name = table.cli;
  const by = `for ${name}, written by memnox protect --for ${name} on ${date}`;
  const credentials = CLI_CREDENTIALS[name] ?? [];
  const rule = (
    suffix: string,
    actions: readonly string[],
    d: RuleSpec["decision"],
    targets?: readonly string[],
  ): RuleSpec[] =>
    actions.length === 0
      ? []
      : [
          {
            name: `${name}-${suffix}`,
            description: by,
            match: { actions, ...(targets ? { targets } : {}) },
            decision: d,
          },
        ];
  const rules = [
    ...(credentials.length
      ? rule("credentials-not-read", ["filesystem.read"], { effect: "deny", reason: REASONS.cloud }, credentials)
      : []),
    ...rule("destructive-denied", actionsOf(name, "destructive"), { effect: "deny", reason: REASONS.destructive }),
    ...rule("outward-asked", actionsOf(name, "communication"), { effect: "ask", reason: REASONS.outward }),
    ...rule("unknown-asked", [`${name}.unknown`, ...actionsOf(name, "unknown")], {
      effect: "ask",
      reason: REASONS.unknown,
    }),
    ...rule("reads-allowed", actionsOf(name, "read"), { effect: "allow", reason: REASONS.reads }),
  ];
  return { rules, credentials };
}
