// `memnox update`: the installed and the latest version, an upgrade only after a yes and only the way this copy was
// installed, then the new binary redraws the wiring (`--rewire`). Offline it says so and changes nothing.

import { lstatSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { join } from "node:path";
import { isAgentName } from "../../../../hooks/types.ts";
import { describeError } from "../../../core/errors.ts";
import { realOr } from "../../../io/real.ts";
import type { Context } from "../../../ports/context.ts";
import { verbTables } from "../../../resolve/tables/index.ts";
import { type Fetch, latestRelease } from "../../../update/latest.ts";
import { upgradePlan } from "../../../update/method.ts";
import { readReceipt } from "../../../update/receipt.ts";
import { LATEST_BASE } from "../../../update/release-index.ts";
import { runUpgrade } from "../../../update/upgrade.ts";
import { compareVersions } from "../../../update/version.ts";
import { installApp } from "../../../wire/app.ts";
import { restartDaemonService } from "../../../wire/daemon-service.ts";
import { installAgentHook } from "../../../wire/hooks/install.ts";
import { readKept, setupRan } from "../../../wire/kept.ts";
import { ensureLink } from "../../../wire/links.ts";
import { describeLeftovers, describeMerge, writeBaseline } from "../../../wire/protect/baseline.ts";
import { confirm } from "../../shared/terminal.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit, printLines } from "../output.ts";
import { recordState } from "./_state-record.ts";

export interface UpdateOptions {
  readonly yes: boolean;
  readonly json: boolean;
  /** Asks the person; undefined when nobody can be asked. */
  readonly ask: (question: string) => boolean | undefined;
  readonly fetch: Fetch;
}

export const update: CommandFactory = (ctx) =>
  command({
    meta: { name: "update", description: "the installed and the latest version; upgrade after a yes, wiring included" },
    args: {
      yes: { type: "boolean", alias: "y", description: "upgrade without asking" },
      rewire: { type: "boolean", description: "point the wiring at this copy again (an upgrade runs it by itself)" },
      json: { type: "boolean", description: "structured output" },
    },
    async run({ args }) {
      if (args.rewire) {
        const r = await rewireAfterUpdate(ctx);
        emit(ctx, args.json, r, () => rewireLines(r));
        return 0;
      }
      return checkAndUpgrade(ctx, {
        yes: args.yes === true,
        json: args.json === true,
        ask: (q) => (ctx.io.stdinIsTTY ? confirm(q) : undefined),
        fetch: (url, init) => fetch(url, init),
      });
    },
  });

/** Where release.json is read: MEMNOX_INSTALL_BASE, else the base install.sh recorded, else the GitHub releases. */
function releaseBase(ctx: Context): string {
  const fromEnv = ctx.env.MEMNOX_INSTALL_BASE;
  if (fromEnv) return fromEnv.replace(/\/+$/, "");
  const r = readReceipt(ctx.paths);
  return r?.method === "script" && r.base ? r.base.replace(/\/+$/, "") : LATEST_BASE;
}

export async function checkAndUpgrade(ctx: Context, o: UpdateOptions): Promise<number> {
  const installed = ctx.version;
  const base = releaseBase(ctx);
  const latest = await latestRelease(base, o.fetch);
  if (!latest.reached) {
    emit(ctx, o.json, { installed, latest: null, reached: false, url: latest.url, reason: latest.reason }, () => [
      `installed  ${installed}`,
      `could not read ${latest.url} (${latest.reason}): offline, or the releases moved; nothing was changed`,
    ]);
    return 1;
  }
  const newest = latest.index.version;
  const report = { installed, latest: newest, reached: true, url: latest.url };
  if ((compareVersions(installed, newest) ?? -1) >= 0) {
    emit(ctx, o.json, { ...report, upToDate: true, upgraded: false }, () => [
      `installed  ${installed}`,
      `latest     ${newest}`,
      `memnox ${installed} is up to date`,
    ]);
    return 0;
  }
  const plan = upgradePlan(whereabouts(ctx, base), newest);
  const planned = { ...report, upToDate: false, method: plan.method, command: plan.command };
  const head = [`installed  ${installed}`, `latest     ${newest}`, `upgrade    ${plan.command}`];
  if (plan.kind === "print") {
    emit(ctx, o.json, { ...planned, upgraded: false, why: plan.why }, () => [
      ...head,
      `${plan.why}; run the command above to upgrade`,
    ]);
    return 0;
  }
  if (!o.json) printLines(ctx, head);
  const yes = o.yes || o.ask(`upgrade memnox ${installed} to ${newest} with the command above?`);
  if (!yes) {
    const why = yes === false ? "you said no" : "nobody could be asked (no terminal)";
    emit(ctx, o.json, { ...planned, upgraded: false, why }, () => [
      `${why}; nothing was changed (memnox update --yes upgrades)`,
    ]);
    return 0;
  }
  const done = await runUpgrade(plan, latest.index, base, { proc: ctx.proc, env: ctx.env, fetch: o.fetch });
  recordState(ctx, "memnox.update", `memnox upgraded from ${installed} to ${newest} (${plan.method})`);
  emit(ctx, o.json, { ...planned, upgraded: true, binary: done.binary, output: done.output }, () => [
    done.output.trimEnd(),
    `memnox upgraded from ${installed} to ${newest}; the wiring points at ${done.binary}`,
  ]);
  return 0;
}

function whereabouts(ctx: Context, base: string) {
  return { execPath: realOr(ctx.execPath), app: realOr(ctx.paths.app), receipt: readReceipt(ctx.paths), base };
}

interface RewireReport {
  /** Interceptor names in ~/.memnox/bin that now point at this copy and did not before. */
  readonly relinked: readonly string[];
  readonly unchanged: number;
  /** Files in ~/.memnox/bin memnox did not make; left alone. */
  readonly foreign: readonly string[];
  /** Where setup ran: the stable copy refreshed from this binary and the kept hooks repointed at it. */
  readonly app?: string;
  readonly hooks?: readonly string[];
  /** A daemon service that was installed, restarted on the new binary. */
  readonly daemon?: string;
  /** Where setup ran: the baseline brought to this version's layout (all of it in the machine file), mode sealed. */
  readonly rules?: readonly string[];
}

/**
 * The wiring setup draws, redrawn by the new binary after an upgrade: the stable copy (a package-manager install
 * upgrades its own binary, not ~/.memnox/app/memnox), the agent hooks setup keeps, and the interceptor links in
 * ~/.memnox/bin. Wrapped MCP entries and the session server start the stable copy already. Rules a person wrote are
 * left alone; the baseline's missing rules are added to the machine file (where this version keeps all of it) and
 * the mode in force is sealed, so a machine set up by an older version is governed the way a new one is.
 */
export async function rewireAfterUpdate(ctx: Context): Promise<RewireReport> {
  const kept = setupRan(ctx.paths.kept) ? readKept(ctx.paths.kept) : undefined;
  const app = kept ? installApp(ctx).words : undefined;
  const hooks = (kept?.hooked ?? []).filter(isAgentName).map((a) => `${a}: ${installAgentHook(ctx, a).status}`);
  const rules = kept ? baselineLines(ctx) : undefined;
  const daemon = await restartDaemonService(ctx);
  return {
    ...relink(ctx),
    ...(app ? { app } : {}),
    ...(kept ? { hooks } : {}),
    ...(rules ? { rules } : {}),
    ...(daemon ? { daemon } : {}),
  };
}

function baselineLines(ctx: Context): string[] {
  try {
    const r = writeBaseline(ctx, verbTables());
    return [...describeMerge("machine rules", r.machine), ...describeLeftovers(r.repository)];
  } catch (e) {
    return [`the baseline was not brought up to date: ${describeError(e)}`];
  }
}

function relink(ctx: Context): RewireReport {
  const relinked: string[] = [];
  const foreign: string[] = [];
  let unchanged = 0;
  for (const name of entries(ctx.paths.bin)) {
    const path = join(ctx.paths.bin, name);
    const before = describe(path);
    if (before === undefined) {
      foreign.push(name);
      continue;
    }
    ensureLink(ctx, ctx.paths.bin, name);
    if (describe(path) === before) unchanged += 1;
    else relinked.push(name);
  }
  return { relinked, unchanged, foreign };
}

function entries(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** A link's target, or the launcher script setup writes from source; undefined for anything memnox did not make. */
function describe(path: string): string | undefined {
  try {
    const st = lstatSync(path);
    if (st.isSymbolicLink()) return `link:${readlinkSync(path)}`;
    const text = st.isFile() && st.size < 4096 ? readFileSync(path, "utf8") : "";
    return text.startsWith("#!/bin/sh\nMEMNOX_ARGV0=") ? `launcher:${text}` : undefined;
  } catch {
    return undefined;
  }
}

function rewireLines(r: RewireReport): string[] {
  const lines = [
    r.relinked.length
      ? `pointed ${r.relinked.length} interceptor(s) at this copy: ${r.relinked.join(", ")}`
      : r.unchanged
        ? `the ${r.unchanged} interceptor(s) already point at this copy`
        : "no interceptors to point at this copy yet (memnox setup installs them)",
  ];
  if (r.foreign.length) lines.push(`left alone (not made by memnox): ${r.foreign.join(", ")}`);
  if (r.app) lines.push(r.app);
  if (r.hooks?.length) lines.push(`hooks: ${r.hooks.join(", ")}`);
  if (r.rules) lines.push(...r.rules);
  if (r.daemon) lines.push(r.daemon);
  return lines;
}
