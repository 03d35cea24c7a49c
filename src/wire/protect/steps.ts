// `memnox protect` with no step named: reversible steps proposed from what this machine holds (credential files no
// rule in force denies reading), each with the command that undoes it. `--apply` writes them into
// ~/.memnox/machine.policies.toml, never a file a team reviews; `--revert [id]` takes them back out.
import { join } from "node:path";
import type { Action } from "../../core/action.ts";
import { MemnoxError } from "../../core/errors.ts";
import { isRecord } from "../../core/record.ts";
import { assess } from "../../gate/assess.ts";
import { gateDeps } from "../../gate/wiring.ts";
import { readJsonIfExists, readTextIfExists, withLock, writeFileAtomic, writeJsonAtomic } from "../../io/files.ts";
import { repoRoot } from "../../io/repo.ts";
import type { RuleSpec } from "../../policy/baseline.ts";
import { checkText } from "../../policy/load/index.ts";
import { renderRule } from "../../policy/render.ts";
import { type MergeResult, mergeRules } from "../../policy/write.ts";
import type { Context } from "../../ports/context.ts";
import { sha256 } from "../files.ts";
import { copyAside, today } from "./baseline.ts";
import { type CredentialFile, credentialFiles, KIND_REASON } from "./credentials.ts";

interface ProtectStep {
  /** `hs_` and eight hex digits, stable for the same step on the same machine. */
  readonly id: string;
  readonly title: string;
  readonly rule: RuleSpec;
  readonly undo: string;
}

function slug(target: string): string {
  return target
    .replace(/^~\//, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 48);
}

function stepFor(c: CredentialFile, date: string): ProtectStep {
  const name = `no-read-${slug(c.target)}`;
  const id = `hs_${sha256(`${name}\n${c.target}`).slice(7, 15)}`;
  const rule: RuleSpec = {
    name,
    description: `found on this machine by memnox protect on ${date}`,
    match: { actions: ["filesystem.read"], targets: [c.target] },
    decision: {
      effect: "deny",
      reason: KIND_REASON[c.kind],
      ...(c.substitute
        ? {
            alternative: {
              action: "filesystem.read",
              resource: c.substitute,
              note: `Read ${c.substitute.split("/").at(-1)} instead: it names the same variables without their values.`,
            },
          }
        : {}),
    },
  };
  return { id, title: `deny reads of ${c.target}`, rule, undo: `memnox protect --revert ${id}` };
}

/** The steps this machine needs: a deny for each credential file a read of which nothing refuses today. */
export function proposeSteps(ctx: Context): { steps: ProtectStep[]; covered: string[] } {
  const date = today(ctx);
  const deps = gateDeps(ctx, { dry: true, record: () => undefined, digest: () => "", keepRuleSet: () => {} });
  const at = deps.now();
  const steps: ProtectStep[] = [];
  const covered: string[] = [];
  for (const c of credentialFiles(ctx.paths.home, repoRoot(ctx.cwd, ctx.env))) {
    const path = c.target.startsWith("~/") ? join(ctx.paths.home, c.target.slice(2)) : c.target;
    const action: Action = { name: "filesystem.read", class: "read", targets: [path], arguments: {} };
    const verdict = assess({ surface: "cli", action, cwd: ctx.cwd, canAsk: true }, deps, at).combined;
    if (verdict.effect === "deny") covered.push(c.target);
    else steps.push(stepFor(c, date));
  }
  return { steps, covered };
}

function appliedFile(ctx: Pick<Context, "paths">): string {
  return join(ctx.paths.root, "protect.json");
}

interface Applied {
  readonly id: string;
  readonly rule: RuleSpec;
  readonly file: string;
  readonly at: string;
}

function readApplied(ctx: Pick<Context, "paths">): Applied[] {
  const raw = readJsonIfExists(appliedFile(ctx));
  const list = isRecord(raw) ? raw.applied : undefined;
  return Array.isArray(list)
    ? (list as Applied[]).filter((a) => typeof a?.id === "string" && typeof a?.rule?.name === "string")
    : [];
}

/** Writes the proposed steps into the machine's own rule file and remembers them for `--revert`. */
export function applySteps(ctx: Context, steps: readonly ProtectStep[]): MergeResult {
  const file = ctx.paths.machinePolicies;
  const result = mergeRules(
    file,
    steps.map((s) => s.rule),
    {
      header: [
        `Rules about this machine rather than a repository, written by memnox protect on ${today(ctx)}.`,
        "Every repository loads them. deny beats ask beats allow, whatever the file or order.",
      ],
      mode: 0o600,
      backup: copyAside(ctx),
    },
  );
  const at = new Date(ctx.clock.now()).toISOString();
  withLock(appliedFile(ctx), () => {
    const before = readApplied(ctx).filter((a) => !result.added.includes(a.rule.name));
    const now = steps
      .filter((s) => result.added.includes(s.rule.name))
      .map((s) => ({ id: s.id, rule: s.rule, file, at }));
    writeJsonAtomic(appliedFile(ctx), { version: 1, applied: [...before, ...now] });
  });
  return result;
}

interface Reverted {
  readonly id: string;
  readonly rule: string;
  readonly file: string;
  /** removed: taken out; changed: somebody edited it since, so it stays for a person to remove. */
  readonly status: "removed" | "changed" | "missing";
}

/** Takes one applied step (or all of them) back out of the rule file, exactly the text protect wrote. */
export function revertSteps(ctx: Context, id: string | undefined): Reverted[] {
  return withLock(appliedFile(ctx), () => {
    const applied = readApplied(ctx);
    const chosen = id === undefined ? applied : applied.filter((a) => a.id === id);
    if (id !== undefined && chosen.length === 0) {
      throw new MemnoxError(
        "not_found",
        `no step \`${id}\` was applied here`,
        "memnox protect --revert with no id takes back every step",
      );
    }
    const out = chosen.map((a) => revertOne(ctx, a));
    const left = applied.filter((a) => !out.some((o) => o.id === a.id && o.status !== "changed"));
    writeJsonAtomic(appliedFile(ctx), { version: 1, applied: left });
    return out;
  });
}

function revertOne(ctx: Context, a: Applied): Reverted {
  const base = { id: a.id, rule: a.rule.name, file: a.file };
  const text = readTextIfExists(a.file);
  if (text === undefined) return { ...base, status: "missing" };
  const block = renderRule(a.rule);
  const at = text.indexOf(block);
  if (at === -1) {
    const still = checkText(a.file, "machine", text).rules.some((r) => r.name === a.rule.name);
    return { ...base, status: still ? "changed" : "missing" };
  }
  const before = text.slice(0, at).replace(/\n$/, "");
  const next = `${before}${before.endsWith("\n") || before === "" ? "" : "\n"}${text.slice(at + block.length)}`;
  const checked = checkText(a.file, "machine", next);
  const others = checkText(a.file, "machine", text).rules.filter((r) => r.name !== a.rule.name).length;
  if (checked.problems.length > 0 || checked.rules.length !== others) return { ...base, status: "changed" };
  copyAside(ctx)(a.file);
  writeFileAtomic(a.file, next, 0o600);
  return { ...base, status: "removed" };
}
