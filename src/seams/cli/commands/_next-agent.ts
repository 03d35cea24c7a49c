// `memnox next --agent/--role/--roles`: the rules read forwards. What an agent (or a job) would do on its own and what
// would still be asked, by asking the engine action by action: every verb the verb tables name (where the agent has
// a shell), every capability the scan saw it reach, and a read of each credential it reaches. Never a summary of
// the rules, which could not say what an ungoverned action or memnox's own checks do.
import type { ActionClass } from "../../../core/action.ts";
import type { Effect } from "../../../core/effect.ts";
import { MemnoxError } from "../../../core/errors.ts";
import type { Context } from "../../../ports/context.ts";
import { actionPattern, BUILTIN_ACTIONS, verbTables } from "../../../resolve/index.ts";
import { lastScan, scanMachine } from "../../../scan/inventory.ts";
import type { AgentRow, Inventory } from "../../../scan/types.ts";
import { askEngine, type DryDeps, dryDeps } from "./_engine.ts";

interface Probe {
  readonly action: string;
  readonly class: ActionClass;
  readonly targets: readonly string[];
  /** Where the action came from: a verb table, a capability the scan saw, a credential it reaches. */
  readonly from: string;
}

interface Answered {
  readonly action: string;
  readonly targets: readonly string[];
  readonly class: ActionClass;
  readonly from: string;
  readonly effect: Effect;
  readonly rule: string | null;
  readonly reason: string;
}

interface Forwards {
  readonly agent: { readonly id: string; readonly name: string } | null;
  readonly role: string | null;
  readonly actions: number;
  readonly byClass: Readonly<Record<string, Readonly<Record<Effect, number>>>>;
  readonly proceeds: readonly Answered[];
  readonly asks: readonly Answered[];
  readonly refused: readonly Answered[];
}

async function inventory(ctx: Context): Promise<Inventory> {
  return lastScan(ctx) ?? (await scanMachine(ctx, { probe: false }));
}

function findAgent(inv: Inventory, name: string): AgentRow {
  const a = inv.agents.find((x) => x.id === name || x.name === name);
  if (!a)
    throw new MemnoxError(
      "not_found",
      `no agent \`${name}\` on this machine`,
      `memnox agents list names them: ${inv.agents.map((x) => x.id).join(", ") || "none found"}`,
    );
  return a;
}

/** Every concrete action to ask about: table verbs and builtins (with a shell), what the scan saw it reach. */
function probes(inv: Inventory, agent: AgentRow | undefined): Probe[] {
  const out = new Map<string, Probe>();
  const add = (p: Probe) => {
    const key = `${p.action}\u0000${p.targets.join("\u0000")}`;
    if (!out.has(key)) out.set(key, p);
  };
  if (!agent || agent.shell.has) {
    for (const t of verbTables())
      for (const e of t.verbs) {
        const action = actionPattern(e);
        if (!action.includes("*")) add({ action, class: e.class, targets: [], from: `${t.cli} verb table` });
      }
    for (const b of BUILTIN_ACTIONS)
      if (!b.action.includes("*") && b.action !== "shell.execute")
        add({ action: b.action, class: b.class, targets: [], from: "memnox's own actions" });
  }
  for (const c of inv.capabilities) {
    if (agent && !c.agents.includes(agent.id)) continue;
    if (!c.action.includes("*")) add({ action: c.action, class: c.class, targets: [], from: `${c.via} ${c.source}` });
  }
  const creds = agent ? agent.reaches : inv.credentials.filter((c) => c.usable).map((c) => c.path);
  for (const path of creds)
    add({ action: "filesystem.read", class: "read", targets: [path], from: "a credential it reaches" });
  return [...out.values()];
}

function answer(deps: DryDeps, ctx: Context, p: Probe, agent: string | undefined): Answered {
  const a = askEngine(deps, { ...p, cwd: ctx.cwd, ...(agent ? { agent } : {}) });
  const c = a.combined;
  return {
    action: p.action,
    targets: p.targets,
    class: p.class,
    from: p.from,
    effect: c.effect,
    rule: c.rule?.name ?? null,
    reason: a.because,
  };
}

/** What `agent` (or anyone in `role`) would get for each action, from the engine, now, at this directory. */
export async function forwards(ctx: Context, o: { agent?: string; role?: string }): Promise<Forwards> {
  const inv = await inventory(ctx);
  const agent = o.agent === undefined ? undefined : findAgent(inv, o.agent);
  const deps = dryDeps(ctx, o.role);
  const answers = probes(inv, agent).map((p) => answer(deps, ctx, p, agent?.id));
  const byClass: Record<string, Record<Effect, number>> = {};
  for (const a of answers) {
    const c = byClass[a.class] ?? { allow: 0, ask: 0, deny: 0 };
    c[a.effect] += 1;
    byClass[a.class] = c;
  }
  const of = (e: Effect) => answers.filter((a) => a.effect === e);
  return {
    agent: agent ? { id: agent.id, name: agent.name } : null,
    role: o.role ?? null,
    actions: answers.length,
    byClass,
    proceeds: of("allow"),
    asks: of("ask"),
    refused: of("deny"),
  };
}

/** Every role a rule in force here names, each with its counts. */
export async function everyRole(ctx: Context): Promise<{ roles: { role: string; counts: Record<Effect, number> }[] }> {
  const set = dryDeps(ctx).rules(ctx.cwd);
  const named = set.checked
    .filter((c) => c.applies)
    .flatMap((c) => c.rules.flatMap((r) => r.match.roles ?? []))
    .filter((r) => r !== "*");
  const roles = [...new Set(named)].sort();
  const out = [];
  for (const role of roles) {
    const f = await forwards(ctx, { role });
    out.push({ role, counts: { allow: f.proceeds.length, ask: f.asks.length, deny: f.refused.length } });
  }
  return { roles: out };
}

const SHOWN = 25;

function list(title: string, items: readonly Answered[], why: boolean): string[] {
  if (items.length === 0) return [];
  const lines = items
    .slice(0, SHOWN)
    .map(
      (a) =>
        `  ${a.action}${a.targets.length ? ` ${a.targets.join(" ")}` : ""}${why ? `  (${a.rule ?? a.reason})` : ""}`,
    );
  if (items.length > SHOWN) lines.push(`  and ${items.length - SHOWN} more (--json lists every one)`);
  return [`${title} (${items.length})`, ...lines];
}

export function renderForwards(f: Forwards): string[] {
  const who = f.agent ? `${f.agent.name}${f.agent.name !== f.agent.id ? ` (${f.agent.id})` : ""}` : "any agent";
  const role = f.role ? ` in the role ${f.role}` : "";
  const classes = Object.entries(f.byClass)
    .sort((a, b) => (a[0] < b[0] ? -1 : 1))
    .map(([c, n]) => `  ${c.padEnd(14)} ${n.allow} on its own, ${n.ask} asked, ${n.deny} refused`);
  return [
    `WHAT ${who.toUpperCase()}${role.toUpperCase()} WOULD DO ON ITS OWN — ${f.actions} actions asked of the engine, one by one`,
    ...classes,
    "",
    ...list("STILL ASKED", f.asks, true),
    ...(f.asks.length ? [""] : []),
    ...list("REFUSED", f.refused, true),
    ...(f.refused.length ? [""] : []),
    `${f.proceeds.length} action(s) proceed without a question (--json lists them with the rule that lets each through)`,
  ];
}

export function renderRoles(r: { roles: { role: string; counts: Record<Effect, number> }[] }): string[] {
  if (r.roles.length === 0) return ["no rule in force here names a role (match.roles)"];
  return [
    "ROLES THE RULES NAME",
    ...r.roles.map(
      (x) =>
        `  ${x.role.padEnd(24)} ${x.counts.allow} on their own, ${x.counts.ask} asked, ${x.counts.deny} refused (memnox next --role ${x.role})`,
    ),
  ];
}
