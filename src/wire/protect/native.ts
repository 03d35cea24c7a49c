// `protect --apply-native`: the deny and ask rules in force also written into Claude Code's own `permissions`, so
// they hold where memnox is not in the path. Backed up first; `--revert-native` restores the bytes (or, when the
// file changed since, removes exactly the entries memnox added). What Claude Code cannot state is listed, not dropped.

import { rmSync } from "node:fs";
import { join } from "node:path";
import { isRecord } from "../../core/record.ts";
import { readJsonIfExists, writeJsonAtomic } from "../../io/files.ts";
import { entryPattern } from "../../policy/baseline.ts";
import type { PolicyRule } from "../../policy/engine/index.ts";
import { globMatcher } from "../../policy/engine/pattern.ts";
import { MATCH_FIELDS } from "../../policy/engine/types.ts";
import { loadRuleSet } from "../../policy/load/index.ts";
import type { Context } from "../../ports/context.ts";
import { verbTable } from "../../resolve/index.ts";
import { restoreFromBackup, rewriteWithBackup } from "../backup.ts";
import { applyEdits, parseDocument } from "../edit/document.ts";
import type { Edit } from "../edit/edits.ts";
import { hookTarget } from "../hooks/targets.ts";

const NATIVE_OWNER = "native-permissions";

type Kind = "deny" | "ask";

interface NativePlan {
  readonly deny: readonly string[];
  readonly ask: readonly string[];
  /** What Claude Code's permissions cannot say, with why. */
  readonly unexpressible: readonly { readonly rule: string; readonly what: string; readonly why: string }[];
}

/** Match fields Claude Code's permissions cannot express: everything but the action and the target. */
const CONDITIONS = MATCH_FIELDS.filter((f) => f !== "actions" && f !== "targets");

/**
 * A memnox path pattern as Claude Code's permission path: `//abs`, `~/…`, and a bare name anywhere. An exception
 * (`!(*.pub)` in `.ssh`) is one Claude Code's paths cannot hold, so natively the whole directory is refused.
 */
function claudePath(pattern: string): string {
  const target = pattern.replace(/(\/\*\*)?\/!\([^)]*\)$/, "/**");
  if (target.startsWith("~/") || target.startsWith("**/")) return target;
  if (target.startsWith("/")) return `/${target}`;
  return target.includes("/") ? `./${target}` : `**/${target}`;
}

/** A flag as it appears on a command line: `-X=DELETE` is `-X DELETE` or `-X=DELETE`. */
function flagPatterns(words: string, flag: string): string[] {
  const f = flag.replace("=", "*").replace(/\*+/g, "*");
  return [`Bash(${words} ${f}*)`, `Bash(${words} * ${f}*)`].map((p) => p.replace(/\*+/g, "*"));
}

/** The flags a table entry decided by the CLI's own reader names in its description. */
function flagsNamed(when: string | undefined): string[] {
  return when ? [...when.matchAll(/(?:^|[\s,(])(--?[A-Za-z][\w-]*(?:=\S+)?)/g)].map((m) => m[1] ?? "") : [];
}

function cliRules(action: string): string[] | string {
  const [cli = "", verb = ""] = action.split(".", 2);
  const table = verbTable(cli);
  if (!table || !verb) return "no verb table names this action";
  if (verb === "unknown") return "a subcommand no verb table knows has no command line to name";
  const matches = globMatcher(action);
  const out = table.verbs
    .filter((e) => matches(entryPattern(e)))
    .flatMap((e) => {
      const words = [table.cli, ...e.path.map((w) => (w === "**" ? "*" : w))].join(" ");
      const flags = e.flags?.length ? e.flags : flagsNamed(e.when);
      if (e.when && flags.length === 0) return [];
      return flags.length ? flags.flatMap((f) => flagPatterns(words, f)) : [`Bash(${words}:*)`];
    });
  return out.length
    ? [...new Set(out)]
    : `${table.cli} decides it by reading its own arguments, which a Claude Code pattern cannot`;
}

function translate(action: string, targets: readonly string[] | undefined): string[] | string {
  if (action === "filesystem.read" || action === "filesystem.write") {
    if (!targets?.length) return "a rule on every file read or write is not one Claude Code can hold";
    const tool = action === "filesystem.read" ? "Read" : "Edit";
    // A memnox path covers what is inside it when it is a directory; Claude Code's needs `/**` to say so.
    return targets.flatMap((t) => {
      const p = claudePath(t);
      return /[*?[{]/.test(t) ? [`${tool}(${p})`] : [`${tool}(${p})`, `${tool}(${p}/**)`];
    });
  }
  if (action === "http.request") {
    if (!targets?.length || targets.some((t) => t.includes("*") && t !== "*")) return "Claude Code names whole domains";
    return targets.map((t) => `WebFetch(domain:${t})`);
  }
  const mcp = /^mcp\.([^.*]+)\.(.+)$/.exec(action);
  if (mcp)
    return mcp[2] === "*"
      ? [`mcp__${mcp[1]}`]
      : mcp[2]?.includes("*")
        ? "only whole servers or exact tools"
        : [`mcp__${mcp[1]}__${mcp[2]}`];
  if (targets?.length) return "Claude Code's Bash rules cannot name the targets";
  return cliRules(action);
}

/** The rules in force at `cwd` as Claude Code permission entries; allow rules stay memnox's. */
function nativePlan(rules: readonly PolicyRule[]): NativePlan {
  const out: Record<Kind, Set<string>> = { deny: new Set(), ask: new Set() };
  const unexpressible: { rule: string; what: string; why: string }[] = [];
  for (const r of rules) {
    const kind = r.decision.effect;
    if (kind === "allow" || r.decision.mode === "observe") continue;
    const condition = CONDITIONS.find((c) => r.match[c] !== undefined);
    if (condition) {
      unexpressible.push({
        rule: r.name,
        what: r.name,
        why: `it applies only under \`${condition}\`, which Claude Code cannot state`,
      });
      continue;
    }
    for (const action of r.match.actions ?? ["*"]) {
      const t = translate(action, r.match.targets);
      if (typeof t === "string") unexpressible.push({ rule: r.name, what: action, why: t });
      else for (const e of t) out[kind].add(e);
    }
  }
  const deny = [...out.deny];
  return { deny, ask: [...out.ask].filter((e) => !out.deny.has(e)), unexpressible };
}

function recordFile(ctx: Pick<Context, "paths">): string {
  return join(ctx.paths.backup, "native-permissions.json");
}

interface NativeRecord {
  readonly file: string;
  readonly added: Record<Kind, string[]>;
}

function readRecord(ctx: Pick<Context, "paths">): NativeRecord | undefined {
  const raw = readJsonIfExists(recordFile(ctx));
  if (!isRecord(raw) || typeof raw.file !== "string" || !isRecord(raw.added)) return undefined;
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);
  return { file: raw.file, added: { deny: list(raw.added.deny), ask: list(raw.added.ask) } };
}

interface NativeApply {
  readonly file: string;
  readonly added: Readonly<Record<Kind, readonly string[]>>;
  readonly already: number;
  readonly unexpressible: NativePlan["unexpressible"];
  readonly backup: string | null;
}

function settingsFile(ctx: Pick<Context, "paths" | "env">): string {
  return hookTarget("claude-code").file({ home: ctx.paths.home, env: ctx.env });
}

function list(doc: unknown, kind: Kind): unknown[] | undefined {
  const perms = isRecord(doc) ? doc.permissions : undefined;
  const v = isRecord(perms) ? perms[kind] : undefined;
  return Array.isArray(v) ? v : undefined;
}

export function applyNative(ctx: Context): NativeApply {
  const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const plan = nativePlan(set.checked.filter((c) => c.applies).flatMap((c) => c.rules));
  const file = settingsFile(ctx);
  const added: Record<Kind, string[]> = { deny: [], ask: [] };
  let already = 0;
  const r = rewriteWithBackup({
    backupDir: ctx.paths.backup,
    path: file,
    owner: NATIVE_OWNER,
    note: "claude-code permissions",
    nowMs: ctx.clock.now(),
    transform: (text) => {
      added.deny = [];
      added.ask = [];
      const current = text ?? "{}\n";
      const doc = parseDocument("json", current);
      const edits: Edit[] = [];
      for (const kind of ["deny", "ask"] as const) {
        const have = list(doc, kind) ?? [];
        for (const e of plan[kind]) {
          if (have.includes(e)) already++;
          else {
            added[kind].push(e);
            edits.push({ op: "append", path: ["permissions", kind], value: e });
          }
        }
      }
      return edits.length ? applyEdits("json", current, edits, file) : undefined;
    },
  });
  const before = readRecord(ctx);
  const union = (k: Kind) => [...new Set([...(before?.added[k] ?? []), ...added[k]])];
  if (r.changed) writeJsonAtomic(recordFile(ctx), { file, added: { deny: union("deny"), ask: union("ask") } });
  return { file, added, already, unexpressible: plan.unexpressible, backup: r.backup };
}

export interface NativeRevert {
  readonly file?: string;
  readonly outcome: "restored" | "removed" | "unchanged" | "missing" | "none";
}

/** Claude Code's permissions as they were: the bytes back, or only memnox's entries out when the file moved on. */
export function revertNative(ctx: Pick<Context, "paths">): NativeRevert {
  const rec = readRecord(ctx);
  if (!rec) return { outcome: "none" };
  const r = restoreFromBackup({
    backupDir: ctx.paths.backup,
    path: rec.file,
    owners: [NATIVE_OWNER],
    strip: (text, original) => {
      const doc = parseDocument("json", text);
      const orig = original === undefined ? undefined : parseDocument("json", original);
      const edits: Edit[] = [];
      for (const kind of ["deny", "ask"] as const) {
        const items = list(doc, kind) ?? [];
        const ours = items.flatMap((x, i) => (typeof x === "string" && rec.added[kind].includes(x) ? [i] : []));
        if (ours.length === items.length && ours.length > 0 && list(orig, kind) === undefined) {
          edits.push({ op: "remove", path: ["permissions", kind] });
        } else for (const i of ours.reverse()) edits.push({ op: "removeItem", path: ["permissions", kind], index: i });
      }
      const perms = isRecord(doc) && isRecord(doc.permissions) ? Object.keys(doc.permissions) : [];
      const gone = new Set(edits.flatMap((e) => (e.op === "remove" ? [e.path[1]] : [])));
      const emptied = perms.length > 0 && perms.every((k) => gone.has(k));
      const madeByUs = !isRecord(orig) || orig.permissions === undefined;
      const all: Edit[] = emptied && madeByUs ? [{ op: "remove", path: ["permissions"] }] : edits;
      return all.length ? applyEdits("json", text, all, rec.file) : undefined;
    },
  });
  rmSync(recordFile(ctx), { force: true });
  return { file: rec.file, outcome: r.outcome };
}
