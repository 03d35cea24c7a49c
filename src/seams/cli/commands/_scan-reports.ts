// The other readings of a scan: what moved since a saved one, one server, a counts-only card, granted against used.

import { MemnoxError } from "../../../core/errors.ts";
import { parseInstant } from "../../../ledger/read/window.ts";
import { loadRuleSet } from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { type Change, compareScans } from "../../../scan/diff.ts";
import { instantOf, scanMachine } from "../../../scan/inventory.ts";
import { tilde } from "../../../scan/render.ts";
import { serverDetails } from "../../../scan/server-detail.ts";
import { renderShare, shareCard } from "../../../scan/share.ts";
import { atOrBefore, listSnapshots, loadSnapshot, type SnapshotRef, saveSnapshot } from "../../../scan/snapshots.ts";
import type { Inventory, ServerRow } from "../../../scan/types.ts";
import { usageOf } from "../../../scan/usage.ts";
import { clientDef, isClientId } from "../../../wire/clients.ts";
import { emit, pad } from "../output.ts";

/** The flags `memnox scan` takes; the reports here read the ones they answer. */
export interface ScanFlags {
  readonly json?: boolean | undefined;
  readonly probe?: boolean | undefined;
  readonly save?: boolean | undefined;
  readonly since?: string | undefined;
  readonly from?: string | undefined;
  readonly to?: string | undefined;
  readonly "fail-on"?: string | undefined;
  readonly share?: boolean | undefined;
  readonly mcp?: string | undefined;
  readonly usage?: string | undefined;
}

function pick(ctx: Context, text: string, flag: string): SnapshotRef {
  const list = listSnapshots(ctx.paths.snapshots);
  const iso = parseInstant(text, ctx.clock.now(), flag);
  const ref = iso === undefined ? list[0] : atOrBefore(list, iso);
  if (!ref)
    throw new MemnoxError(
      "not_found",
      `no saved scan at or before \`${text}\``,
      list.length ? `the oldest kept is from ${list[0]?.at}` : "memnox scan --save keeps one",
    );
  return ref;
}

/** The baseline for `--since`: the newest saved scan that old, else the oldest kept (and the screen says its date). */
function baseline(ctx: Context, since: string | undefined): SnapshotRef {
  const list = listSnapshots(ctx.paths.snapshots);
  const oldest = list[0];
  if (!oldest) throw new MemnoxError("not_found", "no saved scan to compare against", "memnox scan --save keeps one");
  if (since === undefined) return list[list.length - 1] ?? oldest;
  const iso = parseInstant(since, ctx.clock.now(), "--since");
  return (iso === undefined ? oldest : atOrBefore(list, iso)) ?? oldest;
}

function changeLine(c: Change, home: string): string {
  return `${c.sign} ${c.label} «${c.kind}» ${c.detail}${c.file ? `  ${tilde(c.file, home)}` : ""}`;
}

export async function changesReport(ctx: Context, a: ScanFlags): Promise<number> {
  const beforeRef = a.from !== undefined ? pick(ctx, a.from, "--from") : baseline(ctx, a.since);
  const before = loadSnapshot(beforeRef);
  const after: Inventory =
    a.to !== undefined ? loadSnapshot(pick(ctx, a.to, "--to")) : await scanMachine(ctx, { probe: a.probe !== false });
  const changes = compareScans(before, after);
  const widened = changes.filter((c) => c.widens);
  const saved = a.save && a.to === undefined ? saveSnapshot(ctx.paths.snapshots, after) : undefined;
  const failOn = a["fail-on"];
  const fails =
    failOn === "widened" ? widened.length > 0 : failOn === "write-capable" && widened.some((c) => c.writeCapable);
  const narrowed = changes.length - widened.length;
  emit(
    ctx,
    a.json,
    {
      since: before.scannedAt,
      until: after.scannedAt,
      changes,
      widened: widened.length,
      narrowed,
      fails,
      ...(saved ? { saved } : {}),
    },
    () => [
      `CHANGES SINCE ${before.scannedAt}`,
      ...(changes.length ? changes.map((c) => changeLine(c, after.home)) : ["  nothing moved"]),
      `${widened.length} change${widened.length === 1 ? "" : "s"} widen authority, ${narrowed} narrow${narrowed === 1 ? "s" : ""} it`,
      ...(fails ? [`--fail-on ${failOn}: something widened`] : []),
      ...(saved ? [`kept as the new baseline: ${saved}`] : []),
    ],
  );
  return fails ? 1 : 0;
}

/** Whether a seam stands in front of the server, and if not, the step that puts one there. */
function wrapNote(s: ServerRow): string {
  if (s.wrapped) return "  (through memnox)";
  if (s.transport !== "stdio") return "  (hosted: no seam stands in front of it)";
  const readOnly = isClientId(s.client) ? clientDef(s.client).readOnly : undefined;
  return readOnly ? `  (${readOnly}: run it under memnox run)` : "  (not through memnox: memnox mcp wrap)";
}

export function mcpReport(ctx: Context, inv: Inventory, name: string, json: boolean | undefined): number {
  const rules = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const details = serverDetails(inv, name, rules, instantOf(ctx.clock.now()));
  if (details.length === 0) {
    const known = [...new Set(inv.mcpServers.map((s) => s.name))].sort();
    throw new MemnoxError(
      "not_found",
      `no MCP server \`${name}\` in any agent's config here`,
      known.length ? `configured: ${known.join(", ")}` : "no agent here configures an MCP server",
    );
  }
  emit(ctx, json, { servers: details }, () =>
    details.flatMap((d) => {
      const s = d.server;
      const counts = Object.entries(d.classes)
        .filter(([, n]) => n > 0)
        .map(([k, n]) => `${n} ${k}`);
      return [
        `${s.name}  ${tilde(s.file, inv.home)}${wrapNote(s)}`,
        `  runs        ${s.command ? [s.command, ...(s.args ?? [])].join(" ") : (s.url ?? "?")}`,
        ...(s.envKeys.length ? [`  handed      ${s.envKeys.join(", ")} (names only)`] : []),
        `  reached by  ${d.agents.length ? d.agents.join(", ") : "no agent found here"}`,
        `  reach       ${s.remote ? "hosted or handed a credential: its writes land outside this machine" : "local"}${s.disabled ? " (disabled)" : ""}`,
        `  band        ${d.band}${counts.length ? `: ${counts.join(", ")}` : ""}${s.tools === null ? ` (${s.toolsNote ?? "tools unknown"})` : ""}`,
        ...(s.hiddenByHost ? [`  hidden      ${s.hiddenByHost} tool(s) by the host's own filter, not counted`] : []),
        ...d.tools.map(
          (t) => `    ${pad(t.class, 14)}${pad(t.name, 34)}${t.effect}${t.rule ? ` (${t.rule})` : " (ungoverned)"}`,
        ),
      ];
    }),
  );
  return 0;
}

export function shareReport(ctx: Context, inv: Inventory, json: boolean | undefined): number {
  const card = shareCard(inv);
  emit(ctx, json, card, () => renderShare(card));
  return 0;
}

export function usageReport(ctx: Context, inv: Inventory, window: string, json: boolean | undefined): number {
  const now = ctx.clock.now();
  const since = parseInstant(window, now, "--usage");
  if (since === undefined) throw new MemnoxError("usage", "--usage needs a window such as 7d");
  const u = usageOf(inv, ctx.paths, since, new Date(now).toISOString());
  emit(ctx, json, { window, ...u }, () => [
    `GRANTED AGAINST USED — last ${window}`,
    ...(u.decisions === 0
      ? [
          `  ${u.granted.length} granted; the ledger holds no decision in the last ${window}, so nothing is called unused`,
        ]
      : [
          `  ${u.granted.length} granted  ${u.used.length} used  ${u.unused.length} never touched`,
          ...(u.firstRecorded && u.firstRecorded > since
            ? [`  the record starts ${u.firstRecorded}, not ${window} ago`]
            : []),
          ...(u.unusedOutside.length
            ? [
                `! ${u.unusedOutside.length} unused capabilit${u.unusedOutside.length === 1 ? "y" : "ies"} can change external state:`,
                ...u.unusedOutside.map(
                  (g) => `    ${pad(g.action, 44)}${g.grantedBy.map((f) => tilde(f, inv.home)).join(", ")}`,
                ),
                `memnox protect --from-usage ${window}   propose ask rules for what is not being used`,
              ]
            : ["  everything unused only reads"]),
        ]),
  ]);
  return 0;
}
