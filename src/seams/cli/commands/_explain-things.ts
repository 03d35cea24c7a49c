// `memnox explain <tool|path|server|agent>` and "can <agent> read <path>": where it came from and what governs it,
// with what is technically possible kept apart from what the rules allow.
import { existsSync } from "node:fs";
import { isAbsolute, join, resolve } from "node:path";
import type { Action } from "../../../core/action.ts";
import { MemnoxError } from "../../../core/errors.ts";
import { type LoadedRuleSet, loadRuleSet } from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { agentLines } from "../../../scan/agent-view.ts";
import { dormantAgents } from "../../../scan/dormant.ts";
import { hookStates } from "../../../scan/hooked.ts";
import { instantOf, scanMachine } from "../../../scan/inventory.ts";
import { serverRoots } from "../../../scan/reach.ts";
import { tilde } from "../../../scan/render.ts";
import type { Inventory } from "../../../scan/types.ts";
import { agentIdFor, readAgentNames } from "../../../state/agent-names.ts";
import { readConfig } from "../../../state/config.ts";
import { emit } from "../output.ts";
import { mcpReport } from "./_scan-reports.ts";

const VERBS: Readonly<Record<string, Action["class"]>> = { read: "read", write: "write", delete: "destructive" };
const QUESTION = /^can\s+(\S+)\s+(read|write|delete)\s+(.+?)\??$/i;

function ruleWords(rules: LoadedRuleSet, action: Action, cwd: string, at: number, agent?: string) {
  const v = rules.evaluate({ action, cwd, scope: "undeclared", ...(agent ? { agent } : {}) }, [], instantOf(at));
  const where = v.rule ? ` (${v.rule.name}, ${v.rule.file}:${v.rule.line})` : " (no rule matches: ungoverned)";
  return {
    effect: v.effect,
    governed: v.governed,
    rule: v.rule ?? null,
    reason: v.reason,
    words: `${v.effect}${where}: ${v.reason}`,
  };
}

function absPath(ctx: Context, p: string): string {
  if (p === "~" || p.startsWith("~/")) return join(ctx.paths.home, p.slice(1));
  return isAbsolute(p) ? resolve(p) : resolve(ctx.cwd, p);
}

/** Who can reach a path: agents with a shell, and servers handed a directory above it. */
function reachersOf(inv: Inventory, path: string) {
  const out: { agent: string; through: string; grantedBy: string }[] = [];
  for (const a of inv.agents) {
    if (a.shell.has) out.push({ agent: a.id, through: "shell", grantedBy: a.shell.grantedBy });
    for (const s of inv.mcpServers.filter((x) => a.servers.includes(x.id))) {
      if (serverRoots(s, inv.home, inv.cwd).some((r) => path === r || path.startsWith(`${r}/`)))
        out.push({ agent: a.id, through: `mcp:${s.name}`, grantedBy: s.file });
    }
  }
  return out;
}

function explainPath(ctx: Context, inv: Inventory, rules: LoadedRuleSet, raw: string, json?: boolean): number {
  const path = absPath(ctx, raw);
  const cred = inv.credentials.find((c) => c.path === path);
  const reachers = existsSync(path) ? reachersOf(inv, path) : [];
  const at = ctx.clock.now();
  const act = (name: string, cls: Action["class"]): Action => ({ name, class: cls, targets: [path], arguments: {} });
  const read = ruleWords(rules, act("filesystem.read", "read"), ctx.cwd, at);
  const write = ruleWords(rules, act("filesystem.write", "write"), ctx.cwd, at);
  const shown = tilde(path, inv.home);
  const nameOf = (id: string) => inv.agents.find((a) => a.id === id)?.name ?? id;
  emit(
    ctx,
    json,
    { kind: "path", path, exists: existsSync(path), credential: cred ?? null, reachers, read, write },
    () => [
      `${shown}: ${cred ? `${cred.label} (${cred.kind}${cred.fingerprint ? `, ${cred.fingerprint}` : ""})` : existsSync(path) ? "a path on this machine" : "not on this machine"}`,
      `  reachable by ${reachers.length ? reachers.map((r) => `${nameOf(r.agent)} (${r.through === "shell" ? "its shell" : r.through}, ${tilde(r.grantedBy, inv.home)})`).join(", ") : "no agent found here"}`,
      `  read         ${read.words}`,
      `  write        ${write.words}`,
    ],
  );
  return 0;
}

function explainQuestion(
  ctx: Context,
  inv: Inventory,
  rules: LoadedRuleSet,
  m: RegExpExecArray,
  json?: boolean,
): number {
  const [, who = "", verb = "read", target = ""] = m;
  const ids = inv.agents.map((a) => a.id);
  const id = agentIdFor(who, readAgentNames(ctx.paths.agentNames), ids);
  const a = inv.agents.find((x) => x.id === id);
  if (!a)
    throw new MemnoxError("not_found", `no agent \`${who}\` on this machine`, `found: ${ids.join(", ") || "none"}`);
  const path = absPath(ctx, target);
  const via = reachersOf(inv, path).filter((r) => r.agent === a.id);
  const possible = existsSync(path) && via.length > 0;
  const cls = VERBS[verb.toLowerCase()] ?? "read";
  const name = cls === "destructive" ? "filesystem.delete" : `filesystem.${cls}`;
  const rule = ruleWords(rules, { name, class: cls, targets: [path], arguments: {} }, ctx.cwd, ctx.clock.now(), a.id);
  const mode = readConfig(ctx.paths.config).mode;
  const out = { kind: "question", agent: a.id, verb: verb.toLowerCase(), path, possible, via, rule, mode };
  emit(ctx, json, out, () => [
    `can ${a.name} ${verb.toLowerCase()} ${tilde(path, inv.home)}?`,
    `  possible  ${possible ? `yes: ${via.map((v) => (v.through === "shell" ? `${a.shell.why} (${tilde(v.grantedBy, inv.home)})` : `${v.through} (${tilde(v.grantedBy, inv.home)})`)).join("; ")}` : existsSync(path) ? "no: nothing it runs reaches it" : "no: it is not on this machine"}`,
    `  rules     ${rule.words}`,
    ...(rule.effect !== "allow" && mode !== "enforce"
      ? [
          `  mode      ${mode}: this ${rule.effect} is recorded, not applied; memnox config set mode enforce makes it bite`,
        ]
      : []),
  ]);
  return 0;
}

function explainTool(
  ctx: Context,
  inv: Inventory,
  rules: LoadedRuleSet,
  word: string,
  json?: boolean,
): number | undefined {
  const bare = word.replace(/^mcp\./, "");
  const hits = inv.mcpServers.flatMap((s) =>
    (s.tools ?? []).filter((t) => t.name === bare || `${s.name}.${t.name}` === bare).map((t) => ({ s, t })),
  );
  if (hits.length === 0) return undefined;
  const rows = hits.map(({ s, t }) => {
    const action: Action = { name: `mcp.${s.name}.${t.name}`, class: t.class, targets: [], arguments: {} };
    const agents = inv.agents.filter((a) => a.servers.includes(s.id)).map((a) => a.id);
    return {
      server: s.name,
      tool: t.name,
      class: t.class,
      basis: t.basis,
      outside: t.outside,
      grantedBy: s.file,
      wrapped: s.wrapped,
      agents,
      rule: ruleWords(rules, action, ctx.cwd, ctx.clock.now()),
    };
  });
  emit(ctx, json, { kind: "tool", tools: rows }, () =>
    rows.flatMap((r) => [
      `${r.server}.${r.tool}: a tool of MCP server ${r.server}`,
      `  class        ${r.class} (${r.basis === "name" ? "by its name" : r.basis === "annotations" ? "by the server's annotations" : "nothing says what it does"})`,
      `  granted by   ${tilde(r.grantedBy, inv.home)}${r.wrapped ? ", through memnox" : ", not through memnox"}`,
      `  agents       ${r.agents.join(", ") || "none found here"}`,
      `  outside      ${r.outside ? "yes: it can change something outside this machine" : "no"}`,
      `  rule         ${r.rule.words}`,
    ]),
  );
  return 0;
}

/** Everything explain answers that is not a CLI; undefined when `word` names nothing here. */
export async function explainThing(ctx: Context, word: string, json?: boolean): Promise<number> {
  const inv = await scanMachine(ctx, { probe: false, keep: false });
  const rules = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const q = QUESTION.exec(word.trim());
  if (q) return explainQuestion(ctx, inv, rules, q, json);
  const id = agentIdFor(
    word,
    readAgentNames(ctx.paths.agentNames),
    inv.agents.map((a) => a.id),
  );
  const agent = inv.agents.find((a) => a.id === id);
  if (agent) {
    const hooks = hookStates(ctx, [agent.id]);
    const dormant = dormantAgents(ctx.paths, inv, hooks, ctx.clock.now()).find((d) => d.id === agent.id);
    const hook = hooks[0];
    emit(ctx, json, { kind: "agent", agent, hook: hook ?? null, dormant: dormant ?? null }, () => [
      ...agentLines(inv, agent, hook),
      ...(dormant
        ? [`  dormant      known since ${dormant.knownSince}, silent 30 days, still holds ${dormant.holds.join(", ")}`]
        : []),
    ]);
    return 0;
  }
  if (inv.mcpServers.some((s) => s.name === word)) return mcpReport(ctx, inv, word, json);
  const tool = explainTool(ctx, inv, rules, word, json);
  if (tool !== undefined) return tool;
  if (/^[~./]/.test(word) || existsSync(absPath(ctx, word))) return explainPath(ctx, inv, rules, word, json);
  throw new MemnoxError(
    "not_found",
    `nothing called \`${word}\` here: not a CLI with a verb table, an agent, an MCP server, a tool or a path`,
    'try memnox explain gh, memnox explain ~/.ssh/id_ed25519, or memnox explain "can claude-code read ~/.aws/credentials"',
  );
}
