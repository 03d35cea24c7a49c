// `memnox protect --from-usage 30d`: ask rules (never deny) for what was granted here and not used in the window.
// It proposes; `--yes` writes the draft into ~/.memnox/machine.policies.toml, because the grants are this machine's.
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { basename, join } from "node:path";
import { MemnoxError } from "../../../core/errors.ts";
import { parseInstant } from "../../../ledger/read/window.ts";
import { renderRule } from "../../../policy/render.ts";
import { mergeRules } from "../../../policy/write.ts";
import type { Context } from "../../../ports/context.ts";
import { scanMachine } from "../../../scan/inventory.ts";
import { tilde } from "../../../scan/render.ts";
import { draftAskRule, usageOf } from "../../../scan/usage.ts";
import { emit } from "../output.ts";

interface Flags {
  readonly window: string;
  readonly yes: boolean;
  readonly json: boolean;
}

function flags(raw: readonly string[]): Flags {
  let window: string | undefined;
  let yes = false;
  let json = false;
  for (let i = 0; i < raw.length; i++) {
    const a = raw[i] ?? "";
    if (a === "--from-usage") window = raw[++i];
    else if (a.startsWith("--from-usage=")) window = a.slice("--from-usage=".length);
    else if (a === "--yes" || a === "-y") yes = true;
    else if (a === "--json") json = true;
    else
      throw new MemnoxError(
        "usage",
        `\`${a}\` does not go with --from-usage`,
        "memnox protect --from-usage 30d [--yes] [--json]",
      );
  }
  if (!window || window.startsWith("-"))
    throw new MemnoxError("usage", "--from-usage needs a window", "memnox protect --from-usage 30d");
  return { window, yes, json };
}

export async function protectFromUsage(ctx: Context, raw: readonly string[]): Promise<number> {
  const f = flags(raw);
  const now = ctx.clock.now();
  const since = parseInstant(f.window, now, "--from-usage");
  if (since === undefined) throw new MemnoxError("usage", "--from-usage needs a window such as 30d, not `all`");
  const inv = await scanMachine(ctx, { probe: false, keep: false });
  const u = usageOf(inv, ctx.paths, since, new Date(now).toISOString());
  const day = new Date(now).toISOString().slice(0, 10);
  const rule = draftAskRule(u, f.window, day);
  const file = ctx.paths.machinePolicies;
  if (u.decisions === 0 || !rule) {
    const why =
      u.decisions === 0
        ? `the ledger holds no decision in the last ${f.window}, so nothing is called unused and nothing is drafted`
        : `everything reachable that can change something outside this machine was used in the last ${f.window}`;
    emit(ctx, f.json, { window: f.window, drafted: null, written: false, why, usage: u }, () => [why]);
    return 0;
  }
  const written = f.yes
    ? mergeRules(file, [rule], {
        header: [
          "Rules about this machine rather than a repository, written by memnox.",
          "deny beats ask beats allow.",
        ],
        mode: 0o600,
        backup: (path) => {
          const dir = join(ctx.paths.backup, "protect");
          mkdirSync(dir, { recursive: true, mode: 0o700 });
          if (existsSync(path)) copyFileSync(path, join(dir, `${day}-${now}-${basename(path)}`));
        },
      })
    : undefined;
  emit(ctx, f.json, { window: f.window, drafted: rule, written: written ?? false, file, usage: u }, () => [
    `PROPOSED (ask, never deny: unused for ${f.window} is not never needed)`,
    ...renderRule(rule)
      .trimEnd()
      .split("\n")
      .map((l) => `  ${l}`),
    "",
    written
      ? `written to ${tilde(file, ctx.paths.home)}; remove the rule \`${rule.name}\` there to undo`
      : `Nothing was changed. memnox protect --from-usage ${f.window} --yes writes this into ${tilde(file, ctx.paths.home)}.`,
  ]);
  return 0;
}
