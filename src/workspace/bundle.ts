// Pulling the workspace's rule bundle: one conditional GET (an unchanged bundle is a 304), then both files written to
// temporary names, read back through the gate's own loaders, and renamed into place only once both have parsed.
import { readFileSync, renameSync, rmSync, writeFileSync } from "node:fs";
import { bundleHash, conditionsText } from "../cloud/protocol/bundle.ts";
import { MemnoxError } from "../core/errors.ts";
import { isRecord } from "../core/record.ts";
import { readTextIfExists } from "../io/files.ts";
import { checkText } from "../policy/load/index.ts";
import type { Paths } from "../ports/paths.ts";
import { readOrgConditions } from "../state/org.ts";
import type { Account } from "./account.ts";
import { call, unexpected } from "./transport.ts";

export type PullResult =
  | { readonly outcome: "unchanged"; readonly hash: string | null }
  | { readonly outcome: "applied"; readonly hash: string; readonly before: string | null; readonly rules: number };

interface BundleBody {
  readonly hash: string;
  readonly rules: string | null;
  readonly conditions: string;
}

function bodyOf(v: unknown): BundleBody {
  const o = isRecord(v) ? v : {};
  if (
    typeof o.hash !== "string" ||
    typeof o.conditions !== "string" ||
    !(o.rules === null || typeof o.rules === "string")
  )
    throw new MemnoxError("refused", "the control plane's bundle is not one memnox understands");
  return { hash: o.hash, rules: o.rules, conditions: o.conditions };
}

/** The bundle hash of what is on disk now, or null when no bundle was ever pulled. */
export function appliedBundleHash(rulesFile: string, conditionsFile: string): string | null {
  const rules = readTextIfExists(rulesFile);
  const conditions = readTextIfExists(conditionsFile);
  if (rules === undefined && conditions === undefined) return null;
  return bundleHash(rules ?? "", conditions ?? conditionsText([]));
}

export async function pullBundle(paths: Paths, account: Account): Promise<PullResult> {
  const before = appliedBundleHash(paths.orgPolicies, paths.orgConditions);
  const r = await call(account.url, "GET", "/v1/bundle", {
    token: account.token,
    ...(before ? { headers: { "if-none-match": `"${before}"` } } : {}),
  });
  if (r.status === 304) return { outcome: "unchanged", hash: before };
  if (r.status !== 200) throw unexpected("pulling the rule bundle", r);
  const b = bodyOf(r.json);
  if (bundleHash(b.rules ?? "", b.conditions) !== b.hash)
    throw new MemnoxError("refused", "the bundle's content does not match its hash; nothing was applied");
  const rules = applyBundle(paths, b);
  return { outcome: "applied", hash: b.hash, before, rules };
}

/** Whole or not at all: a file that does not read back through the loader leaves both files as they were. */
export function applyBundle(paths: Paths, b: BundleBody): number {
  const tag = `${process.pid}-${Date.now()}`;
  const rulesTmp = `${paths.orgPolicies}.pull-${tag}`;
  const condTmp = `${paths.orgConditions}.pull-${tag}`;
  try {
    writeFileSync(condTmp, b.conditions, { mode: 0o600 });
    readOrgConditions(condTmp);
    let count = 0;
    if (b.rules !== null) {
      writeFileSync(rulesTmp, b.rules, { mode: 0o600 });
      // Read back from disk, and checked under its real name so the parser the gate picks for it is the one used.
      const checked = checkText(paths.orgPolicies, "workspace", readFileSync(rulesTmp, "utf8"));
      if (checked.problems.length > 0)
        throw new MemnoxError(
          "refused",
          `the workspace's rules do not load here (${checked.problems[0]?.message ?? "a problem"}); nothing was applied`,
        );
      count = checked.rules.length;
    }
    renameSync(condTmp, paths.orgConditions);
    if (b.rules !== null) renameSync(rulesTmp, paths.orgPolicies);
    else rmSync(paths.orgPolicies, { force: true });
    return count;
  } catch (e) {
    throw new MemnoxError("refused", `the workspace's bundle was not applied: ${(e as Error).message}`);
  } finally {
    rmSync(rulesTmp, { force: true });
    rmSync(condTmp, { force: true });
  }
}
