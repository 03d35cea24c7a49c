// `memnox doctor`: what is risky, why, and the one change that closes each. `--wiring` (is each seam in the path)
// and `--prove` (does each refuse when asked) print what src/wire/wiring.ts reports.
import { unwrittenCount } from "../../../ledger/index.ts";
import { checkOutside, missingLedger } from "../../../ledger/integrity.ts";
import { withLedger } from "../../../ledger/open.ts";
import { loadRuleSet } from "../../../policy/load/index.ts";
import type { Context } from "../../../ports/context.ts";
import { findingsOf, renderFindings, severityCounts } from "../../../scan/findings.ts";
import { instantOf, scanMachine } from "../../../scan/inventory.ts";
import { configIntegrity, readConfig } from "../../../state/config.ts";
import { stopInForce } from "../../../state/stop.ts";
import { readKept } from "../../../wire/kept.ts";
import type { ProofLine, WiringLine } from "../../../wire/wiring-lines.ts";
import { type CommandFactory, command } from "../command.ts";
import { emit } from "../output.ts";

interface WiringChecks {
  wiringReport(ctx: Context): Promise<readonly WiringLine[]>;
  proveSeams(ctx: Context): Promise<readonly ProofLine[]>;
}

const MARK = { ok: "ok", warn: "!", fail: "✗", idle: "idle" } as const;

/** The seam column, wide enough for the longest name (`hooks:gemini-cli`) so words never run into it. */
function seamWidth(lines: readonly { readonly seam: string }[]): number {
  return Math.max(14, ...lines.map((l) => l.seam.length + 2));
}

function renderWiring(lines: readonly WiringLine[]): string[] {
  const w = seamWidth(lines);
  return lines.flatMap((l) => [
    `${MARK[l.status].padEnd(5)}${l.seam.padEnd(w)}${l.words}`,
    ...(l.fix && l.status !== "ok" ? [`${" ".repeat(5 + w)}→ ${l.fix}`] : []),
  ]);
}

function renderProof(lines: readonly ProofLine[]): string[] {
  const w = seamWidth(lines);
  return [
    ...lines.map((l) => `${l.result.padEnd(9)}${l.seam.padEnd(w)}${l.words}`),
    "A declined seam is absent here: it declined the test rather than failing it. An inactive one refuses when run, but its agent does not run it until the step named.",
  ];
}

/** The cheap half of `memnox verify`: the tip kept outside against the chain's end, and tampering rows recorded. */
function ledgerTampering(ctx: Context): string[] {
  try {
    return withLedger(
      ctx,
      (ledger) => checkOutside(ledger).tampered.map((t) => t.reason),
      () => {
        const gone = missingLedger(ctx.paths, readKept(ctx.paths.kept)?.setupAt || undefined);
        return gone ? [gone.reason] : [];
      },
    );
  } catch (e) {
    return [`the ledger cannot be opened: ${(e as Error).message}`];
  }
}

async function findings(ctx: Context, probe: boolean, json: boolean | undefined): Promise<number> {
  const inv = await scanMachine(ctx, { probe });
  const rules = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
  const config = readConfig(ctx.paths.config);
  const sealed = configIntegrity(ctx.paths.config);
  const stop = stopInForce(ctx.paths.stop, ctx.clock.now());
  const list = findingsOf(inv, rules, instantOf(ctx.clock.now()), {
    mode: config.mode,
    approvedAgents: config.approvedAgents,
    ...(stop ? { stop } : {}),
    unwrittenRows: unwrittenCount(ctx.paths),
    unwrittenFile: ctx.paths.ledgerUnwritten,
    ledgerTampered: ledgerTampering(ctx),
    ledgerFile: ctx.paths.db,
    ...(sealed ? { config: sealed } : {}),
  });
  emit(ctx, json, { findings: list, counts: severityCounts(list) }, () => renderFindings(list));
  return 0;
}

/** The kernel's lines beside the seams': the machine's guard, and (in the real command) the agent wall. */
type KernelLines = (ctx: Context) => Promise<WiringLine[]>;

const guardOnly: KernelLines = async (ctx) => [await guardLine(ctx)];

const guardAndWall: KernelLines = async (ctx) => {
  const { agentWallLines } = await import("./_wall-lines.ts");
  return [await guardLine(ctx), ...(await agentWallLines(ctx))];
};

export const doctorWith =
  (checks: () => Promise<WiringChecks>, kernel: KernelLines = guardOnly): CommandFactory =>
  (ctx) =>
    command({
      meta: { name: "doctor", description: "what is risky here, why, and the one change that closes each" },
      args: {
        wiring: { type: "boolean", description: "whether each seam is actually in the path" },
        prove: { type: "boolean", description: "attempt a refusal at every seam and report what came back" },
        probe: {
          type: "boolean",
          description: "start each MCP server configured here to ask what it offers (runs their code); else the cache",
        },
        json: { type: "boolean", description: "structured output" },
      },
      async run({ args }) {
        if (args.wiring) {
          const lines = withGuard(await (await checks()).wiringReport(ctx), await kernel(ctx));
          // The set in force by content hash: how two machines are compared without diffing files.
          const set = loadRuleSet({ cwd: ctx.cwd, env: ctx.env, paths: ctx.paths });
          const ruleSet = { hash: set.hash, files: set.files, rules: set.compiled.rules.length };
          emit(ctx, args.json, { lines, ruleSet }, () => renderWiring(lines));
          return lines.some((l) => l.status === "fail") ? 1 : 0;
        }
        if (args.prove) {
          const lines = await (await checks()).proveSeams(ctx);
          emit(ctx, args.json, { lines }, () => renderProof(lines));
          return lines.some((l) => l.result === "allowed" || l.result === "error") ? 1 : 0;
        }
        return findings(ctx, args.probe === true, args.json);
      },
    });

export const doctor: CommandFactory = doctorWith(() => import("../../../wire/wiring.ts"), guardAndWall);

/** `protect --os-guard`: the kernel wall around what the seams start, as this kernel holds it. */
async function guardLine(ctx: Context): Promise<WiringLine> {
  const { machineGuardState } = await import("../../../wall/os-guard.ts");
  const s = await machineGuardState(ctx);
  return { seam: "kernel-guard", status: s.status, words: s.words, ...(s.fix ? { fix: s.fix } : {}) };
}

/** The kernel's lines beside the seams', before the ledger's (which closes the report). */
function withGuard(lines: readonly WiringLine[], guard: readonly WiringLine[]): WiringLine[] {
  const at = lines.findIndex((l) => l.seam === "ledger");
  return at < 0 ? [...lines, ...guard] : [...lines.slice(0, at), ...guard, ...lines.slice(at)];
}
